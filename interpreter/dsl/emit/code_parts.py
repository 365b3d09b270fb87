"""Parts of the code generator (generator.py) that need no generator: how builtins and reducers
are written, what the type pass proved a value is, how a write to a field with a declared
range is checked, the functions a constant or an empty text becomes, and a text written out
only when it first runs (Deferred)."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import CodeType
from typing import Any, Protocol, TypeVar

from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.types import OneOf, Prim, Type
from interpreter.dsl.runtime.runtime_state import Fn, RunningState
from interpreter.dsl.runtime.support import named

T = TypeVar("T")


class Counters(Protocol):
    """A coverage build's counters (model/probes.py's ``Probes``, a stage above) as the code
    generator writes them in: the counts the generated code adds to, the function an arm of
    an `x if c else y` counts through, and a new point at a place in the text."""

    @property
    def counts(self) -> list[int]: ...

    def hit(self, k: int, value: T) -> T: ...

    def add(
        self,
        kind: str,
        label: str,
        origin: tuple[str | int, ...] | None = None,
        line: int = 1,
        column: int = 1,
    ) -> int: ...


# plain builtins written inline; the others call their function from builtins.py
INLINE_BUILTINS = {
    "len": "len({0})",
    "total": "sum({0}.values())",
    "keys": "[_k for _k, _n in {0}.items() if _n > 0]",
}
# reducers over one plain collection
REDUCE_ONE = {
    "sum": "sum({0})",
    "count": "len({0})",
    "any": "any({0})",
    "all": "all({0})",
    "first": "next(iter({0}), None)",
    "list": "list({0})",
    "distinct": "list(dict.fromkeys({0}))",
    "min": "min({0}, default=0)",
    "max": "max({0}, default=0)",
}
# reducers over `element for slot in iterable if cond`: {0} the element, {1} the for-clause.
# Those that read every element build a list (one frame runs the loop; a generator is resumed
# once per element, which costs more in CPython); any, all and first stop early, as written.
REDUCE_EACH = {
    "sum": "sum([{0} {1}])",
    "count": "len([1 {1}])",
    "any": "any({0} {1})",
    "all": "all({0} {1})",
    "first": "next(({0} {1}), None)",
    "list": "[{0} {1}]",
    "distinct": "list(dict.fromkeys([{0} {1}]))",
    "min": "min([{0} {1}], default=0)",
    "max": "max([{0} {1}], default=0)",
}


def proved_type(node: ir.Expr) -> Type | None:
    """The type the type pass gave `node` (a local's is its slot's): Id or Piece also for one
    of several catalogs whose members are all ids, or all pieces; None when not known."""
    ty = node.slot.ty if isinstance(node, ir.Local) else getattr(node, "ty", None)
    if type(ty) is OneOf:
        kinds = {type(member) for member in ty.members}
        return ty.members[0] if len(kinds) == 1 else None
    return ty


def _const_of(node: ir.Expr) -> Any:
    """The value of `node` when it is a constant (an inlined function's constant body too)."""
    while isinstance(node, ir.Inline) and not node.bound:
        node = node.body
    return node.value if isinstance(node, ir.Const) else None


def _whole(node: ir.Expr) -> bool:
    ty = proved_type(node)
    return type(ty) is Prim and ty.name in ("number", "count")


def identity_side(node: ir.Binary) -> ir.Expr | None:
    """The side of `node` that is its value, where the other side changes nothing: `x * 1`,
    `x - 0`, `x + 0`, `1 * x`, `0 + x` with `x` proved a whole number (a discount a ruleset
    leaves at 0, a rate it leaves at 1); None otherwise."""
    op, left, right = node.op, node.left, node.right
    r = _const_of(right)
    if r is not None and type(r) is int and _whole(left):
        if (op == "*" and r == 1) or (op in ("+", "-") and r == 0):
            return left
    lc = _const_of(left)
    if lc is not None and type(lc) is int and _whole(right):
        if (op == "*" and lc == 1) or (op == "+" and lc == 0):
            return right
    return None


# a line of generated code that writes a temp (`t[key] = ...`, `t[key] += ...`)
WRITES_TEMP = re.compile(r"\bt\[[^\]]*\] *[-+]?=(?!=)")
# how the generated code fires an event (codegen's `_emit`): always a line of its own
FIRE = "_runtime['fire']("


def fires_alone(body: list[str]) -> bool:
    """Whether every event fired in `body` is fired by a line of its own (so that what a
    body read into locals can be read again right after it)."""
    return all(ln.lstrip().startswith(FIRE) for ln in body if FIRE in ln)


def read_again_after_fires(body: list[str], reads: list[str]) -> list[str]:
    """`body` with the lines `reads` (``_v0 = V.get('actor')``) written again, at the same
    depth, after each line that fires an event."""
    out: list[str] = []
    for ln in body:
        out.append(ln)
        if FIRE in ln:
            pad = ln[: len(ln) - len(ln.lstrip())]
            out += [pad + r for r in reads]
    return out


def reachable(
    limits: tuple[int | None, int | None] | None, op: str | None, value: ir.Expr
) -> tuple[int | None, int | None] | None:
    """The ends of a range a write can break: adding a constant >= 0 cannot go below the
    least, taking one away cannot go above the greatest (and the other way round for a
    negative constant), a constant within it breaks neither.
    None when the write needs no check (most writes are `+= 1`)."""
    if limits is None or not isinstance(value, ir.Const):
        return limits
    n = value.value
    if type(n) is not int:
        return limits
    lo, hi = limits
    if op is None:
        inside = (lo is None or n >= lo) and (hi is None or n <= hi)
        return None if inside else limits
    if (n >= 0) == (op == "+="):
        lo = None  # moves up: only the greatest can break
    else:
        hi = None
    return None if lo is None and hi is None else (lo, hi)


def checked_write(
    holder: str, key: str, op: str | None, value: str, limits: tuple[int | None, int | None]
) -> list[str]:
    """holder[key] (Python expressions) written, then its new value checked against the range
    (least, greatest): one comparison when only one end can break."""
    new = value if op is None else f"{holder}[{key}] {op[0]} ({value})"
    lo, hi = limits
    if hi is None:
        test = f"_n < {lo}"
    elif lo is None:
        test = f"_n > {hi}"
    else:
        test = f"not {lo} <= _n <= {hi}"
    fault = f"_out_of_range(s, {holder}, {key}, {lo!r}, {hi!r})"
    return [f"_n = {new}", f"{holder}[{key}] = _n", f"if {test}: {fault}"]


# a part of a listing's condition not yet computed (codegen_select.listing_condition)
UNSET = object()


def put(memo: list[object], i: int, value: T) -> T:
    """Keep a listing's computed part: generated code is one expression, with no assignment."""
    memo[i] = value
    return value


def nothing(s: RunningState) -> None:
    return None


class Deferred:
    """A text's function written and compiled when it first runs: validate sets each game up
    once and runs few of its texts, so it does not pay for writing out the rest.

    ``on_code`` is told the code object once it exists (where a failure in it is reported)."""

    __slots__ = ("_fn", "_make", "on_code")

    def __init__(self, make: Callable[[], Fn]) -> None:
        self._make = make
        self._fn: Fn | None = None
        self.on_code: Callable[[CodeType], None] | None = None

    def __call__(self, s: RunningState) -> Any:
        fn = self._fn
        if fn is None:
            fn = self._fn = self._make()
            code = getattr(fn, "__code__", None)  # (a Constant has none: it cannot fail)
            if self.on_code is not None and code is not None:
                self.on_code(code)
        return fn(s)


def words_text(node: ir.Template, x: Callable[[ir.Expr], str], names: dict[str, str]) -> str:
    """A log line's text as Python: each id it fills in printed as its name (runtime.named,
    reached as ``_named`` with the ids' names as ``_names``); ``x`` writes a part. It runs only
    while a log is kept, never in a simulation's games."""
    parts = []
    for p in node.parts:
        if isinstance(p, str):
            parts.append(repr(p))
        elif isinstance(p, ir.Const):
            parts.append(repr(named(p.value, names)))
        elif p.simple:  # read twice: an id (most parts) is one lookup
            v = x(p)
            parts.append(f"(_names.get({v}, {v}) if {v}.__class__ is str else _named({v}, _names))")
        else:
            parts.append(f"_named({x(p)}, _names)")
    return "(" + " + ".join(parts) + ")"
