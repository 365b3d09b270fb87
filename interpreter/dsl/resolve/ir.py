"""The resolved effect language: what resolver.py makes of a parse tree, and generator.py writes
out as Python. Every name, attribute and call is already decided here (a constant, a local, a
flow variable, a player or piece field, an inlined rule function ...), so the generator only
chooses how to write each node, never what it means.

Expression nodes derive from Expr; `simple` marks a value that is cheap and side-effect free,
so it may be read twice (a rule function's parameter given one is read in place).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from interpreter.dsl.resolve.types import Type

# the data path of the rule function whose text a node was inlined from (None: the text
# being resolved itself)
Origin = Sequence[str | int] | None


class Expr:
    # `ty`: its type (types.py), set by the resolve pass; codegen never reads it. `where`:
    # (origin, line, column) where it is written, origin the inlined function's text path or
    # None for the text being resolved (check/taint.py names the places a value flows through)
    __slots__ = ("ty", "where")
    ty: Any
    where: tuple[Origin, int, int]
    simple = False


class Slot:
    """A let, loop or parameter name: one Python local in the generated function."""

    __slots__ = ("py", "ty")

    def __init__(self, hint: str, number: int, ty: Type | None = None) -> None:
        """`number`: unique among the slots of one build (its root scope's `numbers`)."""
        clean = "".join(ch if ch.isalnum() else "_" for ch in hint)
        self.py = f"_{clean}_{number}"
        self.ty = ty  # the type of its values; None: not known (any)


# -- values that are read in place -----------------------------------------------------------


@dataclass(slots=True, eq=False)
class Const(Expr):
    value: Any
    # the declared name it was read through (a table's), so a fault is reported where the
    # value is written; None for a value written out in the text
    name: str | None = None
    simple = True


@dataclass(slots=True, eq=False)
class Local(Expr):
    slot: Slot
    simple = True


@dataclass(slots=True, eq=False)
class Temp(Expr):
    """A slot of s.t that the engine fills (a hook's self, an option's loop name)."""

    key: str
    simple = True


@dataclass(slots=True, eq=False)
class FlowVar(Expr):
    key: str
    simple = True


@dataclass(slots=True, eq=False)
class Round(Expr):
    simple = True


@dataclass(slots=True, eq=False)
class Global(Expr):
    """A global field; not simple: an inlined procedure may change it between reads."""

    name: str


# -- fields ---------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Field(Expr):
    """`obj.name` of a player or piece; holder says which can have it: player, piece or any."""

    obj: Expr
    name: str
    holder: str


@dataclass(slots=True, eq=False)
class Static(Expr):
    """A fixed attribute of catalog entries, read by the entry id or a piece's type."""

    obj: Expr
    name: str
    table: dict[str, Any]


@dataclass(slots=True, eq=False)
class Ability(Expr):
    """What the active pieces of a seat grant, summed at run time."""

    obj: Expr
    name: str


# -- operators --------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class ListOf(Expr):
    items: list[Expr]


@dataclass(slots=True, eq=False)
class Index(Expr):
    obj: Expr
    key: Expr


@dataclass(slots=True, eq=False)
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(slots=True, eq=False)
class BoolOp(Expr):
    op: str  # "or" or "and"
    operands: list[Expr]


@dataclass(slots=True, eq=False)
class Cond(Expr):
    then: Expr
    test: Expr
    other: Expr
    at: tuple = ()  # (origin, line, column) of each arm, for a coverage build (generator.py)


@dataclass(slots=True, eq=False)
class Binary(Expr):
    """A comparison or arithmetic: the operator is the language's own (==, in, //, ...)."""

    left: Expr
    op: str
    right: Expr


@dataclass(slots=True, eq=False)
class Template(Expr):
    """A quoted text with {expr} parts; plain text parts are str. A log line's text has
    `words`: its ids print as their names (runtime.named), other texts (ids) as they are."""

    parts: list[str | Expr]
    words: bool = False
    # (origin, line, column) of each {expr} part, in order: a part that is a rule function's
    # parameter is its argument's node, which keeps the argument's place (check/taint.py)
    places: tuple = ()


# -- calls ----------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class BuiltinCall(Expr):
    name: str
    args: list[Expr]


@dataclass(slots=True, eq=False)
class Reduce(Expr):
    """sum, count, any, all, first, list, distinct, min, max over plain values."""

    kind: str
    args: list[Expr]


@dataclass(slots=True, eq=False)
class ReduceEach(Expr):
    """A reducer over `element for slot in iterable if cond`."""

    kind: str
    element: Expr
    slot: Slot
    iterable: Expr
    cond: Expr | None


@dataclass(slots=True, eq=False)
class Inline(Expr):
    """A rule function inlined: arguments that are not simple are bound once, to slots."""

    bound: list[tuple[Slot, Expr]]
    body: Expr


# -- statements -----------------------------------------------------------------------------


class Stmt:
    # (line, column) of the statement in its text, set by the resolve pass: the generator maps
    # each line of Python back to it, so a failure is reported at the statement, not the text
    __slots__ = ("pos",)
    pos: tuple[int, int]


@dataclass(slots=True, eq=False)
class Let(Stmt):
    slot: Slot
    value: Expr


@dataclass(slots=True, eq=False)
class Target:
    """Where an assignment writes: kind is local, temp, var, global, field or index."""

    kind: str
    key: Any = None  # the slot, s.t key, flow variable or global name; a field's name
    obj: Expr | None = None  # the seat or piece (field), the container (index)
    index: Expr | None = None
    only_player: bool = False  # a field only players have: written straight into s.p


@dataclass(slots=True, eq=False)
class Assign(Stmt):
    target: Target
    op: str | None  # None, "+=" or "-="
    value: Expr


@dataclass(slots=True, eq=False)
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None
    # (origin, line, column) of each branch, then of the else (the `if` itself when there is
    # none): where a coverage build counts each arm; origin is the inlined function's text
    # path, or None for the text being compiled
    at: tuple = ()


@dataclass(slots=True, eq=False)
class For(Stmt):
    slot: Slot
    iterable: Expr
    body: list[Stmt]


@dataclass(slots=True, eq=False)
class Emit(Stmt):
    event: str
    args: list[Expr]


@dataclass(slots=True, eq=False)
class Log(Stmt):
    """A log line; with `own`, the text the seat `seat` reads instead of `text` (which every
    other reader gets: dsl/runtime/loglines.py)."""

    text: Expr
    seat: Expr | None = None
    own: Expr | None = None


@dataclass(slots=True, eq=False)
class Do(Stmt):
    """A call used as a statement: its value is dropped."""

    call: Expr


@dataclass(slots=True, eq=False)
class InlineProc(Stmt):
    bound: list[tuple[Slot, Expr]]
    body: list[Stmt]
    origin: Origin = None  # where the procedure's text lives (its data path)
