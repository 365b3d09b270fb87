"""The flow program's straight runs, each written out as one Python function.

The machine used to step one instruction at a time: fetch it, test its kind, call its
function, about thirteen times a decision. Most of those are effects and branches that never
stop the game for a decision, so from any position this module writes one function that runs
on through them (an effect is a call, a branch an `if`, a jump is followed while it leads
somewhere not yet written in this function) and returns the position it stopped at: where a
branch or a jump leaves the run, a phase is entered or left, or an instruction the machine
handles itself (a decision, the end of a round, the end of the game). The functions the flow
was compiled to stay as they are, so a rule that fails still points at its own text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.dsl.compiler import RuntimeRuleError
from interpreter.model.flow import CALL, DO, JUMP, JUMP_IF_NOT, RETURN, STOP_IF, Program

RUN_ON = (DO, JUMP_IF_NOT, JUMP, STOP_IF, CALL, RETURN)
# the line written for each instruction that is one line of a run: F{pc} is its function
_ONE_LINE = {
    DO: "F{pc}(s)",
    JUMP_IF_NOT: "if not F{pc}(s): return {target}",
    STOP_IF: "if F{pc}(s): return {target}",
}

Block = Callable[[Any], int]

# the instructions the machine's own loop handles: a block stops in front of them
STOPS_AT = object()


def block_at(program: Program, pc: int) -> Any:
    """The function that runs the program on from `pc`, or STOPS_AT when the instruction at
    `pc` is one the machine handles itself (written once per position, on first use)."""
    blocks = program.blocks
    fn = blocks.get(pc)
    if fn is None:
        fn = blocks[pc] = _write_block(program.code, pc)
    return fn


def _write_block(code: list[tuple], start: int) -> Any:
    if code[start][0] not in RUN_ON:
        return STOPS_AT
    ns: dict[str, Any] = {"RuntimeRuleError": RuntimeRuleError}
    body: list[str] = []
    seen: set[int] = set()
    pc = start
    while True:
        if pc in seen:  # a jump back into this function's own run: the loop goes round outside
            body.append(f"return {pc}")
            break
        seen.add(pc)
        ins = code[pc]
        op = ins[0]
        line = _ONE_LINE.get(op)
        if line is not None:  # an effect or a branch: a line, then on to the next position
            ns[f"F{pc}"] = ins[1]
            body.append(line.format(pc=pc, target=ins[-1]))
            pc += 1
        elif op == JUMP:
            pc = ins[1]
        elif op == CALL:
            ns[f"F{pc}"], ns[f"T{pc}"] = ins[1], ins[2]
            body += [
                f"phase = F{pc}(s)",
                f"target = T{pc}.get(phase)",
                "if target is None: raise RuntimeRuleError(f'no phase named {phase!r}')",
                f"s.calls.append({pc + 1})",
                "return target",
            ]
            break
        elif op == RETURN:
            body.append("return s.calls.pop()")
            break
        else:  # a decision, the end of a round or of the game: the machine's own
            body.append(f"return {pc}")
            break
    src = "def run_on(s):\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(src, f"<flow from {start}>", "exec"), ns)  # noqa: S102 - our own source
    return ns["run_on"]
