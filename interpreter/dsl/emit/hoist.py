"""The parts of an option's condition that do not depend on the option.

A `choose` step lists its options by asking an option line's `if` once per value of its `for`
name: `can-buy(actor, x)` for each of twenty items, and much of that text (what the seat
already holds, what its discounts take off) reads `actor` only. Those parts are the same for
every candidate of one listing (a condition changes nothing, so nothing it reads changes
between two candidates), so generator.py computes each at most once a listing: when a candidate
first needs it, which keeps the order and the short cuts of the text (`x != none and f(x)`
never asks `f(none)`).

This module finds them: the largest subexpressions that read no `for` name of the line and no
name bound outside themselves, and that cost more than the lookup that replaces them (a call,
a reduction, what pieces grant). A text that changes something (`draw`, `random`, ...) has
none: each candidate must see its own effect.
"""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any

from interpreter.dsl.resolve import ir

__all__ = ["invariant_parts", "reads_none"]

# builtins that change the state or draw from the generator: a text calling one is not hoisted
_IMPURE = frozenset({"draw", "push", "shuffle", "clear", "remove", "place", "random"})
# builtins written inline as one cheap operation: not worth a lookup of their own
_CHEAP = frozenset({"len"})


class _Impure(Exception):
    pass


def invariant_parts(node: ir.Expr, loop_keys: frozenset[str]) -> list[ir.Expr]:
    """The largest costly subexpressions of `node` that read none of `loop_keys` (the temps an
    option line's `for` parts bind) and no local bound outside themselves, in the order the
    text reads them; none when the text calls a builtin with an effect."""
    info: dict[int, tuple[bool, frozenset[ir.Slot], bool]] = {}
    try:
        _scan(node, loop_keys, info)
    except _Impure:
        return []
    out: list[ir.Expr] = []
    _collect(node, info, out)
    return out


def reads_none(node: ir.Expr, loop_keys: frozenset[str]) -> bool:
    """Whether `node` reads none of `loop_keys` and no local bound outside itself (so it has
    one value for a whole listing), and changes nothing."""
    try:
        varies, free, _ = _scan(node, loop_keys, {})
    except _Impure:
        return False
    return not varies and not free


def _children(node: Any) -> list[ir.Expr]:
    out: list[ir.Expr] = []
    for name in _field_names(node.__class__):
        value = getattr(node, name)
        if isinstance(value, ir.Expr):
            out.append(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ir.Expr):
                    out.append(item)
                elif isinstance(item, tuple):  # an Inline's (slot, argument) pairs
                    out.extend(x for x in item if isinstance(x, ir.Expr))
    return out


@functools.cache
def _field_names(kind: Any) -> tuple[str, ...]:
    """A node class's field names, read once a class: the leak checks walk every node of every
    option line, and ``dataclasses.fields`` rebuilds its answer on each call."""
    return tuple(f.name for f in fields(kind))


def _bound_here(node: ir.Expr) -> set[ir.Slot]:
    """The locals `node` itself binds for its parts."""
    if isinstance(node, ir.ReduceEach):
        return {node.slot}
    if isinstance(node, ir.Inline):
        return {slot for slot, _ in node.bound}
    return set()


def _scan(
    node: ir.Expr, keys: frozenset[str], info: dict[int, tuple[bool, frozenset[ir.Slot], bool]]
) -> tuple[bool, frozenset[ir.Slot], bool]:
    """(reads a loop temp, the locals it reads that it does not bind, costs a call or a loop)
    of `node`, recorded in `info` by node identity for every node below it too."""
    if isinstance(node, ir.BuiltinCall) and node.name in _IMPURE:
        raise _Impure
    varies = isinstance(node, ir.Temp) and node.key in keys
    free: set[ir.Slot] = {node.slot} if isinstance(node, ir.Local) else set()
    costly = (
        isinstance(node, ir.Reduce | ir.ReduceEach | ir.Ability)
        or (isinstance(node, ir.BuiltinCall) and node.name not in _CHEAP)
        or (isinstance(node, ir.Inline) and bool(node.bound))
    )
    for child in _children(node):
        v, f, c = _scan(child, keys, info)
        varies = varies or v
        free |= f
        costly = costly or c
    result = (varies, frozenset(free - _bound_here(node)), costly)
    info[id(node)] = result
    return result


def _collect(
    node: ir.Expr, info: dict[int, tuple[bool, frozenset[ir.Slot], bool]], out: list[ir.Expr]
) -> None:
    varies, free, costly = info[id(node)]
    if not costly:
        return
    if not varies and not free:
        out.append(node)
        return
    for child in _children(node):
        _collect(child, info, out)
