"""The types of the rule language: what a value in a rule file or an effect text may be.

One small vocabulary serves the data checks (a catalog attribute, a table, a state field) and
the effect-language checker alike, so a rule author reads the same words everywhere:

>>> describe(COUNT), describe(Id("colors")), describe(ListOf(Id("crates")))
('a whole number of 0 or more', 'an id of colors', 'a list of ids of crates')
>>> describe(Optional(Id("colors")))
"an id of colors or 'none'"
>>> assignable(COUNT, NUMBER), assignable(NUMBER, COUNT), assignable(NONE, Optional(Id("colors")))
(True, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "ANY",
    "BOOL",
    "COUNT",
    "NONE",
    "NUMBER",
    "SEAT",
    "TEXT",
    "Id",
    "ListOf",
    "Optional",
    "Prim",
    "Type",
    "assignable",
    "describe",
    "join",
]


class Type:
    """A type; instances are immutable and compare by value."""


@dataclass(frozen=True)
class Prim(Type):
    name: str  # number, count, bool, text, none, seat, any
    words: str = field(default="", compare=False)  # how a message names it


@dataclass(frozen=True)
class Id(Type):
    """An id of a set, a catalog or the phases: `universe` names which."""

    universe: str


@dataclass(frozen=True)
class Optional(Type):
    """A value of `inner`, or the word ``none``."""

    inner: Type


@dataclass(frozen=True)
class ListOf(Type):
    item: Type


NUMBER = Prim("number", "a whole number")
# a whole number of 0 or more: counts, costs, spaces, copies, circles
COUNT = Prim("count", "a whole number of 0 or more")
BOOL = Prim("bool", "true or false")
TEXT = Prim("text", "a text")
NONE = Prim("none", "'none'")
SEAT = Prim("seat", "a seat")
ANY = Prim("any", "any value")


def describe(t: Type) -> str:
    """The type in a rule author's words, for messages."""
    if isinstance(t, Prim):
        return t.words
    if isinstance(t, Id):
        return "a phase name" if t.universe == "phase" else f"an id of {t.universe}"
    if isinstance(t, Optional):
        return f"{describe(t.inner)} or 'none'"
    if isinstance(t, ListOf):
        inner = describe(t.item)
        inner = inner.removeprefix("an ").removeprefix("a ")
        plural = inner.replace("id of", "ids of", 1) if inner.startswith("id of") else inner
        return f"a list of {plural}"
    return repr(t)  # pragma: no cover - every type is one of the above


def assignable(found: Type, expected: Type) -> bool:
    """Whether a value of type `found` may stand where `expected` is wanted."""
    if expected == ANY or found == ANY or found == expected:
        return True
    if expected == NUMBER and found == COUNT:
        return True
    if isinstance(expected, Optional):
        return found == NONE or assignable(
            found.inner if isinstance(found, Optional) else found, expected.inner
        )
    if isinstance(expected, ListOf) and isinstance(found, ListOf):
        return assignable(found.item, expected.item)
    return False


def join(a: Type, b: Type) -> Type | None:
    """The narrowest type both `a` and `b` fit, or None when they have nothing in common."""
    if assignable(a, b):
        return b
    if assignable(b, a):
        return a
    if a == NONE:
        return Optional(b)
    if b == NONE:
        return Optional(a)
    if {a, b} == {COUNT, NUMBER}:
        return NUMBER
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        item = join(a.item, b.item)
        return None if item is None else ListOf(item)
    return None
