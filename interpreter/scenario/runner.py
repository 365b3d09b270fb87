"""Run scenarios: load the game, set up, take the steps, check the expectations.

``run_scenario(scenario).status`` is ``'pass'``, ``'fail'`` or ``'error'``.

Two settings let a scenario meet the engine where a house rule changes it (docs/scenarios.md):
``forced: ask`` makes the engine stop at a decision with one legal option instead of taking it
(``Game.new_state(take_forced=False)``), so a step can check or take it; ``optional: take |
decline`` answers the optional questions met on the way (:func:`optional_answer`). A failing
step names the moves the engine took by itself before it, and a quantity checked while an
optional question that would change it is unanswered gives a warning (``Outcome.warnings``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics.errors import RulebookError, RulesError
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.engine.answers import DECLINE, declining, optional_answer
from interpreter.engine.invariants import broken_invariants, rigged_invariants
from interpreter.engine.machine import ONLY_CHOICE
from interpreter.model.limits import GameLimitError
from interpreter.scenario.expect import BadScenario, Failed, check, compile_expression
from interpreter.scenario.format import Scenario, Setup, Step, Where, load_scenarios
from interpreter.scenario.keyword import select
from interpreter.scenario.names import GameNames
from interpreter.scenario.setup import FieldInfo, SetupError, apply_setup, field_info

if TYPE_CHECKING:
    from interpreter.coverage import Coverage

__all__ = [
    "Outcome",
    "run_scenario",
    "discover",
    "collect",
    "select",
    "optional_answer",
    "AUTO_LIMIT",
    "DECLINE",
]

AUTO_LIMIT = 20_000  # decisions one `auto:` step may take before it is called stuck
# expectations about the decision itself: an optional question before them is left asked
_ABOUT_DECISION = frozenset({"may", "may include", "may not", "refused", "to move"})
# expectations of a quantity: the ones an unanswered optional question can silently weaken
_QUANTITY = frozenset({"expr", "fields"})


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
    warnings: list[str] = field(default_factory=list)  # `file:line: text`, pass or fail

    @property
    def id(self) -> str:
        return f"{self.file}::{self.name}" if self.name else self.file


# -- games, compiled once per (game, players, overlays, options, search path) ---------------
_games: dict[tuple, tuple[Any, FieldInfo, Any]] = {}


def _game(sc: Scenario, coverage: Coverage | None = None) -> tuple[Any, FieldInfo]:
    """The scenario's game and its fields, compiled once per set-up; with `coverage`, a
    coverage build counted there (compiled once per collector)."""
    game, info, _names = _compiled(sc, coverage)
    return game, info


def _compiled(sc: Scenario, coverage: Coverage | None = None) -> tuple[Any, FieldInfo, Any]:
    """:func:`_game`, and the option ids the game can offer (the check `rulebook validate`
    makes, :class:`~interpreter.check.scenarios.OptionNames`)."""
    from interpreter.check.logtexts import LogTexts
    from interpreter.check.scenarios import OptionNames
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
        hit = (game, field_info(game, data), GameNames(OptionNames(data), LogTexts(data)))
        _games[key] = hit
    return hit


def clear_cache() -> None:
    _games.clear()


# -- running -------------------------------------------------------------------------------
_ADVANCING = ("option", "set", "auto")  # steps after which the engine runs to a decision


class _Run:
    def __init__(self, sc: Scenario, game: Any, info: FieldInfo, names: Any = None) -> None:
        self.sc = sc
        self.game = game
        self.info = info
        self.names = names if names is not None else _compiled(sc)[2]
        self.s = game.new_state(sc.seed, take_forced=not self.asks(0))
        self.lines: list[str] = []
        self.mark = 0
        # invariants a set-up rigged the state past: not checked in this scenario
        self.rigged: set[str] = set()
        self.warnings: list[str] = []
        # the log's length when the last step that ran the engine on began: the forced moves
        # logged since are the ones a failing step names
        self.since = 0
        self.last_seat: int | None = None  # the seat of the last move a step took

    # -- settings ---------------------------------------------------------------------------
    def asks(self, index: int) -> bool:
        """Whether the engine stops at one-option decisions on its way to step `index` (0-based):
        yes when that step, or one up to the next step that runs the engine, says `forced: ask`
        (or the scenario does and they do not say `take`); past the steps, the scenario's."""
        steps = self.sc.steps
        for step in steps[index:]:
            if (step.forced or self.sc.forced) == "ask":
                return True
            if step.kind in _ADVANCING:
                return False
        return index >= len(steps) and self.sc.forced == "ask"

    def answer_optional(self, step: Step | None, where: Where) -> None:
        """Answer the optional questions before `step` (None: the scenario's last `expect`) as
        its `optional:` (or the scenario's) says; a question the step answers itself, or whose
        options it checks, is left to it."""
        how = self.sc.optional if step is None else (step.optional or self.sc.optional)
        if how is None or (step is not None and step.kind in ("set", "auto")):
            return
        if step is not None and step.kind == "expect":
            if any(e.kind in _ABOUT_DECISION for e in step.expectations):
                return
        s = self.s
        for _ in range(AUTO_LIMIT):
            if s.is_over:
                return
            legal = s.legal_options()
            if step is not None and step.kind == "option" and step.option in legal:
                if step.seat is None or step.seat == s.to_move:
                    return
            choice = optional_answer(legal, how, declining(s))
            if choice is None:
                return
            seat = s.to_move
            s.apply(choice)
            self.lines.append(f"       > seat {seat}: {choice} (optional: {how})")
            self.note_log()
            self.check_invariants(where, f"`optional: {how}`, seat {seat}: {choice}")
        raise Failed(f"`optional: {how}` took {AUTO_LIMIT} decisions without stopping", where)

    def forced_before(self, upto: int) -> str:
        """The moves the engine took by itself since the last step that ran it, in words: what
        a failing step says happened before it (`forced: ask` stops there)."""
        taken = []
        for _round, seat, text in (self.s.log or [])[self.since : upto]:
            if not text.endswith(ONLY_CHOICE):
                continue
            body = text[: -len(ONLY_CHOICE)]
            named = f"seat {seat}: "
            if seat is not None and body.startswith(named):
                taken.append(f"seat {seat}'s only option `{body[len(named) :]}`")
            else:
                who = "" if seat is None else f" (seat {seat}'s only option)"
                taken.append(f"`{body}`{who}")
        if not taken:
            return ""
        return (
            f"\n    before this step the engine took {', '.join(taken)} itself"
            " (`forced: ask` stops there)"
        )

    # -- the log ----------------------------------------------------------------------------
    def note_log(self) -> None:
        log = self.s.log or []
        for _round, seat, text in log[self.mark :]:
            prefix = "" if seat is None or text.startswith("seat ") else f"seat {seat}: "
            self.lines.append(f"       | {prefix}{text}")
        self.mark = len(log)

    def note_log_reset(self) -> None:
        self.mark = len(self.s.log or [])

    # -- steps ------------------------------------------------------------------------------
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
        self.rig(setup)

    def rig(self, setup: Setup) -> None:
        """The invariants the set-up leaves broken (in any round, a draft's round 0 too) are
        not checked for the rest of the scenario: a set-up may hand out what the ruleset does
        not say where it comes from (docs/scenarios.md); the steps name each one, with the
        set-up's line and the invariant's."""
        for name, d in rigged_invariants(self.s):
            if name not in self.rigged:
                self.rigged.add(name)
                self.lines.append(
                    f"       ~ set-up (line {setup.where.line}) leaves invariant '{name}' "
                    f"({d.file}:{d.line}:{d.column}) broken: not checked in this scenario"
                )

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
        self.last_seat = s.to_move
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

    def expect(self, items: Iterable[Any], after: int | None = None) -> None:
        """Check `items`; `after`: the index (0-based) of the step after them, if any."""
        answered = self.answered_next(after)
        for e in items:
            self.refuse_unknown(e)
            if not answered:
                self.warn_unanswered(e)
            check(self.game, self.s, e, self.info)

    def answered_next(self, after: int | None) -> bool:
        """Whether the first step from `after` on that is not a check takes an option legal
        now (the scenario answers the pending question itself, knowingly)."""
        s = self.s
        if after is None or s.is_over:
            return False
        for step in self.sc.steps[after:]:
            if step.kind == "expect":
                continue
            return step.kind == "option" and step.option in s.legal_options()
        return False

    def refuse_unknown(self, e: Any) -> None:
        """An option id no `choose` of the game can offer, in `seat N may...`: the scenario is
        wrong (T002 of `rulebook validate`, found by the same code, :class:`OptionNames`)."""
        if e.kind not in ("may", "may include", "may not"):
            return
        for option in e.value:
            fault = self.names.fault(str(option), absent_ok=e.kind == "may not")
            if fault is not None:
                raise BadScenario(f"`{e.text()}`: {fault[0]} ({fault[1]})", e.where)

    def warn_unanswered(self, e: Any) -> None:
        """A quantity checked while the optional effect of the move just taken is a question
        still unanswered (the same seat asked to take it or `pass`) sees the state before that
        effect: warn when taking it would change what the check says."""
        s = self.s
        if e.kind not in _QUANTITY or s.is_over or s.to_move != self.last_seat:
            return
        legal = s.legal_options()
        decline = declining(s)
        others = [o for o in legal if o != decline]
        if decline not in legal or len(others) != 1:
            return
        now = self.holds(s, e)
        if now is None:
            return
        for option in others:
            after = s.copy()
            try:
                after.apply(option)
            except Exception:  # noqa: BLE001 - an option that fails here says nothing of `e`
                continue
            if self.holds(after, e) is (not now):
                verb = "fail" if now else "hold"
                self.warnings.append(
                    f"{e.where}: warning: `{e.text()}` is checked while seat {s.to_move}'s "
                    f"optional question ({', '.join(legal)}) is unanswered; answered with "
                    f"`{option}` it would {verb}, so it tests the state before that effect. "
                    "Answer it with a step, or set `optional: take` or `optional: decline`"
                )
                return

    def holds(self, s: Any, e: Any) -> bool | None:
        """Whether expectation `e` holds in `s` (None: it cannot be evaluated there)."""
        try:
            check(self.game, s, e, self.info)
        except Failed:
            return False
        except Exception:  # noqa: BLE001 - a bad expectation is reported when it is checked
            return None
        return True

    def step(self, i: int, step: Step) -> None:
        """Step `i` (1-based): the optional questions before it answered, then taken or
        checked; a failure names the moves the engine took by itself before it."""
        self.s.take_forced = not self.asks(i - 1)
        self.answer_optional(step, step.where)
        upto = len(self.s.log or [])
        try:
            if step.kind in _ADVANCING:
                # the engine runs on from here to the decision before the next step
                ask_on = self.asks(i) or (step.kind == "auto" and self.asks(i - 1))
                self.s.take_forced = not ask_on
            if step.kind == "option":
                self.option(step, i)
            elif step.kind == "expect":
                self.expect(step.expectations, after=i)
            elif step.kind == "set":
                assert step.setup is not None
                self.setup(step.setup)
            elif step.kind == "auto":
                self.auto(step)
        except Failed as e:
            if step.kind != "auto":
                e.message += self.forced_before(upto)
            raise
        if step.kind in _ADVANCING:
            self.since = upto

    def run(self) -> None:
        # a log text no line of the game can hold is refused before any step (T004)
        vacuous = self.names.vacuous_log(self.sc)
        if vacuous is not None:
            raise BadScenario(*vacuous)
        # the game's own set-up must leave every invariant holding; a scenario's may rig some
        self.check_invariants(self.sc.where, "the game's set-up")
        for setup in self.sc.setups:
            self.setup(setup)
        self.note_log_reset()
        for i, step in enumerate(self.sc.steps, 1):
            line = f"  {i:>3}. {step.text()}"
            self.lines.append(f"{line:<44} (line {step.where.line})")
            self.step(i, step)
            self.note_log()
        self.s.take_forced = not self.asks(len(self.sc.steps))
        self.answer_optional(None, self.sc.where)
        upto = len(self.s.log or [])
        try:
            self.expect(self.sc.expect)
        except Failed as e:
            e.message += self.forced_before(upto)
            raise


def run_scenario(sc: Scenario, coverage: Coverage | None = None) -> Outcome:
    """Run one scenario; never raises for a scenario's own faults (they become the outcome).
    With `coverage` (interpreter/coverage/), the game is a coverage build counted there."""
    start = time.perf_counter()
    out = Outcome(sc, "pass", name=sc.name, file=sc.file)
    run: _Run | None = None
    try:
        game, info, names = _compiled(sc, coverage)
        run = _Run(sc, game, info, names)
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
        out.warnings = run.warnings
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
