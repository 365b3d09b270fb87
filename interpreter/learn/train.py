"""Expert iteration: search plays itself, a small model learns its choices and the results.

Each iteration plays ``games`` self-play games in which every seat is the search bot (with the
model of the previous iteration inside it once there is one: ``search:...:model=FILE``). At
every decision with more than one option it records the mover's observation, the legal
actions, the share of the search's root visits each got (the policy target) and, when the game
ends, each seat's share of the reward counted from the mover (the value target). The search
also reports its root's estimate of each seat's share; ``value_mix`` of it is blended into the
value target (one game's result is a noisy target; the search's estimate is less noisy but
biased by its playouts, or by the model of the last iteration that guided it).

The model is fitted to a replay buffer of every iteration's records, the older ones thinned
(an iteration ``a`` iterations old keeps each record with probability ``replay ** a``), by
Adam for at most ``epochs`` passes: a held-out slice (``holdout``) stops the fitting when its
loss has not improved for ``patience`` passes, and the weights of its best pass are kept, so
a small data set is not overfitted and a large one is not underfitted. The model is written to
the output file, which the next iteration's search reads: a stronger and cheaper teacher
(expert iteration: Anthony et al. 2017; AlphaZero, 2018).

Games are played in worker processes (or on a Dask cluster); game ``i`` of iteration ``k`` is
seeded from ``(seed, k, i)`` and the search runs a fixed number of iterations, so the same
seed gives the same model with any number of workers. The first ``explore`` decisions of a game
are sampled from the visit shares instead of taking the most visited option, so that the
games differ and the records cover more than one line of play.

``full_share`` below 1 spends the search where it is learned from (playout cap randomisation,
KataGo, Wu 2019): each decision is searched by the full teacher with that probability and
recorded, the others are played by the same search cut to ``fast_iterations``: their positions
teach the value head only (the game's result, blended with the quick search's estimate), not
the policy. Games then cost a fraction of their full search, so the same CPU plays more of
them and the records come from more, and more varied, positions.

``init`` continues from a model file instead of a fresh network: its weights, its input
standardisation and its layer widths are kept, and the first iteration's teacher is already the
guided search with it inside. Training done in several runs adds up this way (the replay
buffer starts empty again; the optimiser's moments start afresh).

``gate`` above 0 keeps the best model rather than the last (learn/gate.py): each fitted model is
written beside the output (``.candidate``) and plays a match against the model in the output
file, which it replaces only if it wins its even share; the kept model teaches the next
iteration. Without it, each iteration's model replaces the last.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from interpreter.agents.spaces import Spaces
from interpreter.bots import UnknownBotError, make_bot, parse_bot_spec
from interpreter.diagnostics.errors import ConfigError
from interpreter.infoset.worlds import SeatView
from interpreter.learn.fitting import fit, replay_buffer, stack_records
from interpreter.learn.gate import GateResult, candidate_path, gate_match
from interpreter.learn.model import Adam, PolicyValueNet, load_model, save_model
from interpreter.learn.model_spaces import (
    composition,
    describe,
    legal_actions,
    observe,
    spaces_of,
)
from interpreter.learn.transfer import carry_over

__all__ = ["Teacher", "TrainConfig", "TrainReport", "play_selfplay_game", "train"]


@dataclass
class TrainConfig:
    """What ``rulebook train`` was asked for."""

    game: str
    players: int
    out: str
    overlays: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    iterations: int = 3  # 0: as many as fit in ``minutes``
    games: int = 16
    search: str = "search:iterations=100:depth=30"
    guided_search: str = "search:iterations=100"  # once a model exists (leaves need no playout)
    seed: int = 0
    jobs: int = 1
    hidden: tuple[int, ...] = (128,)
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    explore: int = 12
    replay: float = 0.7
    value_mix: float = 0.5
    holdout: float = 0.1
    patience: int = 3
    init: str = ""  # a model file to continue from (see the module)
    full_share: float = 1.0  # decisions searched in full and recorded (see the module)
    fast_iterations: int = 10  # the search of the others
    minutes: float = 0.0  # a time budget: no iteration is started that would end past it
    gate: int = 0  # games of each gating match (see the module); 0: the last model is kept


@dataclass
class TrainReport:
    """Per iteration: games, decisions recorded, loss before and after fitting, seconds; why
    it stopped (``iterations``: all were run; ``minutes``: the next would have ended past the
    time budget)."""

    iterations: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    out: str = ""
    stopped: str = "iterations"
    kept: int = 0  # the iteration whose model the output file holds (0: the --init model)


@dataclass(frozen=True)
class Teacher:
    """Who plays the self-play games: ``bot`` (a search spec) searches the decisions; with
    ``full_share`` < 1 only that share of them, ``fast`` (the same search, fewer iterations)
    playing the rest, whose positions teach the value head only; the first ``explore``
    decisions searched in full are sampled from the visit shares."""

    bot: str
    explore: int
    full_share: float = 1.0
    fast: str = ""


def play_selfplay_game(
    head: Mapping[str, Any], bot: str | Teacher, seed: int, explore: int = 0
) -> dict:
    """Play one game with the teacher in every seat (a search spec, or a :class:`Teacher`);
    its training records."""
    teacher = bot if isinstance(bot, Teacher) else Teacher(bot, explore)
    spaces = spaces_of(head)
    game = spaces.game
    players = game.players
    bots = [make_bot(teacher.bot, seat, seed) for seat in range(players)]
    capped = teacher.full_share < 1.0
    fast = [make_bot(teacher.fast, seat, seed) for seat in range(players)] if capped else []
    cap = random.Random(f"cap:{seed}")
    explore = teacher.explore
    rng = random.Random(f"explore:{seed}")
    state = game.new_state(seed)
    state.log = None
    state.tj = None  # the agent spaces' game keeps a journal for encoders; nothing reads it here
    obs: list[np.ndarray] = []
    acts: list[list[int]] = []
    targets: list[list[float]] = []
    movers: list[int] = []
    roots: list[list[float]] = []
    searched = 0  # decisions searched in full (the first `explore` of them are sampled)
    while not state.is_over:
        legal = state.legal_options()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        seat = state.to_move
        view = SeatView(state, seat)
        full = not capped or cap.random() < teacher.full_share
        searcher = bots[seat] if full else fast[seat]
        obs.append(observe(spaces, view).astype(np.float32))
        acts.append(legal_actions(spaces, state.pending or {}, legal))
        choice = searcher.choose(view, legal)
        movers.append(seat)
        root = list(getattr(searcher, "last_root_value", []) or [])
        roots.append([root[(seat + k) % players] for k in range(players)] if root else [])
        if not full:  # a quick move: its position teaches the value head only
            targets.append([])
            state.apply(choice)
            continue
        visits = getattr(searcher, "last_visits", {}) or {choice: 1}
        counts = [float(visits.get(o, 0)) for o in legal]
        total = sum(counts) or 1.0
        targets.append([v / total for v in counts])
        searched += 1
        if searched <= explore and sum(counts) > 0:
            choice = rng.choices(legal, weights=counts)[0]
        state.apply(choice)
    winners = state.result().winners
    rewards = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    return {
        "obs": obs,
        "acts": acts,
        "targets": targets,
        "movers": movers,
        "rewards": rewards,
        "roots": roots,
    }


def _selfplay_task(head: Mapping[str, Any], teacher: Teacher, seeds: list[int]) -> list:
    return [play_selfplay_game(head, teacher, s) for s in seeds]


def train(
    cfg: TrainConfig,
    executor: cf.Executor | None = None,
    progress: Callable[[str], None] | None = None,
) -> TrainReport:
    """Run expert iteration as ``cfg`` says, writing the model to ``cfg.out`` each iteration."""
    if cfg.iterations < 0 or cfg.games < 1 or (cfg.iterations == 0 and cfg.minutes <= 0):
        raise ConfigError("train: --iterations and --games must be at least 1")
    start = time.perf_counter()
    options = tuple(sorted(cfg.options.items()))
    head = {"game": cfg.game, "players": cfg.players, "overlays": cfg.overlays}
    spaces = spaces_of({**head, "options": dict(options)})
    head = composition(cfg.game, cfg.players, cfg.overlays, cfg.options, spaces.game)
    _check_teachers(cfg)
    n_act, players = spaces.actions.size, cfg.players
    net, done, fresh = _start(cfg, head, spaces, progress)
    opt = Adam(net.params, cfg.lr)
    rng = np.random.default_rng(cfg.seed)
    report = TrainReport(out=cfg.out)
    own = executor is None and cfg.jobs > 1
    pool = cf.ProcessPoolExecutor(cfg.jobs) if own else executor
    history: list[tuple[np.ndarray, ...]] = []
    try:
        if fresh is not None or (cfg.gate and cfg.init):
            # carried over from another composition: its first teacher plays this one; with
            # gating, the model to beat is in the output file from the start
            save_model(cfg.out, net, {**head, "trained": {"iterations": done, "init": cfg.init}})
        for it in range(cfg.iterations) if cfg.iterations else itertools.count():
            if _past_budget(cfg, start, report):
                report.stopped = "minutes"
                if progress is not None:
                    progress(
                        f"stopping after {it} iterations: the next would end past the "
                        f"{cfg.minutes:g}-minute budget"
                    )
                break
            t0 = time.perf_counter()
            teacher = _teacher(cfg, cfg.out if it or fresh is not None else cfg.init)
            seeds = [
                random.Random(f"train:{cfg.seed}:{it}:{g}").getrandbits(31)
                for g in range(cfg.games)
            ]
            records = _play(pool, head, teacher, seeds, _game_progress(progress, it, cfg))
            t_play = time.perf_counter() - t0
            history.append(stack_records(records, n_act, players, cfg.value_mix))
            data = replay_buffer(history, cfg.replay, rng)
            if it == 0:
                _first_scale(net, cfg, fresh, data[0])
            fitted = fit(net, opt, data, cfg.epochs, cfg.batch, rng, cfg.holdout, cfg.patience)
            trained = _trained(cfg, done + it + 1)
            gate = _gate(cfg, pool, net, {**head, "trained": trained}, options, it)
            if gate is None or gate.kept:
                save_model(cfg.out, net, {**head, "trained": trained})
                report.kept = it + 1
            row = _row(it, records, data, fitted, t_play, time.perf_counter() - t0, gate)
            report.iterations.append(row)
            if progress is not None:
                progress(_row_line(_numbered(it, cfg), row))
                if gate is not None:
                    progress(_gate_line(cfg, gate, report.kept))
    except KeyboardInterrupt:
        if progress is not None:
            progress(_interrupted_line(cfg, report))
        raise
    finally:
        if own and pool is not None:
            pool.shutdown(cancel_futures=True)
    report.seconds = round(time.perf_counter() - start, 2)
    return report


def _teacher(cfg: TrainConfig, model: str | None) -> Teacher:
    """The search that plays this iteration's games: guided by ``model`` once there is one."""
    bot = f"{cfg.guided_search}:model={model}" if model else cfg.search
    return Teacher(bot, cfg.explore, cfg.full_share, f"{bot}:iterations={cfg.fast_iterations}")


