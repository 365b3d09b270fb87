"""Compiles the ruleset's flow (setup, round, phases) into a flat program for the flow VM.

The program is a list of instructions addressed by index; the running position is a plain
integer (`State.pc`) plus a return stack of integers, so a state copies and serialises cheaply
and can stop at any decision and resume later. Instructions:

  (DO, fn)                run an effect
  (JUMP, target)
  (JUMP_IF_NOT, fn, target)
  (CHOOSE, spec)          stop for a decision if it has options, else fall through
  (CALL, fn, table)       fn gives a phase id; jump to its code, remembering where to return
  (RETURN,)
  (END_ROUND,)            the round boundary: round counter, round-end check
  (STOP_IF, fn)           end the game at once when fn is true
  (FINISH,)               score and stop
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.compiler import Fn
from interpreter.dsl.emit.emitter import Emitted
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.none_safety import Key
from interpreter.dsl.runtime.runtime_state import RunningState
from interpreter.model.end_triggers import TriggerHost, compile_trigger
from interpreter.model.probes import Probes
from interpreter.ruleset.flow_steps import STEP_KINDS, Choose, FlowSection, Step
from interpreter.ruleset.nodes import Plain

DO, JUMP, JUMP_IF_NOT, CHOOSE, CALL, RETURN, END_ROUND, STOP_IF, FINISH = range(9)

# a phase named as it is declared (`phase: offers`): one name, with single inner hyphens
_BARE_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*(-[a-zA-Z0-9_]+)*")


def _no_phase(s: RunningState) -> None:
    """What an unknown phase's step would run: never, as the ruleset is refused."""
    return None


@dataclass
class OptionSpec:
    """One line under `options:` of a choose step: a template that may yield many options."""

    template: Emitted  # id text from the bound values
    slots: tuple[str, ...]  # temp slot keys bound by the `for` parts
    domains: tuple[Emitted, ...]  # one iterable per `for` part (nested loops)
    condition: Emitted | None
    effect: Fn
    log: Fn | None
    # whether a `for` collection may read a field hidden from some seat (a hand): which of
    # the line's options the mover took is then its own secret (the leak check compares a
    # line's public text with that of another of them); settled with the secrets (decisions.py)
    secret_values: bool = False


@dataclass
class ChooseSpec:
    who: Emitted
    options: list[OptionSpec]
    label: str
    idle_flags: tuple[str, ...]  # flow vars set to 1 when this decision is taken
    where: str = ""  # rule file position, for runtime error messages
    # lists the options; written by the engine the first time the step is met
    enumerator: Emitted | None = field(default=None, repr=False, compare=False)
    # `ask-when-only-one`: ask even when one option is legal (else the engine takes it)
    ask_when_only_one: bool = False
    # whether which options are legal may depend on a field hidden from some seat (what the
    # options' conditions and collections read, found at load: infoset/secrecy.py); the engine
    # asks such a decision even with one legal option, so no seat learns the hidden value
    # from its being taken at once (machine.py)
    hidden_dependent: bool = False
    # the `id:` text of each options line as written (``keep:{k}``, ``pass``): which optional
    # question this is, for answers set in advance (table/answers.py)
    ids: tuple[str, ...] = ()
    # `decline:`: the option that declines this decision when it is not `pass` (answers set in
    # advance and a scenario's `optional: decline` answer with it)
    decline: str = "pass"
    # the `name:` of the step (""): how the presentation addresses a decision (a gesture
    # groups the run of one step's decisions, table/gestures.py)
    step: str = ""


@dataclass(frozen=True)
class Inline:
    """A flow step's own function as Python lines, for engine/blocks.py to write in place of
    a call to it (a call costs more than the few reads and writes these do). The lines read
    the flow variables as `V` (the state's `v`) and the names in `names`.

    An effect runs `lines`. A test runs `lines`, then `test` (an expression) decides; `after`
    runs only when it holds (a loop's counter and variable, set for the pass it starts)."""

    lines: tuple[str, ...] = ()
    test: str | None = None
    after: tuple[str, ...] = ()
    names: dict[str, Fn | str] = field(default_factory=dict)


class Inlined:
    """A flow step's function with its `Inline` lines: engine/blocks.py writes the lines in
    place of a call; anything else calls it."""

    __slots__ = ("fn", "inline")

    def __init__(self, fn: Fn, inline: Inline) -> None:
        self.fn = fn
        self.inline = inline

    def __call__(self, s: RunningState) -> Any:
        return self.fn(s)


def inline(
    fn: Fn,
    *lines: str,
    test: str | None = None,
    after: tuple[str, ...] = (),
    names: dict[str, Fn | str] | None = None,
) -> Inlined:
    """`fn`, with the lines that do what it does (Inline)."""
    return Inlined(fn, Inline(lines, test, after, names or {}))


