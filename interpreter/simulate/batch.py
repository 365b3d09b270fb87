"""Run many seeded games, in parallel, through any ``concurrent.futures`` executor.

Game ``i`` of a run with seed ``S`` is played with seed ``S + i`` and its seats' bots are made
with ``make_bot(name, seat, S + i)``, exactly as ``rulebook play --seed S+i --bots ...`` does, so
any game of a simulation can be replayed on its own. Games are handed out in chunks of
consecutive indexes; results are put back in index order, so the same seed gives the same
records (and summary) whatever the number of jobs or the executor: local processes (the
default), the calling process (``jobs=1``), or a Dask cluster (``distributed``'s
``Client.get_executor()``).

>>> spec = SimSpec(game="tests/toy/ruleset.yaml", players=2, seats=("random", "random"), games=3)
>>> run = run_simulation(spec, jobs=1)
>>> [r["index"] for r in run.records], run.interrupted
([0, 1, 2], False)
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from interpreter.diagnostics.errors import ConfigError, RulebookError, RulesError
from interpreter.engine.game import Game
from interpreter.infoset.worlds import SeatView
from interpreter.model.limits import GameLimitError

__all__ = [
    "LazyView",
    "SimRun",
    "SimSpec",
    "default_jobs",
    "family_of",
    "load_spec_game",
    "play_game",
    "run_chunk",
    "run_simulation",
    "scheduler_executor",
]

#: A progress callback receives (games finished, games requested).
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SimSpec:
    """What to simulate. Plain and picklable: it is sent to every worker."""

    game: str
    players: int
    seats: tuple[str, ...]
    overlays: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    seed: int = 0
    games: int = 100
    # play each deal once per seat rotation: game i is deal i // players (seed S + deal) with
    # the bots turned i % players seats on, so seat advantage cancels out of each bot's share
    rotate: bool = False
    check: bool = False  # check the ruleset's invariants after every decision
    coverage: bool = False  # play a coverage build; each record says which rules its game ran

    def game_key(self) -> tuple:
        return (self.game, self.players, self.overlays, self.options, self.coverage)

    def seating(self, index: int) -> tuple[tuple[str, ...], int]:
        """The bots by seat and the seed of game ``index``."""
        if not self.rotate:
            return self.seats, self.seed + index
        turn = index % self.players
        seats = self.seats[-turn:] + self.seats[:-turn] if turn else self.seats
        return seats, self.seed + index // self.players


@dataclass
class SimRun:
    """The finished games (in index order) and how the run went."""

    spec: SimSpec
    records: list[dict[str, Any]] = field(default_factory=list)
    # games stopped at the ruleset's safety bound (E003): index, seed, where and why
    not_ended: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    # with spec.coverage: rule point index (of the coverage build's probes) -> runs
    coverage: Counter[int] = field(default_factory=Counter)
    elapsed: float = 0.0
    jobs: int = 1
    executor: str = "local"


def default_jobs() -> int:
    """All cores (``os.cpu_count()``), at least 1."""
    return max(1, os.cpu_count() or 1)


def family_of(option_id: str) -> str:
    """The text before the first ``:`` (the whole id when it has none).

    >>> family_of("pick:red:2"), family_of("pass")
    ('pick', 'pass')
    """
    return option_id.split(":", 1)[0]


# One compiled game per worker process (and per spec), loaded on first use.
_GAMES: dict[tuple, Game] = {}


def load_spec_game(spec: SimSpec) -> Game:
    """The compiled game of ``spec``, compiled once per process (workers inherit or reuse it)."""
    key = spec.game_key()
    game = _GAMES.get(key)
    if game is None:
        if spec.coverage:
            from interpreter.coverage.collector import coverage_build

            game = coverage_build(spec.game, spec.players, spec.overlays, dict(spec.options))[0]
        else:
            from interpreter.engine.loader import load_game

            game = load_game(spec.game, spec.players, spec.overlays, dict(spec.options))
        _GAMES[key] = game
    return game


# a seat's view, built only when a bot first reads it (``random`` never pays for it); bots that
# search draw full states consistent with it (infoset/worlds.py)
LazyView = SeatView


def play_game(
    game: Game, seats: Sequence[str], seed: int, index: int, check: bool = False
) -> dict[str, Any]:
    """Play one game with bots to the end; returns its record (plain, JSON-able).

    A rule failing, or with ``check`` an invariant of the ruleset broken after a decision, stops
    the run: a RulesError whose diagnostics also name the game's seed.

    ``families`` counts every chosen option by family; ``ids`` counts in full the options of
    the form ``family:name`` (those that pick one entry: a card, a role, a piece).
    """
    from interpreter.bots import make_bot
    from interpreter.engine.invariant_checks import check_invariants

    bots = [make_bot(name, seat, seed) for seat, name in enumerate(seats)]
    try:
        state = game.new_state(seed)
        state.log = None
        families: Counter[str] = Counter()
        ids: Counter[str] = Counter()
        if check:
            check_invariants(state)
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_options()
            choice = bots[seat].choose(LazyView(state, seat), legal)
            state.apply(choice)
            if check:
                check_invariants(state)
            head, sep, rest = choice.partition(":")
            families[head] += 1
            if sep and ":" not in rest:
                ids[choice] += 1
    except GameLimitError as e:
        # a game that never ends is reported, and the other games go on
        d = e.diagnostics[0]
        return {
            "index": index,
            "seed": seed,
            "ended": False,
            "rounds": state.round,
            "decisions": state.decisions,
            "where": d.location(),
            "message": d.message,
        }
    except RulesError as e:
        raise RulesError(
            [replace(d, message=f"game {index} (seed {seed}): {d.message}") for d in e.diagnostics]
        ) from None
    res = state.result()
    return {
        "index": index,
        "seed": seed,
        "winner": res.winner,
        "winners": list(res.winners),
        "totals": [s["total"] for s in res.scores],
        "tiebreaks": [s["tiebreak"] for s in res.scores],
        "components": [dict(s["components"]) for s in res.scores],
        "rounds": res.rounds,
        "decisions": res.decisions,
        "trigger": res.trigger,
        "families": dict(sorted(families.items())),
        "ids": dict(sorted(ids.items())),
    }


def run_chunk(spec: SimSpec, indexes: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games ``indexes`` of ``spec`` (what a worker runs)."""
    game = load_spec_game(spec)
    return [_play_one(game, spec, i) for i in indexes]