def _first_scale(
    net: PolicyValueNet, cfg: TrainConfig, fresh: np.ndarray | None, features: np.ndarray
) -> None:
    """The features' scale from the first iteration's data: all of them for a new model; for
    one carried over from another composition, the features new to this one (weights 0)."""
    if not cfg.init:
        net.set_scale(features)
    elif fresh is not None and fresh.any():
        net.mean[fresh] = features[:, fresh].mean(axis=0)
        net.scale[fresh] = 1.0 / np.maximum(features[:, fresh].std(axis=0), 1e-3)


def _check_teachers(cfg: TrainConfig) -> None:
    """The search bots that teach, and how the full search is shared, are usable."""
    if not 0.0 < cfg.full_share <= 1.0 or cfg.fast_iterations < 1:
        raise ConfigError("train: the full-search share must lie in (0, 1], fast iterations >= 1")
    for flag, spec in (("--search", cfg.search), ("--guided-search", cfg.guided_search)):
        if not spec.startswith("search"):
            raise ConfigError(f"train: {flag} must be a search bot spec, not {spec!r}")
        try:  # a bad parameter fails now, with the registry's message (the guided teacher's
            # model does not exist yet: its parameters are read, the bot is made later)
            parse_bot_spec(spec)
            if flag == "--search":
                make_bot(spec, 0, 0)
        except (UnknownBotError, ValueError) as exc:
            raise ConfigError(f"train: {flag} {spec}: {exc}") from None