@dataclass
class Program:
    code: list[tuple] = field(default_factory=list)
    phases: dict[str, int] = field(default_factory=dict)
    round_start: int = 0
    stops: list[int] = field(default_factory=list)  # STOP_IF instructions, patched to FINISH
    # position -> the function that runs on from it (engine/blocks.py), written on first use
    blocks: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)

    def emit(self, *ins: Any) -> int:
        self.code.append(ins)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)

    def patch(self, at: int, *ins: Any) -> None:
        self.code[at] = ins


class FlowState(RunningState, Protocol):
    """A game in progress as the flow's own step functions read it (the engine's ``State``):
    what rule code reads, and the round they start and the phases' return stack."""

    round: int

    @property
    def calls(self) -> list[int]: ...


class StepHost(TriggerHost, Protocol):
    """What the flow's steps ask of the model builder's host (model/host.py's ``DslHost``):
    their texts compiled with the right scope, the conditions they run under, a coverage
    build's points. A protocol, as the host imports this module's ``ChooseSpec``."""

    @property
    def players(self) -> int: ...

    @property
    def probes(self) -> Probes | None: ...

    def statements(self, text: Plain, path: Sequence[str | int]) -> Fn: ...

    def log(self, text: Plain, path: Sequence[str | int]) -> Fn: ...

    def choose(
        self, spec: Choose, idle: tuple[str, ...], ask_when_only_one: bool
    ) -> ChooseSpec: ...

    def last_node(self) -> ir.Expr: ...

    def not_none(self, truth: bool = True) -> set[Key]: ...

    def assume(self, keys: set[Key]) -> AbstractContextManager[None]: ...

    def under(self, *conditions: ir.Expr) -> AbstractContextManager[None]: ...

    def where(self, path: Sequence[str | int]) -> str: ...

    def point(self, kind: str, label: str, path: Sequence[str | int]) -> int | None: ...

    def declare_var(self, name: str, ty: Literal["seat"] | None = None) -> None: ...


