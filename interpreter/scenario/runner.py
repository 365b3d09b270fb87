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
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics.errors import RulebookError, RulesError
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.engine.game import Game
from interpreter.engine.invariant_checks import broken_invariants, rigged_invariants
from interpreter.engine.machine import ONLY_CHOICE
from interpreter.model.limits import GameLimitError
from interpreter.ruleset.scenariosteps import SetupSpec
from interpreter.scenario.engine_moves import (
    engine_takes,
    forced_before,
    lists_pending,
    next_listed_step,
    settle,
    take_listed,
    taken_by_engine,
    took_itself,
)
from interpreter.scenario.expect import BadScenario, Failed, check, compile_expression
from interpreter.scenario.format import Expectation, Scenario, Step, Where, parse_move
from interpreter.scenario.games import compiled_game
from interpreter.scenario.given import FieldInfo, SetupError, apply_setup
from interpreter.scenario.keyword import select
from interpreter.scenario.names import GameNames
from interpreter.scenario.outcome import Outcome
from interpreter.scenario.scenario_files import collect, discover
from interpreter.table.answers import DECLINE, declining, optional_answer

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


# -- running -------------------------------------------------------------------------------
_ADVANCING = ("option", "set", "auto")  # steps after which the engine runs to a decision


class _Run:
    def __init__(
        self, sc: Scenario, game: Game, info: FieldInfo, names: GameNames | None = None
    ) -> None:
        self.sc = sc
        self.game = game
        self.info = info
        self.names = names if names is not None else compiled_game(sc)[2]
        # a step that lists one of the engine's own moves (engine_moves.py), while it is ahead
        self.watch_step: Step | None = None
        self.asks_now = False  # whether the step being run asks for decisions of one option
        self.s = game.new_state(sc.seed, take_forced=not (self.asks(0) or self.watching(0)))
        # every move so far, (seat, option id), in order: the runner's own (steps, `auto`,
        # `optional:`) and those the engine took as the only choice, which it appends itself;
        # `moved:` checks them, and a failure's steps show the engine's by id
        self.moves: list[tuple[int | None, str]] = []
        self.own: set[int] = set()  # the indexes in `moves` of the runner's own
        self.s.only_choices = self.moves
        self.forced_shown = 0  # how many of the engine's own moves the steps show
        self.lines: list[str] = []
        self.mark = 0
        # invariants a set-up rigged the state past: not checked in this scenario
        self.rigged: set[str] = set()
        self.warnings: list[str] = []
        # the log's length when the last step that ran the engine on began: the forced moves
        # logged since are the ones a failing step names
        self.since = 0
        self.last_seat: int | None = None  # the seat of the last move a step took
        # expectations that did not hold: the scenario goes on, and reports every one
        self.failures: list[Failed] = []

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

    def watching(self, index: int) -> bool:
        """Whether the engine stops at one-option decisions on its way to step `index` for the
        runner to take them as it would, as a step there may list one (engine_moves.py)."""
        return not self.asks(index) and next_listed_step(self.sc.steps, index) is not None

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
            if not self.asks_now and engine_takes(s):
                # the engine's own move: left to the step that lists it or to an `expect`
                # after one, else taken as the engine would
                if self.watch_step is None or lists_pending(s, self.watch_step):
                    return
                settle(self.game, s, self.watch_step)
                continue
            legal = s.legal_options()
            if step is not None and step.kind == "option" and step.option in legal:
                if step.seat is None or step.seat == s.to_move:
                    return
            choice = optional_answer(legal, how, declining(s))
            if choice is None:
                return
            seat = s.to_move
            self.take(choice)
            self.lines.append(f"       > seat {seat}: {choice} (optional: {how})")
            self.note_log()
            self.check_invariants(where, f"`optional: {how}`, seat {seat}: {choice}")
        raise Failed(f"`optional: {how}` took {AUTO_LIMIT} decisions without stopping", where)

    def take(self, option: str) -> None:
        """Take `option` for the seat to decide, noted among the moves before the engine runs
        on (the moves it then takes itself come after it)."""
        self.own.add(len(self.moves))
        self.moves.append((self.s.to_move, option))
        self.s.apply(option)

    # -- the log ----------------------------------------------------------------------------
    def note_log(self) -> None:
        """The log lines since the last noted, each move the engine took itself followed by
        its option id (`= seat 2: pass`), which `moved:` and a step under `forced: ask` use."""
        log = self.s.log or []
        forced = [m for i, m in enumerate(self.moves) if i not in self.own]
        for _round, seat, text in log[self.mark :]:
            prefix = "" if seat is None or text.startswith("seat ") else f"seat {seat}: "
            self.lines.append(f"       | {prefix}{text}")
            if str(text).endswith(ONLY_CHOICE) and self.forced_shown < len(forced):
                who, option = forced[self.forced_shown]
                self.forced_shown += 1
                self.lines.append(f"       = seat {who}: {option}")
        self.mark = len(log)

    def note_log_reset(self) -> None:
        self.mark = len(self.s.log or [])
        self.forced_shown = len(self.moves) - len(self.own)

    # -- steps ------------------------------------------------------------------------------
    def setup(self, setup: SetupSpec) -> None:
        s = self.s
        try:
            notes = apply_setup(s, setup, self.info)
        except SetupError as e:
            where = Where.of(e.where, self.sc.file)
            raise BadScenario(f"set-up refused: {e.message}", where) from None
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

    def rig(self, setup: SetupSpec) -> None:
        """The invariants the set-up leaves broken (in any round, a draft's round 0 too) are
        not checked for the rest of the scenario: a set-up may hand out what the ruleset does
        not say where it comes from (docs/scenarios.md); the steps name each one, with the
        set-up's line and the invariant's."""
        for name, d in rigged_invariants(self.s):
            if name not in self.rigged:
                self.rigged.add(name)
                self.lines.append(
                    f"       ~ set-up (line {setup.pos.line}) leaves invariant '{name}' "
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
        if step.only_choice:  # the engine's own move, listed
            self.last_seat = s.to_move
            take_listed(self.game, s, step, index)
            self.check_invariants(step.where, f"step {index} `{step.text()}`")
            return
        legal = s.legal_options()
        wanted = step.seat in (None, s.to_move) and step.option in legal
        if not wanted and taken_by_engine(self.moves, self.own, step):
            raise Failed(took_itself(step, index), step.where)
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
        self.take(step.option)
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
            self.take(choice)
            self.lines.append(f"       > seat {seat}: {choice}")
            self.note_log()
            self.check_invariants(step.where, f"`{step.text()}`, seat {seat}: {choice}")
        raise Failed(f"`{step.text()}` took {AUTO_LIMIT} decisions without stopping", step.where)

    def expect(self, items: Iterable[Expectation], after: int | None = None) -> None:
        """Check `items`; `after`: the index (0-based) of the step after them, if any."""
        answered = self.answered_next(after)
        upto = len(self.s.log or [])
        for e in items:
            self.refuse_unknown(e)
            if not answered:
                self.warn_unanswered(e)
            try:
                check(self.game, self.s, e, self.info, self.moves)
            except Failed as failed:
                # the scenario goes on: a later expectation may fail for another reason
                failed.message += forced_before(self.s.log, self.since, upto)
                self.failures.append(failed)
                self.lines.append(f"       ! expectation failed (line {failed.where.line})")

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

    def refuse_unknown(self, e: Expectation) -> None:
        """An option id no `choose` of the game can offer, in `seat N may...` or `moved:`: the
        scenario is wrong (T002 of `rulebook validate`, found by the same code,
        :class:`OptionNames`)."""
        if e.kind not in ("may", "may include", "may not", "moved", "not moved"):
            return
        for text in e.texts:
            option = parse_move(text)[1] if "moved" in e.kind else text
            fault = self.names.fault(option, absent_ok=e.kind in ("may not", "not moved"))
            if fault is not None:
                raise BadScenario(f"`{e.text()}`: {fault[0]} ({fault[1]})", e.where)

    def warn_unanswered(self, e: Expectation) -> None:
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

    def holds(self, s: Any, e: Expectation) -> bool | None:
        """Whether expectation `e` holds in `s` (None: it cannot be evaluated there)."""
        try:
            check(self.game, s, e, self.info, self.moves)
        except Failed:
            return False
        except Exception:  # noqa: BLE001 - a bad expectation is reported when it is checked
            return None
        return True

    def step(self, i: int, step: Step) -> None:
        """Step `i` (1-based): the optional questions before it answered, then taken or
        checked; a failure names the moves the engine took by itself before it."""
        self.asks_now = self.asks(i - 1)
        watch = self.watching(i - 1)
        self.s.take_forced = not (self.asks_now or watch)
        self.watch_step = next_listed_step(self.sc.steps, i - 1) if watch else None
        if not self.asks_now and (watch or step.kind != "expect"):
            # the engine's own moves up to the one a step lists; an `expect` right after a
            # listed move sees the state then
            settle(self.game, self.s, self.watch_step)
        self.answer_optional(step, step.where)
        upto = len(self.s.log or [])
        listed = False
        try:
            if step.kind in _ADVANCING:
                # the engine runs on from here to the decision before the next step
                ask_on = self.asks(i) or (step.kind == "auto" and self.asks(i - 1))
                listed = step.only_choice
                ask_on = ask_on or listed or (step.kind != "auto" and self.watching(i))
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
            if step.kind not in ("auto", "expect"):
                e.message += forced_before(self.s.log, self.since, upto)
            raise
        if step.kind in _ADVANCING:  # a listed move's own line is no move before the next
            self.since = len(self.s.log or []) if listed else upto

    def run(self) -> None:
        """Play the scenario; every expectation that did not hold is reported, in the order
        met, the first one's place being the scenario's (a move that could not be taken stops
        the scenario there)."""
        try:
            self.play()
        except Failed as e:
            self.failures.append(e)
        if self.failures:
            first, *others = self.failures
            more = "".join(f"\n{f.where}: {f.message}" for f in others)
            raise Failed(first.message + more, first.where)

    def play(self) -> None:
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
            block = f", block {step.block}" if step.block else ""
            self.lines.append(f"{line:<44} (line {step.where.line}{block})")
            self.step(i, step)
            self.note_log()
        self.asks_now = self.asks(len(self.sc.steps))
        self.s.take_forced = not self.asks_now
        self.watch_step = None
        if not self.asks_now:
            settle(self.game, self.s, None)
        self.answer_optional(None, self.sc.where)
        self.expect(self.sc.expect)


def run_scenario(sc: Scenario, coverage: Coverage | None = None) -> Outcome:
    """Run one scenario; never raises for a scenario's own faults (they become the outcome).
    With `coverage` (interpreter/coverage/), the game is a coverage build counted there."""
    start = time.perf_counter()
    out = Outcome(sc, "pass", name=sc.name, file=sc.file)
    run: _Run | None = None
    try:
        if sc.refused is not None:
            _expect_refused(sc, coverage)
        else:
            game, info, names = compiled_game(sc, coverage)
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


def _expect_refused(sc: Scenario, coverage: Coverage | None) -> None:
    """`refused: TEXT`: the game (its player count, overlays, options) or a set-up of the
    scenario must be refused, with TEXT (letter case aside) in the reason; Failed otherwise."""
    refused = sc.refused
    where = sc.where if refused is None else Where.of(refused.pos, sc.file)
    wanted = "" if refused is None else str(refused.value)
    try:
        game, info, names = compiled_game(sc, coverage)
        run = _Run(sc, game, info, names)
        for setup in sc.setups:
            run.setup(setup)
    except (RulebookError, BadScenario) as e:
        reason = e.message if isinstance(e, BadScenario) else str(e)
        if wanted.lower() in reason.lower():
            return
        raise Failed(
            f"expected refused: {wanted}\n    refused for another reason: {reason}", where
        ) from None
    raise Failed(f"expected refused: {wanted}\n    but the game and its set-up ran", where)
