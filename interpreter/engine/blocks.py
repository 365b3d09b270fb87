"""The flow program's straight runs, each written out as one Python function.

Stepping the flow program one instruction at a time (fetch it, test its kind, call its function)
would cost a dispatch per instruction, and most instructions are effects and branches that never
stop the game for a decision. So from any position this module writes one function that runs on
through them (an effect is a call, a branch an `if`, a jump is followed while it leads somewhere
not yet written in this function) and returns the position it stopped at: where a branch or a jump
leaves the run (a side of a branch that runs straight out anyway, as in `if c: choose`, is written
under its `if` and the function goes on with the other side), a phase is entered or left, or an
instruction the machine handles itself (a decision, the end of a round, the end of the game). The
functions the flow was compiled to stay as they are, so a rule that fails still points at its own
text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from interpreter.dsl.compiler import Fn, RuntimeRuleError
from interpreter.dsl.emit.code_parts import nothing
from interpreter.dsl.emit.emitter import Constant, define, function_source
from interpreter.engine.frame import Frame
from interpreter.engine.options import option_listing
from interpreter.infoset.forced import decided_in_public
from interpreter.model.flow import (
    CALL,
    CHOOSE,
    DO,
    JUMP,
    JUMP_IF_NOT,
    RETURN,
    STOP_IF,
    ChooseSpec,
    Inlined,
    Program,
)

RUN_ON = (DO, JUMP_IF_NOT, JUMP, STOP_IF, CALL, RETURN)
# the line written for each instruction that is one line of a run: step_{pc} is its function
_ONE_LINE = {
    DO: "step_{pc}(s)",
    STOP_IF: "if step_{pc}(s): return {target}",
}

Block = Callable[[Frame], int]
# takes a decision's one legal option (machine.take_only): the state, its options by id
TakeOnly = Callable[[Frame, dict[str, tuple]], None]

# the instructions the machine's own loop handles: a block stops in front of them
STOPS_AT = object()


def block_at(program: Program, pc: int, take_only: TakeOnly) -> Any:
    """The function that runs the program on from `pc`, or STOPS_AT when the instruction at
    `pc` is one the machine handles itself (written once per position, on first use).

    It returns the position it stopped at; at a decision it met with options to ask, it
    sets the state's pending options and who decides, and returns ``-1 - position``. A
    decision with one legal option that the engine takes, it takes by `take_only` and goes on.
    """
    blocks = program.blocks
    fn = blocks.get(pc)
    if fn is None:
        fn = blocks[pc] = _write_block(program.code, pc, take_only)
    return fn


def _write_block(code: list[tuple], start: int, take_only: TakeOnly) -> Block | object:
    if code[start][0] not in RUN_ON:
        return STOPS_AT
    ns: dict[str, Any] = {"RuntimeRuleError": RuntimeRuleError, "take_only": take_only}
    body = _without_empty_calls(_run_lines(code, start, ns))
    if any("V[" in line or "V.get(" in line for line in body):  # flow steps written in place
        body.insert(0, "V = s.v")
    name = f"flow_from_{start}"
    return define(function_source(name, "s", body), name, ns, f"<flow from {start}>")


# what _step_lines returns for an instruction after which the function ends
_ENDS = -1


def _run_lines(code: list[tuple], start: int, ns: dict[str, Any]) -> list[str]:
    """The lines of the function that runs the program on from `start`."""
    body: list[str] = []
    # (position, the return addresses this function pushed) already written: a jump back
    # to one is a loop, which goes round outside
    seen: set[tuple[int, tuple[int, ...]]] = set()
    # a phase named by a constant is entered here, not left to the machine's loop: its
    # return address is pushed as the machine would push it (rules read `s.calls`), and kept
    # here too, so that its RETURN goes on at a known position
    stack: list[int] = []
    pc = start
    while pc != _ENDS:
        here = (pc, tuple(stack))
        if here in seen or len(body) > _LINES_MAX:
            body.append(f"return {pc}")
            break
        seen.add(here)
        pc = _step_lines(code, pc, stack, body, ns)
    return body


def _step_lines(
    code: list[tuple], pc: int, stack: list[int], body: list[str], ns: dict[str, Any]
) -> int:
    """Add to `body` the lines of the instruction at `pc`; the position written next, or
    _ENDS where the function ends there."""
    ins = code[pc]
    op = ins[0]
    fixed = _fixed(ins)
    if op == JUMP_IF_NOT and fixed is not _NOT_FIXED:  # `if: true`: no test to run
        return pc + 1 if fixed else ins[2]
    if op == DO and (ins[1] is nothing or fixed is not _NOT_FIXED):
        return pc + 1
    if op == JUMP_IF_NOT:
        return _branch(code, pc, body, ns)
    if op == DO and isinstance(ins[1], Inlined):
        body += _effect(ins[1], pc, ns)
        return pc + 1
    line = _ONE_LINE.get(op)
    if line is not None:  # an effect or a branch: a line, then on to the next position
        ns[f"step_{pc}"] = ins[1]
        body.append(line.format(pc=pc, target=ins[-1]))
        return pc + 1
    if op == JUMP:
        return int(ins[1])
    to = _phase_in_place(ins, fixed, pc, stack, body)
    if to is not None:
        return to
    if op in (CALL, RETURN):
        body += _leave(code, pc, ns)
        return _ENDS
    if op == CHOOSE:
        body += _decision(ins[1], pc, ns)
        return pc + 1
    body.append(f"return {pc}")  # the end of a round or of the game: the machine's own
    return _ENDS


def _branch(code: list[tuple], pc: int, body: list[str], ns: dict[str, Any]) -> int:
    """Add to `body` the branch at `pc`; the position written next. A side of the branch
    that runs straight out of the function anyway (effects, then a decision, a phase's end
    or call) is written under the `if`, and the function goes on with the other side:
    `if c: choose` costs no extra call."""
    ins = code[pc]
    before, test, after = _test(ins[1], pc, ns)
    target = ins[2]
    taken = _straight_out(code, pc + 1, ns)
    if taken is not None:
        body += [*before, f"if {test}:", *("    " + ln for ln in (*after, *taken))]
        return int(target)
    skipped = _straight_out(code, target, ns)
    if skipped is not None:
        body += [*before, f"if not {test}:", *("    " + ln for ln in skipped), *after]
        return pc + 1
    body += [*before, f"if not {test}: return {target}", *after]
    return pc + 1


def _decision(spec: ChooseSpec, pc: int, ns: dict[str, Any]) -> list[str]:
    """The lines that list the options of the decision at `pc` and stop there to ask them
    (returning ``-1 - pc``), or take its only option (machine.take_only: the same test as the
    machine's) and go on; with no option it is passed over."""
    listing = spec.enumerator
    if listing is None:
        listing = spec.enumerator = option_listing(spec)
    ns[f"options_{pc}"], ns[f"who_{pc}"] = listing.fn, spec.who.fn
    var = spec.who.reads_var  # who decides is a flow variable: read in place
    who = f"who_{pc}(s)" if var is None else f"V.get({var!r})"
    if spec.ask_when_only_one:
        ask = "True"
    elif spec.hidden_dependent:
        # one legal option perhaps because of what a seat hides: asked unless what every seat
        # sees decides it (ChooseSpec, forced.py)
        ns["_public"], ns[f"decision_{pc}"] = decided_in_public, spec
        ask = f"len(o) > 1 or not s.take_forced or not _public(s, decision_{pc}, o)"
    else:
        ask = "len(o) > 1 or not s.take_forced"
    written = f"options_{pc}(s)"
    if listing.expression is not None:  # a listing of one expression (options.py), its names
        written = listing.expression.source  # made this step's
        for name, value in listing.expression.names.items():
            ns[f"{name}_{pc}"] = value
            written = re.sub(rf"\b{name}\b", f"{name}_{pc}", written)
    return [
        f"o = {written}",
        "if o:",
        f"    s.who = {who}",
        f"    if {ask}:",
        "        s.pending = o",
        f"        return {-1 - pc}",
        "    take_only(s, o)",
    ]


_NOT_FIXED = object()


def _fixed(ins: tuple) -> Any:
    """The value of instruction `ins`'s text when it is a constant (`if: true`, a phase named
    by a constant), else _NOT_FIXED."""
    return ins[1].value if len(ins) > 1 and isinstance(ins[1], Constant) else _NOT_FIXED


# how long one function may grow (phases entered inline make it longer)
_LINES_MAX = 400

# how many effects a branch's side may run to be written under its `if`
_STRAIGHT_MAX = 6


def _straight_out(code: list[tuple], pc: int, ns: dict[str, Any]) -> list[str] | None:
    """The lines of a path from `pc` that runs a few effects (jumps followed) and then leaves
    the function whatever happens (a decision, the end of a round or game, a phase entered or
    left), or None when the path branches or runs longer: those sides stay where they are."""
    lines: list[str] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    stack: list[int] = []  # a phase named by a constant is entered here too (_write_block)
    steps = 0
    while (pc, tuple(stack)) not in seen and steps <= _STRAIGHT_MAX:
        seen.add((pc, tuple(stack)))
        ins = code[pc]
        op = ins[0]
        fixed = _fixed(ins)
        steps += 1
        if op == DO:
            if ins[1] is not nothing and fixed is _NOT_FIXED:
                lines += _effect(ins[1], pc, ns)
            pc += 1
        elif op == JUMP:
            pc = ins[1]
        elif op == JUMP_IF_NOT and fixed is not _NOT_FIXED:  # `if: true`: no test to run
            pc = pc + 1 if fixed else ins[2]
        elif (to := _phase_in_place(ins, fixed, pc, stack, lines)) is not None:
            pc = to
        elif op in (CALL, RETURN):
            return lines + _leave(code, pc, ns)
        elif op in RUN_ON:  # a branch or a stop-if: not straight
            return None
        elif op == CHOOSE:  # asked there, or its only option taken and on from the next
            return [*lines, *_decision(ins[1], pc, ns), f"return {pc + 1}"]
        else:
            return [*lines, f"return {pc}"]
    return None


def _phase_in_place(
    ins: tuple, fixed: Any, pc: int, stack: list[int], lines: list[str]
) -> int | None:
    """A phase named by a constant entered in place (CALL), or such a phase left back to where
    it was entered (RETURN): the line that keeps the machine's call stack is added to `lines`
    and the next position returned; None for any other step (both walks above use it)."""
    op = ins[0]
    if op == CALL and fixed is not _NOT_FIXED and ins[2].get(fixed) is not None:
        lines.append(f"s.calls.append({pc + 1})")
        stack.append(pc + 1)
        return ins[2][fixed]
    if op == RETURN and stack:
        lines.append("s.calls.pop()")
        return stack.pop()
    return None


def _leave(code: list[tuple], pc: int, ns: dict[str, Any]) -> list[str]:
    """The lines that enter a phase (CALL) or return from one (RETURN) at `pc`."""
    ins = code[pc]
    if ins[0] == RETURN:
        return ["return s.calls.pop()"]
    ns[f"step_{pc}"], ns[f"phases_{pc}"] = ins[1], ins[2]
    return [
        f"phase = step_{pc}(s)",
        f"target = phases_{pc}.get(phase)",
        "if target is None: raise RuntimeRuleError(f'no phase named {phase!r}')",
        f"s.calls.append({pc + 1})",
        "return target",
    ]


def _effect(fn: Fn, pc: int, ns: dict[str, Any]) -> list[str]:
    """The lines that run the effect `fn` at `pc`: its own lines where the flow gave them
    (model/flow.py's Inline), else a call."""
    if not isinstance(fn, Inlined):
        ns[f"step_{pc}"] = fn
        return [f"step_{pc}(s)"]
    inline = fn.inline
    ns.update(inline.names)
    return list(inline.lines)


def _test(fn: Fn, pc: int, ns: dict[str, Any]) -> tuple[list[str], str, list[str]]:
    """The branch `fn` at `pc` as (lines run first, the test, lines run when it holds)."""
    inline = fn.inline if isinstance(fn, Inlined) else None
    if inline is None or inline.test is None:
        ns[f"step_{pc}"] = fn.fn if isinstance(fn, Inlined) else fn
        return [], f"step_{pc}(s)", []
    ns.update(inline.names)
    return list(inline.lines), f"({inline.test})", list(inline.after)


def _without_empty_calls(body: list[str]) -> list[str]:
    """`body` less each phase entered and left with nothing run between (a return address
    pushed and popped at once: an empty phase, a place for overlays to add steps to)."""
    out: list[str] = []
    for line in body:
        pushed = out and out[-1].strip().startswith("s.calls.append(")
        if pushed and line.strip() == "s.calls.pop()" and _indent(out[-1]) == _indent(line):
            out.pop()
            continue
        out.append(line)
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