class StepCompiler:
    """Walks the typed flow steps (interpreter/ruleset/flow_steps.py) and emits instructions.

    `dsl` is the model builder's host (model/host.py): it compiles the DSL texts of one step
    with the right scope and returns closures, so this module knows nothing of the DSL.
    """

    def __init__(self, program: Program, dsl: StepHost, flow: FlowSection) -> None:
        self.p = program
        self.dsl = dsl
        self.flow = flow
        # the numbers of the loops' own flow variables (`_r0`, `_i1` ...): one count a flow, so
        # a state saved at a loop names the same variable when the rules are loaded again
        self.loops = itertools.count()

    def steps(self, steps: Sequence[Step], idle: tuple[str, ...] = ()) -> None:
        named: dict[str, int] = {}
        for i, step in enumerate(steps):
            name = step.name
            if name is not None:
                if name in named:
                    # an overlay addresses a step by its name: two would make it ambiguous
                    self.dsl.error(
                        [*step.path, "name"],
                        "R002",
                        f"the step name '{name}' is already the name of step {named[name]} "
                        "of this list",
                    )
                named.setdefault(name, i)
            self.step(step, idle)

    def step(self, step: Step, idle: tuple[str, ...]) -> None:
        p = self.p
        path = list(step.path)
        kind = step.kind
        self.count("step", kind or "step", path)
        if kind == "do":
            p.emit(DO, self.dsl.statements(step.head, [*path, "do"]))
        elif kind == "log":
            p.emit(DO, self.dsl.log(step.head, [*path, "log"]))
        elif kind == "choose" and step.choose is not None:
            choose = self.dsl.choose(step.choose, idle, self.flow.ask_when_only_one)
            choose.step = step.name or ""
            p.emit(CHOOSE, choose)
        elif kind == "if":
            cond = self.dsl.expression(step.head, [*path, "if"], expect="bool").fn
            test = self.dsl.last_node()
            shown = self.dsl.not_none(True), self.dsl.not_none(False)
            jump_else = p.emit(JUMP_IF_NOT, cond, -1)
            self.count("branch", "then", [*path, "then"])
            with self.dsl.assume(shown[0]), self.dsl.under(test):
                self.steps(step.then, idle)
            # a coverage build counts the else arm even where the step has none, unless the
            # condition is the constant `true` (a place for overlays to add steps to)
            counted = self.dsl.probes is not None and str(step.head).strip().lower() != "true"
            written = step.otherwise is not None
            if written or counted:
                jump_end = p.emit(JUMP, -1)
                p.patch(jump_else, JUMP_IF_NOT, cond, p.here())
                arm = "else" if written else "else (none written)"
                self.count("branch", arm, [*path, "else" if written else "if"])
                with self.dsl.assume(shown[1]), self.dsl.under(test):
                    self.steps(step.otherwise or (), idle)
                p.patch(jump_end, JUMP, p.here())
            else:
                p.patch(jump_else, JUMP_IF_NOT, cond, p.here())
        elif kind == "each-player":
            self.each_player(step, idle)
        elif kind == "repeat":
            self.repeat(step, idle)
        elif kind == "phase":
            p.emit(CALL, self.phase(step.head, [*path, "phase"]), p.phases)
        elif kind == "stop-if":
            cond = self.dsl.expression(step.head, [*path, "stop-if"], expect="bool").fn
            p.stops.append(p.emit(STOP_IF, cond, -1))
        else:  # the schema rules this out; keep a clear message for hand-built data
            raise ValueError(f"unknown step at {path}: none of {', '.join(STEP_KINDS)}")

    def phase(self, text: Plain, path: list) -> Fn:
        """What a `phase:` step runs: a phase named as it is declared (`phase: offers`), or an
        expression giving a phase's name (`card.phase`, the quoted `'"offers"'`). A bare name
        that is neither a phase nor any other name is reported as an unknown phase."""
        phases = self.flow.phases
        word = text.strip() if isinstance(text, str) else ""
        if _BARE_NAME.fullmatch(word):
            if word in phases:
                return self.dsl.expression(f'"{word}"', path, expect="phase").fn
            if self.dsl.c.root.lookup(word) is None:
                guess = did_you_mean(word, list(phases))
                self.dsl.error(
                    path,
                    "R001",
                    f"unknown phase '{word}'",
                    f"did you mean '{guess}'?" if guess else None,
                )
                return _no_phase
        return self.dsl.expression(text, path, expect="phase").fn

    def count(self, kind: str, label: str, path: list) -> None:
        """In a coverage build, an instruction that counts the point at `path`; else nothing."""
        probes, k = self.dsl.probes, self.dsl.point(kind, label, path)
        if probes is not None and k is not None:  # (a point only where there are probes)
            self.p.emit(DO, probes.counter(k))

    def each_player(self, step: Step, idle: tuple[str, ...]) -> None:
        """Each seat once, clockwise from `from`; optionally again until nobody acted."""
        p = self.p
        loop = step.loop
        path = [*step.path, "each-player"]
        n = next(self.loops)
        counter, start, acted = f"_i{n}", f"_from{n}", f"_acted{n}"
        name = loop.seat
        self.dsl.declare_var(name, "seat")
        start_fn = self.dsl.expression(loop.start, [*path, "from"], expect="number").fn
        until_idle = loop.until_idle
        while_fn = (
            self.dsl.expression(loop.condition, [*path, "while"], expect="bool").fn
            if loop.condition is not None
            else None
        )
        tests = (self.dsl.last_node(),) if while_fn is not None else ()
        players = self.dsl.players

        def init(s: RunningState) -> None:
            s.v[start] = start_fn(s) % players

        first = f"_S{n}"
        p.emit(DO, inline(init, f"V[{start!r}] = {first}(s) % {players}", names={first: start_fn}))
        cycle = p.here()

        def reset(s: RunningState) -> None:
            s.v[counter] = 0
            if until_idle:
                s.v[acted] = 0

        zeros = (f"V[{counter!r}] = 0", f"V[{acted!r}] = 0")
        p.emit(DO, inline(reset, *zeros[: 1 + until_idle]))
        top = p.here()

        if while_fn is None:

            def more(s: RunningState) -> bool:
                i = s.v[counter]
                if i >= players:
                    return False
                s.v[name] = (s.v[start] + i) % players
                return True

            turn = f"V[{name!r}] = (V[{start!r}] + V[{counter!r}]) % {players}"
            go_on: Fn = inline(more, test=f"V[{counter!r}] < {players}", after=(turn,))
        else:

            def more(s: RunningState) -> bool:
                i = s.v[counter]
                if i >= players:
                    return False
                s.v[name] = (s.v[start] + i) % players
                return bool(while_fn(s))

            go_on = more
        exit_jump = p.emit(JUMP_IF_NOT, go_on, -1)
        inner_idle = (*idle, acted) if until_idle else idle
        with self.dsl.under(*tests):
            self.steps(step.body, inner_idle)

        def step_on(s: RunningState) -> None:
            s.v[counter] += 1

        p.emit(DO, inline(step_on, f"V[{counter!r}] += 1"))
        p.emit(JUMP, top)
        p.patch(exit_jump, JUMP_IF_NOT, go_on, p.here())
        if until_idle:
            cycles = f"_cycles{n}"
            where = self.dsl.where(path)

            def again(s: RunningState) -> bool:
                if not s.v[acted]:
                    s.v[cycles] = 0
                    return True
                # bounded like `repeat`: an option that is always available must not hang a game
                s.v[cycles] = s.v.get(cycles, 0) + 1
                if s.v[cycles] > 1000:
                    from interpreter.dsl.compiler import RuntimeRuleError

                    raise RuntimeRuleError(f"{where}: went round more than 1000 times")
                return False

            p.emit(JUMP_IF_NOT, again, cycle)

    def repeat(self, step: Step, idle: tuple[str, ...]) -> None:
        """Repeat while a condition holds (bounded by `max`, default 1000, to catch rule bugs)."""
        p = self.p
        loop = step.loop
        path = [*step.path, "repeat"]
        n = next(self.loops)
        counter = f"_r{n}"
        test_text = "true" if loop.condition is None else loop.condition
        cond = self.dsl.expression(test_text, [*path, "while"], expect="bool").fn
        test = self.dsl.last_node()
        limit = loop.max
        where = self.dsl.where([*path, "while"])

        def init(s: RunningState) -> None:
            s.v[counter] = 0

        p.emit(DO, inline(init, f"V[{counter!r}] = 0"))
        top = p.here()
        message = f"{where}: repeat ran more than {limit} times"

        def more(s: RunningState) -> bool:
            if not cond(s):
                return False
            s.v[counter] += 1
            if s.v[counter] > limit:
                from interpreter.dsl.compiler import RuntimeRuleError

                raise RuntimeRuleError(message)
            return True

        named, said = f"_C{n}", f"_M{n}"
        count = (
            f"V[{counter!r}] += 1",
            f"if V[{counter!r}] > {limit}: raise RuntimeRuleError({said})",
        )
        go_on = inline(more, test=f"{named}(s)", after=count, names={named: cond, said: message})

        exit_jump = p.emit(JUMP_IF_NOT, go_on, -1)
        with self.dsl.under(test):
            self.steps(step.body, idle)
        p.emit(JUMP, top)
        p.patch(exit_jump, JUMP_IF_NOT, go_on, p.here())


