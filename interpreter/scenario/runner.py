"""Run scenarios: load the game, set up, take the steps, check the expectations.

``run_scenario(scenario).status`` is ``'pass'``, ``'fail'`` or ``'error'``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics.errors import RulebookError, RulesError
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.engine.invariants import broken_invariants, broken_names
from interpreter.model.limits import GameLimitError
from interpreter.scenario.expect import BadScenario, Failed, check, compile_expression
from interpreter.scenario.format import Scenario, Setup, Step, Where, load_scenarios
from interpreter.scenario.setup import FieldInfo, SetupError, apply_setup, field_info

if TYPE_CHECKING:
    from interpreter.coverage import Coverage

__all__ = ["Outcome", "run_scenario", "discover", "collect", "select", "AUTO_LIMIT"]

AUTO_LIMIT = 20_000  # decisions one `auto:` step may take before it is called stuck


@dataclass
class Outcome:
    """What running one scenario gave. `status`: pass, fail (an expectation did not hold) or
    error (the scenario cannot run: a broken file, unknown game, bad set-up or option)."""

    scenario: Scenario | None
    status: str
    message: str = ""
    where: Where | None = None
    steps: list[str] = field(default_factory=list)  # the steps taken, with their log lines
    seconds: float = 0.0
    name: str = ""
    file: str = ""
    not_ended: bool = False  # the game ran into the ruleset's safety bound (E003)

    @property
    def id(self) -> str:
        return f"{self.file}::{self.name}" if self.name else self.file


# -- games, compiled once per (game, players, overlays, options, search path) ---------------
_games: dict[tuple, tuple[Any, FieldInfo]] = {}


def _game(sc: Scenario, coverage: Coverage | None = None) -> tuple[Any, FieldInfo]:
    """The scenario's game, compiled once per set-up; with `coverage`, a coverage build counted
    there (compiled once per collector)."""
    from interpreter.engine.loader import load_game_and_data
    from interpreter.load.catalog import search_path

    key = (
        sc.game,
        sc.players,
        sc.overlays,
        tuple(sorted((k, str(v)) for k, v in sc.options.items())),
        tuple(str(p) for p in search_path()),
        coverage,  # the collector itself (kept alive by the key, so never mistaken for another)
    )
    hit = _games.get(key)
    if hit is None:
        # one load: the set-up checks need the `state:` declarations the game does not keep
        load = load_game_and_data if coverage is None else coverage.load_game_and_data
        game, data = load(sc.game, sc.players, sc.overlays, sc.options)
        hit = (game, field_info(game, data))
        _games[key] = hit
    return hit


def clear_cache() -> None:
    _games.clear()


# -- running -------------------------------------------------------------------------------
class _Run:
    def __init__(self, sc: Scenario, game: Any, info: FieldInfo) -> None:
        self.sc = sc
        self.game = game
        self.info = info
        self.s = game.new_state(sc.seed)
        self.lines: list[str] = []
        self.mark = 0
        # invariants a set-up rigged the state past: not checked in this scenario
        self.rigged: set[str] = set()

    def note_log(self) -> None:
        log = self.s.log or []
        for _round, seat, text in log[self.mark :]:
            prefix = "" if seat is None or text.startswith("seat ") else f"seat {seat}: "
            self.lines.append(f"       | {prefix}{text}")
        self.mark = len(log)

    def setup(self, setup: Setup) -> None:
        s = self.s
        try:
            notes = apply_setup(s, setup, self.info)
        except SetupError as e:
            raise BadScenario(f"set-up refused: {e.message}", e.where) from None
        for n in notes:
            self.lines.append(f"       ~ set-up {n}")
        if s.is_over:
            return
        # what is legal may have changed: list the decision again, or rerun the round
        s.pending = None
        s.who = None
        if setup.restart == "round":
            s.pc = self.game.program.round_start
            s.calls = []
        self.game.advance(s)
        self.rigged |= broken_names(s)

    def check_invariants(self, where: Where, what: str) -> None:
        """A broken invariant of the ruleset (one the set-up did not break) fails the scenario
        at the step that broke it, naming the invariant, its file:line and the decision."""
        broken = broken_invariants(self.s, self.rigged)
        if broken:
            raise Failed(f"{what}: " + "\n    ".join(d.format() for d in broken), where)

    def option(self, step: Step, index: int) -> None:
        s = self.s
        if s.is_over:
            raise BadScenario(f"step {index} `{step.text()}`: the game is already over", step.where)
        legal = s.legal_options()
        if step.seat is not None and s.to_move != step.seat:
            raise Failed(
                f"step {index} `{step.text()}`: expected seat {step.seat} to decide\n"
                f"    actual: seat {s.to_move} is to decide (options: {', '.join(legal)})",
                step.where,
            )
        if step.option not in legal:
            guess = did_you_mean(step.option, legal)
            hint = f"; did you mean '{guess}'?" if guess else ""
            raise Failed(
                f"step {index} `{step.text()}`: not a legal option{hint}\n"
                f"    legal for seat {s.to_move}: {', '.join(legal)}",
                step.where,
            )
        s.apply(step.option)
        self.check_invariants(step.where, f"step {index} `{step.text()}`")

    def auto(self, step: Step) -> None:
        s = self.s
        until = None
        if step.until is not None:
            until = compile_expression(self.game, s, step.until, step.where)[0]
        # `auto: random`: seeded by the scenario's seed, so every run takes the same options
        draw = random.Random(self.sc.seed).choice if step.random else None
        for _ in range(AUTO_LIMIT):
            if s.is_over:
                return
            if until is not None:
                try:
                    if until(s):
                        return
                except Exception as e:  # noqa: BLE001 - reported with the scenario's line
                    raise BadScenario(f"`until: {step.until}` failed: {e}", step.where) from None
            legal = s.legal_options()
            if draw is not None:
                choice = draw(legal)
            else:
                choice = next((o for o in step.prefer if o in legal), legal[0])
            seat = s.to_move
            s.apply(choice)
            self.lines.append(f"       > seat {seat}: {choice}")
            self.note_log()
            self.check_invariants(step.where, f"`{step.text()}`, seat {seat}: {choice}")
        raise Failed(f"`{step.text()}` took {AUTO_LIMIT} decisions without stopping", step.where)

    def expect(self, items: Iterable[Any]) -> None:
        for e in items:
            check(self.game, self.s, e, self.info)

    def run(self) -> None:
        # the game's own set-up must leave every invariant holding; a scenario's may rig some
        self.check_invariants(self.sc.where, "the game's set-up")
        for setup in self.sc.setups:
            self.setup(setup)
        self.note_log_reset()
        for i, step in enumerate(self.sc.steps, 1):
            line = f"  {i:>3}. {step.text()}"
            self.lines.append(f"{line:<44} (line {step.where.line})")
            if step.kind == "option":
                self.option(step, i)
            elif step.kind == "expect":
                self.expect(step.expectations)
            elif step.kind == "set":
                assert step.setup is not None
                self.setup(step.setup)
            elif step.kind == "auto":
                self.auto(step)
            self.note_log()
        self.expect(self.sc.expect)

    def note_log_reset(self) -> None:
        self.mark = len(self.s.log or [])


def run_scenario(sc: Scenario, coverage: Coverage | None = None) -> Outcome:
    """Run one scenario; never raises for a scenario's own faults (they become the outcome).
    With `coverage` (interpreter/coverage/), the game is a coverage build counted there."""
    start = time.perf_counter()
    out = Outcome(sc, "pass", name=sc.name, file=sc.file)
    run: _Run | None = None
    try:
        game, info = _game(sc, coverage)
        run = _Run(sc, game, info)
        run.run()
    except Failed as e:
        out.status, out.message, out.where = "fail", e.message, e.where
    except BadScenario as e:
        out.status, out.message, out.where = "error", e.message, e.where
    except GameLimitError as e:
        # a fault of the rules, not of the scenario: reported at the rule that never fired
        d = e.diagnostics[0]
        out.status, out.not_ended = "fail", True
        out.message = d.message
        out.where = Where(d.file or sc.file, d.line, d.column)
    except RulesError as e:
        out.status, out.message, out.where = "error", str(e), sc.where
    except RulebookError as e:
        out.status, out.message, out.where = "error", str(e), sc.where
    if run is not None:
        if out.status != "pass":
            run.note_log()
        out.steps = run.lines
    out.seconds = time.perf_counter() - start
    return out


# -- finding and selecting scenarios --------------------------------------------------------
def discover(paths: Sequence[str | Path]) -> list[Path]:
    """Scenario files: each file given, and every scenario file below each folder given (the
    rule files of a game folder beside its scenarios, and files left out by a
    ``.rulebookignore`` or ``# rulebook: ignore``, are not taken: see docs/validate.md)."""
    from interpreter.check.files import classify, discover as yaml_files, read_head

    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = [Path(f) for f in yaml_files([path])]
            files.extend(f for f in found if classify(read_head(str(f)) or "") == "scenario")
        elif path.exists():
            files.append(path)
        else:
            raise FileNotFoundError(2, "No such file or directory", str(path))
    return files


def collect(files: Iterable[Path]) -> tuple[list[Scenario], list[Outcome]]:
    """Load every file: (scenarios, outcomes of files that could not be loaded)."""
    scenarios: list[Scenario] = []
    broken: list[Outcome] = []
    for f in files:
        try:
            scenarios.extend(load_scenarios(f))
        except RulesError as e:
            d = e.diagnostics[0] if e.diagnostics else None
            where = Where(d.file or str(f), d.line, d.column) if d else Where(str(f))
            broken.append(Outcome(None, "error", str(e), where, file=str(f)))
    return scenarios, broken


def select(scenarios: list[Scenario], keyword: str | None) -> list[Scenario]:
    """pytest-like `-k`: words match (case-insensitively) inside `file::name`; `and`, `or`,
    `not` and parentheses combine them."""
    if not keyword:
        return scenarios
    return [sc for sc in scenarios if _match(keyword, sc.id.lower())]


def _match(expr: str, text: str) -> bool:
    tokens = expr.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def atom() -> bool:
        t = take() if peek() is not None else ""
        if t == "not":
            return not atom()
        if t == "(":
            v = disj()
            if peek() == ")":
                take()
            return v
        return t.lower() in text

    def chain(word: str, operand: Callable[[], bool]) -> bool:
        # every operand is evaluated (it consumes its tokens), then combined with the ones before
        v = operand()
        while peek() == word:
            take()
            w = operand()
            v = (w and v) if word == "and" else (w or v)
        return v

    def conj() -> bool:
        return chain("and", atom)

    def disj() -> bool:
        return chain("or", conj)

    return disj()