def _play_one(game: Game, spec: SimSpec, index: int) -> dict[str, Any]:
    """Game ``index`` of ``spec``; a seat-rotated game's record names its bots by seat."""
    seats, seed = spec.seating(index)
    if not spec.coverage:
        record = play_game(game, seats, seed, index, check=spec.check)
    else:  # the rules this game ran: what its play added to the build's counters
        probes = game.rules.probes
        assert probes is not None, "a coverage build counts"
        counts = probes.counts
        before = list(counts)
        record = play_game(game, seats, seed, index, check=spec.check)
        record["coverage"] = {k: n - before[k] for k, n in enumerate(counts) if n != before[k]}
    if spec.rotate:
        record["seats"] = list(seats)
    return record


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops handing out work and keeps results."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(games: int, jobs: int, size: int | None) -> list[list[int]]:
    if size is None:
        # Small enough to balance the load and show progress, large enough that the cost of
        # sending a task stays small next to playing its games.
        size = max(1, min(25, games // (jobs * 16) or 1))
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


def scheduler_executor(
    address: str, timeout: str = "10s"
) -> tuple[cf.Executor, Callable[[], None]]:
    """A ``concurrent.futures`` executor on the Dask cluster at ``address`` and a close function.

    Needs the optional extra: ``pip install 'rulebook-games[dask]'``.
    """
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError(
            "--scheduler needs Dask's 'distributed' package: pip install 'rulebook-games[dask]'"
        ) from None
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return client.get_executor(), client.close


def run_simulation(
    spec: SimSpec,
    jobs: int | None = None,
    *,
    executor: cf.Executor | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
    executor_name: str | None = None,
) -> SimRun:
    """Play ``spec.games`` games; Ctrl-C (KeyboardInterrupt) stops early and keeps what finished.

    With ``executor`` given, chunks go to it (a Dask ``ClientExecutor``, a thread pool, ...) and
    it is left open. Otherwise ``jobs`` (default: all cores) local processes are used, or the
    calling process when ``jobs == 1``.
    """
    if spec.games < 0:
        raise ValueError("games must be >= 0")
    if len(spec.seats) != spec.players:
        raise ConfigError(f"{len(spec.seats)} bots for {spec.players} players")
    jobs = default_jobs() if jobs is None else max(1, jobs)
    run = SimRun(spec=spec, jobs=jobs)
    run.executor = executor_name or ("custom" if executor is not None else "local")
    start = time.perf_counter()
    if executor is None and jobs == 1:
        _run_here(spec, run, progress)
    else:
        _run_pool(spec, run, executor, jobs, progress, chunk_size)
    run.records.sort(key=lambda r: r["index"])
    for r in run.records:  # summed once here, kept out of the per-game records
        run.coverage.update(r.pop("coverage", {}))
    run.not_ended = [r for r in run.records if r.get("ended") is False]
    if run.not_ended:
        run.records = [r for r in run.records if r.get("ended") is not False]
    run.elapsed = time.perf_counter() - start
    return run


def _run_here(spec: SimSpec, run: SimRun, progress: Progress | None) -> None:
    game = load_spec_game(spec)
    try:
        for i in range(spec.games):
            run.records.append(_play_one(game, spec, i))
            if progress is not None:
                progress(len(run.records), spec.games)
    except KeyboardInterrupt:
        run.interrupted = True


def _run_pool(
    spec: SimSpec,
    run: SimRun,
    executor: cf.Executor | None,
    jobs: int,
    progress: Progress | None,
    chunk_size: int | None,
) -> None:
    own = executor is None
    pool: cf.Executor = executor or cf.ProcessPoolExecutor(jobs, initializer=_quiet_worker)
    futures: list[cf.Future] = []
    try:
        futures = [pool.submit(run_chunk, spec, c) for c in _chunks(spec.games, jobs, chunk_size)]
        failed: int | None = None  # the first chunk whose games stopped on a rule error
        for future in cf.as_completed(futures):
            if future.cancelled():
                continue
            if isinstance(future.exception(), RulebookError):
                # report the error of the lowest game, as one process would: drop the later
                # chunks, let the earlier ones finish (one of them may fail first)
                at = futures.index(future)
                failed = at if failed is None else min(failed, at)
                for f in futures[at + 1 :]:
                    f.cancel()
                continue
            run.records.extend(future.result())
            if progress is not None:
                progress(len(run.records), spec.games)
        if failed is not None:
            futures[failed].result()  # raises it
    except KeyboardInterrupt:
        run.interrupted = True
        for f in futures:
            f.cancel()
        # Chunks already running finish in the background; keep those that are done now.
        seen = {r["index"] for r in run.records}
        for f in futures:
            if f.done() and not f.cancelled() and f.exception() is None:
                run.records.extend(r for r in f.result() if r["index"] not in seen)
    finally:
        if own:
            pool.shutdown(wait=not run.interrupted, cancel_futures=True)