def _trained(cfg: TrainConfig, iterations: int) -> dict[str, Any]:
    """How the model was trained, as its file's header says."""
    trained: dict[str, Any] = {"search": cfg.search, "seed": cfg.seed, "iterations": iterations}
    trained.update(games=cfg.games, replay=cfg.replay, value_mix=cfg.value_mix)
    if cfg.init:
        trained["init"] = cfg.init
    if cfg.full_share < 1:
        trained.update(full_share=cfg.full_share, fast_iterations=cfg.fast_iterations)
    if cfg.gate:
        trained["gate"] = cfg.gate
    return trained


def _row(
    it: int,
    records: list[Any],
    data: tuple[np.ndarray, ...],
    fitted: Mapping[str, Any],
    t_play: float,
    seconds: float,
    gate: GateResult | None,
) -> dict[str, Any]:
    """One iteration's line of the report."""
    row = {
        "iteration": it + 1,
        "games": len(records),
        "decisions": sum(len(r["movers"]) for r in records),
        "rows": len(data[0]),
        "epochs": fitted["epochs"],
        "loss_before": round(fitted["loss_before"], 4),
        "loss_after": round(fitted["loss_after"], 4),
        "holdout_before": round(fitted["holdout_before"], 4),
        "holdout_after": round(fitted["holdout_after"], 4),
        "selfplay_s": round(t_play, 2),
        "seconds": round(seconds, 2),
        "kept": gate is None or gate.kept,
    }
    if gate is not None:
        row.update(gate_games=gate.games, gate_share=round(gate.share, 4))
    return row


