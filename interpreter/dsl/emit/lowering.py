"""A test's text written as statements: each `and` part a line that returns early, and each
`sum(... for ...)` the part reaches in any case a plain loop before it (generator.py).

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

from collections.abc import Callable
from typing import TypeGuard

from interpreter.dsl.emit.code_writer import Writer
from interpreter.dsl.emit.hoist import _IMPURE, _children
from interpreter.dsl.resolve import ir


def returned(gen: Writer, node: ir.Expr) -> list[str]:
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


def sums_first(gen: Writer, node: ir.Expr, write: Callable[[], list[str]]) -> list[str]:
    """The lines `write` gives for a statement whose expression `node` is computed first and
    in any case (a `let`'s value, an assignment's, an `if`'s first test), after the loops that
    compute the sums `node` computes in any case, each into a local that `write` reads in its
    place. Not where the expression calls a builtin with an effect (a sum moved before it
    would read what it changes) or the code is not plain; the statement's own body (an `if`'s
    arms) is written after, with the state it may have changed, and reads no such local."""
    if gen.checked or gen.probes is not None or gen._memo is not None or not _pure(node):
        return write()
    lines: list[str] = []
    named: list[int] = []
    try:
        for each in _sums(node):
            name = f"_s{next(gen.sum_locals)}"
            lines += reduce_loop(gen, name, each)
            gen._named[id(each)] = name
            named.append(id(each))
        return lines + write()
    finally:
        for key in named:
            gen._named.pop(key, None)


def _lines(gen: Writer, parts: list[ir.Expr], named: list[int]) -> list[str]:
    lines: list[str] = []
    for i, part in enumerate(parts):
        for each in _sums(part):
            name = f"_s{next(gen.sum_locals)}"
            lines += reduce_loop(gen, name, each)
            gen._named[id(each)] = name
            named.append(id(each))
        value = gen.x(part)
        if i < len(parts) - 1:
            lines += [f"_a = {value}", "if not _a: return _a"]
        else:
            lines.append(f"return {value}")
    return lines


# a reducer over a comprehension as a loop: the local's start, and the lines run for each
# element that passes the comprehension's `if` (any, all and first stop where they stop)
_LOOPS = {
    "sum": ("0", ["{name} += {el}"]),
    "count": ("0", ["{name} += 1"]),
    "any": ("False", ["if {el}:", "    {name} = True", "    break"]),
    "all": ("True", ["if not {el}:", "    {name} = False", "    break"]),
    "first": ("None", ["{name} = {el}", "break"]),
}


def is_loop(node: ir.Expr) -> TypeGuard[ir.ReduceEach]:
    """Whether `node` is a reducer written as a loop (reduce_loop) where it is computed in
    any case: `let x = first(...)`, a sum in a test."""
    return isinstance(node, ir.ReduceEach) and node.kind in _LOOPS and _pure(node)


def reduce_loop(gen: Writer, name: str, each: ir.ReduceEach) -> list[str]:
    """The lines that compute the reducer `each` into the local `name` by a loop."""
    it = gen.x(each.iterable)
    el, cond = gen._each(each)
    start, found = _LOOPS[each.kind]
    body = [ln.format(name=name, el=el) for ln in found]
    if cond:
        body = [f"if {cond[4:]}:", *("    " + ln for ln in body)]
    return [f"{name} = {start}", f"for {each.slot.py} in {it}:", *("    " + ln for ln in body)]


def _sums(node: ir.Expr) -> list[ir.ReduceEach]:
    """The sums over a comprehension that `node` computes in any case, in the order it
    computes them, when they change nothing (none calls a builtin that does)."""
    found: list[ir.ReduceEach] = []

    def walk(n: ir.Expr) -> None:
        if isinstance(n, ir.ReduceEach):
            if is_loop(n):
                found.append(n)
        elif isinstance(n, ir.Index):
            walk(n.obj)
            walk(n.key)
        elif isinstance(n, ir.Field | ir.Static):
            walk(n.obj)
        elif isinstance(n, ir.Binary):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, ir.Unary):
            walk(n.operand)
        elif isinstance(n, ir.Inline) and not n.bound:
            walk(n.body)
        elif isinstance(n, ir.Reduce | ir.ListOf):  # each value is computed (min, max, [..])
            for a in n.args if isinstance(n, ir.Reduce) else n.items:
                walk(a)
        elif isinstance(n, ir.BuiltinCall) and n.name not in _IMPURE:
            for a in n.args:  # a call's arguments are computed before it
                walk(a)

    walk(node)
    return found


def _pure(node: ir.Expr) -> bool:
    """Whether the sum changes nothing (calls no builtin with an effect: hoist.py's list)."""
    if isinstance(node, ir.BuiltinCall) and node.name in _IMPURE:
        return False
    return all(_pure(child) for child in _children(node))