@dataclass
class Flow:
    """The compiled `flow:` and `phases:` sections."""

    program: Program
    round_over: Fn  # `end-after-round-if`
    trigger: Fn | None  # what ended the game, for the result


def outermost_only(reset: Fn) -> Callable[[FlowState], None]:
    """`reset`, run only in a phase that no other phase called (one return address on the
    stack): a phase run from inside another is part of it and keeps its local fields."""

    def at_outermost(s: FlowState) -> None:
        if len(s.calls) == 1:
            reset(s)

    return at_outermost


def declare_variables(dsl: StepHost, flow: FlowSection) -> None:
    """The flow's own variables are names every rule text may use, so they come first."""
    for var in flow.variables:
        dsl.declare_var(var)


def compile_flow(
    dsl: StepHost,
    flow: FlowSection,
    round_reset: Fn | None = None,
    phase_reset: Fn | None = None,
) -> Flow:
    """Setup, the round loop, then each phase as a callable block; `stop-if` jumps to FINISH.

    `round_reset` and `phase_reset` put the round- and phase-local fields back to their start
    values (None: there are none): at the top of every round, and as each outermost phase
    starts and ends."""
    program = Program()
    steps = StepCompiler(program, dsl, flow)
    steps.steps(flow.setup)

    def first_round(s: FlowState) -> None:
        s.round = 1

    program.emit(DO, first_round)
    program.round_start = program.here()
    if round_reset is not None:
        program.emit(DO, round_reset)
    steps.steps(flow.round)
    end_round = program.emit(END_ROUND, -1)
    finish = program.emit(FINISH)
    program.patch(end_round, END_ROUND, finish)
    for pname, phase in flow.phases.items():
        program.phases[pname] = program.here()
        if phase_reset is not None:
            program.emit(DO, outermost_only(phase_reset))
        steps.steps(phase.steps)
        if phase_reset is not None:
            program.emit(DO, outermost_only(phase_reset))
        program.emit(RETURN)
    for at in program.stops:
        ins = program.code[at]
        program.patch(at, ins[0], ins[1], finish)
    ends = flow.end_after_round_if
    round_over = dsl.expression(
        "false" if ends is None else ends, ["flow", "end-after-round-if"], expect="bool"
    ).fn
    trigger = compile_trigger(dsl, flow)
    return Flow(program, round_over, trigger)