def _row_line(numbered: str, row: Mapping[str, Any]) -> str:
    return (
        f"iteration {numbered}: {row['games']} games, "
        f"{row['decisions']} decisions, {row['rows']} rows, {row['epochs']} epochs, "
        f"loss {row['loss_before']:.3f} -> {row['loss_after']:.3f} (held out "
        f"{row['holdout_before']:.3f} -> {row['holdout_after']:.3f}), "
        f"self-play {row['selfplay_s']:.1f}s, {row['seconds']:.1f}s"
    )


def _interrupted_line(cfg: TrainConfig, report: TrainReport) -> str:
    if report.kept:
        return f"interrupted: {cfg.out} holds the model of iteration {report.kept}"
    if cfg.gate and cfg.init:
        return f"interrupted: {cfg.out} holds the --init model"
    return "interrupted during the first iteration: no model trained yet"


def _gate(
    cfg: TrainConfig,
    pool: cf.Executor | None,
    net: PolicyValueNet,
    header: dict[str, Any],
    options: tuple[tuple[str, Any], ...],
    it: int,
) -> GateResult | None:
    """With gating and a model to beat (the --init model, or a kept iteration's), the match of
    the one just fitted (written to the candidate file) against it; else None: kept as it is."""
    if not cfg.gate or not (it or cfg.init):
        return None
    candidate = candidate_path(cfg.out)
    save_model(candidate, net, header)
    seed = random.Random(f"gate:{cfg.seed}:{it}").getrandbits(31)
    overlays = tuple(cfg.overlays)
    return gate_match(
        pool, cfg.game, cfg.players, overlays, options, candidate, cfg.out, cfg.gate, seed
    )


def _gate_line(cfg: TrainConfig, gate: GateResult, kept: int) -> str:
    """The progress line of a gating match."""
    verdict = "kept" if gate.kept else "not kept"
    holds = f"iteration {kept}'s model" if kept else "the --init model"
    return (
        f"gate: the new model won {gate.share:.3f} of {gate.games} games against the kept one "
        f"(even share {gate.even:.3f}): {verdict}; {cfg.out} holds {holds}"
    )


