"""A test's text written as statements: each `and` part a line that returns early, and each
`sum(... for ...)` the part reaches in any case a plain loop before it (codegen.py).

An expression is one Python expression, so a sum in it is a list comprehension: a function
made and called each time, and a list built only to be added up. Most tests a game asks at
every turn are `a and b and c` whose parts add up what a seat holds. Written as statements,
`a and b` returns `a` when it is false and `b` otherwise, exactly as the expression does,
and a sum that its part computes whatever else holds (not under a condition, an `or`, an
`if ... else` or a function's bound argument) is a loop adding into a local first. The
values and the order of the parts are those of the expression: a sum's elements are read in
the same order, and a sum reads only fields (the language changes nothing in an expression
but through the few builtins hoist.py knows, and no `sum` here may call them: a part that
does is left as it is).
"""

from __future__ import annotations

import itertools
from typing import Any

from interpreter.dsl import ir
from interpreter.dsl.hoist import _IMPURE, _children

_ids = itertools.count()


def returned(gen: Any, node: ir.Expr) -> list[str]:
    """The lines that return the value of `node`, in the function the generator `gen` writes
    for it."""
    if gen.checked or gen.probes is not None:
        return [f"return {gen.x(node)}"]
    parts = node.operands if isinstance(node, ir.BoolOp) and node.op == "and" else [node]
    named: list[int] = []
    try:
        return _lines(gen, parts, named)
    finally:  # the locals are this function's: another text that shares a node computes it
        for key in named:
            gen._named.pop(key, None)


def _lines(gen: Any, parts: list[ir.Expr], named: list[int]) -> list[str]:
    lines: list[str] = []
    for i, part in enumerate(parts):
        for each in _sums(part):
            name = f"_s{next(_ids)}"
            it = gen.x(each.iterable)
            el, cond = gen._each(each)
            add = f"{name} += {el}"
            lines += [f"{name} = 0", f"for {each.slot.py} in {it}:"]
            lines.append(f"    if {cond[4:]}: {add}" if cond else f"    {add}")
            gen._named[id(each)] = name
            named.append(id(each))
        value = gen.x(part)
        if i < len(parts) - 1:
            lines += [f"_a = {value}", "if not _a: return _a"]
        else:
            lines.append(f"return {value}")
    return lines


def _sums(node: ir.Expr) -> list[ir.ReduceEach]:
    """The sums over a comprehension that `node` computes in any case, in the order it
    computes them, when they change nothing (none calls a builtin that does)."""
    found: list[ir.ReduceEach] = []

    def walk(n: Any) -> None:
        if isinstance(n, ir.ReduceEach):
            if n.kind == "sum" and _pure(n):
                found.append(n)
        elif isinstance(n, ir.Binary):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, ir.Unary):
            walk(n.operand)
        elif isinstance(n, ir.Inline) and not n.bound:
            walk(n.body)

    walk(node)
    return found


def _pure(node: Any) -> bool:
    """Whether the sum changes nothing (calls no builtin with an effect: hoist.py's list)."""
    if isinstance(node, ir.BuiltinCall) and node.name in _IMPURE:
        return False
    return all(_pure(child) for child in _children(node))