def _numbered(it: int, cfg: TrainConfig) -> str:
    """Iteration ``it`` as the progress lines name it: "3/20", or "3" under a time budget
    alone (no count)."""
    return f"{it + 1}/{cfg.iterations}" if cfg.iterations else str(it + 1)


def _past_budget(cfg: TrainConfig, start: float, report: TrainReport) -> bool:
    """Whether the next iteration, taking as long as the last one did, would end past the
    time budget (never before the first: a budget shorter than one iteration still trains
    one)."""
    if cfg.minutes <= 0 or not report.iterations:
        return False
    last = report.iterations[-1]["seconds"]
    return time.perf_counter() - start + last > cfg.minutes * 60


def _start(
    cfg: TrainConfig,
    head: Mapping[str, Any],
    spaces: Spaces,
    progress: Callable[[str], None] | None,
) -> tuple[PolicyValueNet, int, np.ndarray | None]:
    """A fresh network, or the one in ``cfg.init``, and the iterations already behind it. A
    model of this composition goes on as it is; one of another composition with as many seats
    (a house rule's base game) gives what the two share, by feature and action name
    (learn/transfer.py): then also the mask of features it had no weights for."""
    n_in, n_act = spaces.observations.size, spaces.actions.size
    if not cfg.init:
        return PolicyValueNet(n_in, n_act, cfg.players, cfg.hidden, cfg.seed), 0, None
    net, old = load_model(cfg.init)
    if old.get("identity") == head["identity"]:
        if (net.n_in, net.n_actions) != (n_in, n_act):
            raise ConfigError(
                f"--init {cfg.init}: the model has {net.n_in} features and {net.n_actions} "
                f"actions; this engine builds {n_in} and {n_act} for the composition: "
                "train afresh"
            )
        return net, int(old.get("trained", {}).get("iterations", 0)), None
    if int(old.get("players", 0)) != cfg.players:
        raise ConfigError(
            f"--init {cfg.init}: the model was trained for {describe(old['identity'])}, not "
            f"{describe(head['identity'])}; a model of another composition can start this one "
            "only with as many players"
        )
    before = spaces_of(old)
    net, fresh, features, actions = carry_over(
        net,
        before.observations.features,
        before.actions.names,
        spaces.observations.features,
        spaces.actions.names,
        cfg.seed,
    )
    if progress is not None:
        progress(
            f"starting from {cfg.init} ({describe(old['identity'])}): {features} of "
            f"{n_in} features and {actions} of {n_act} actions carried over"
        )
    return net, 0, fresh


def _game_progress(
    progress: Callable[[str], None] | None, it: int, cfg: TrainConfig
) -> Callable[[int, dict], None] | None:
    """A line per self-play game finished (an iteration can take many minutes)."""
    if progress is None:
        return None
    started = time.perf_counter()

    def done(count: int, record: dict) -> None:
        progress(
            f"iteration {_numbered(it, cfg)}: game {count}/{cfg.games} played "
            f"({len(record['movers'])} decisions recorded, "
            f"{time.perf_counter() - started:.0f}s so far)"
        )

    return done


def _play(
    pool: cf.Executor | None,
    head: Mapping[str, Any],
    teacher: Teacher,
    seeds: list[int],
    done: Callable[[int, dict], None] | None = None,
) -> list[dict]:
    """Play the self-play games here or on ``pool``, in seed order either way; ``done`` is
    told of each game as it finishes (its count so far and its records)."""
    records: list[dict] = []
    if pool is None:
        for seed in seeds:
            records.extend(_selfplay_task(head, teacher, [seed]))
            if done is not None:
                done(len(records), records[-1])
        return records
    futures = [pool.submit(_selfplay_task, head, teacher, [s]) for s in seeds]
    if done is not None:
        for count, future in enumerate(cf.as_completed(futures), start=1):
            done(count, future.result()[0])
    return [r for f in futures for r in f.result()]
