"""The types of the rule language: what a value in a rule file or an effect text may be.

One small vocabulary serves the data checks (a catalog attribute, a table, a state field) and
the effect-language checker alike, so a rule author reads the same words everywhere:

>>> describe(COUNT), describe(Id("colors")), describe(ListOf(Id("crates")))
('a whole number of 0 or more', 'an id of colors', 'a list of ids of crates')
>>> describe(Optional(Id("colors")))
"an id of colors or 'none'"
>>> assignable(COUNT, NUMBER), assignable(NUMBER, COUNT), assignable(NONE, Optional(Id("colors")))
(True, False, True)

What the state and the tables hold has a type too: a pile of ids, an area of pieces, a bag
counting ids, a table from keys to values:

>>> describe(Pile("crates")), describe(Area("crates")), describe(Bag("colors"))
('a pile of crates', 'an area of crates', 'a bag of colors')
>>> describe(Piece("crates")), describe(Table(Id("colors"), COUNT))
('a piece of crates', 'a table by colors')
>>> assignable(Area("crates"), ListOf(Piece("crates"))), assignable(SEAT, NUMBER)
(True, True)
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
    "OneOf",
    "TEXT",
    "Id",
    "ListOf",
    "Optional",
    "Prim",
    "Type",
    "Area",
    "Bag",
    "Piece",
    "Pile",
    "Table",
    "assignable",
    "describe",
    "is_number",
    "is_text_id",
    "item_of",
    "join",
    "numbers_by",
    "one_of",
]


class Type:
    """A type; instances are immutable and compare by value."""


@dataclass(frozen=True)
class Prim(Type):
    name: str  # number, count, bool, text, none, seat, any
    words: str = field(default="", compare=False)  # how a message names it


@dataclass(frozen=True)
class Over(Type):
    """A type over one universe: a set, a catalog or the phases, which `universe` names.
    Each kind below is its own class (an id of colors is not a pile of colors)."""

    universe: str

    @property
    def catalog(self) -> str:
        return self.universe


class Id(Over):
    """An id of a set, a catalog or the phases."""


class Piece(Over):
    """A placed piece of a catalog (its fields and its entry's attributes); catalog "" is any."""


class Pile(Over):
    """A state field holding ids of a set or catalog, in order (a list of them, changeable)."""


class Area(Over):
    """A state field holding placed pieces of a catalog (a list of them, changeable)."""


class Bag(Over):
    """A state field counting ids of a set or catalog: bag[id] is a number."""


@dataclass(frozen=True)
class OneOf(Type):
    """An id (or a piece) of one of several catalogs, e.g. ``x.type`` for ``x`` in the
    concatenation of two areas of different catalogs: `members`, sorted, all of one class.
    What fits every member fits it; an attribute is read only when every member has it."""

    members: tuple[Over, ...]


@dataclass(frozen=True)
class Optional(Type):
    """A value of `inner`, or the word ``none``."""

    inner: Type


@dataclass(frozen=True)
class ListOf(Type):
    item: Type


@dataclass(frozen=True)
class Table(Type):
    """A table of the rules: table[key] is a value."""

    key: Type
    value: Type


NUMBER = Prim("number", "a whole number")
# a whole number of 0 or more: counts, costs, spaces, copies, circles
COUNT = Prim("count", "a whole number of 0 or more")
BOOL = Prim("bool", "true or false")
TEXT = Prim("text", "a text")
NONE = Prim("none", "'none'")
SEAT = Prim("seat", "a seat")
ANY = Prim("any", "any value")


_PLURALS = (
    ("id of", "ids of"),
    ("whole number", "whole numbers"),
    ("seat", "seats"),
    ("text", "texts"),
    ("piece", "pieces"),
)


def describe(t: Type) -> str:
    """The type in a rule author's words, for messages."""
    if isinstance(t, Prim):
        return t.words
    if isinstance(t, Id):
        return "a phase name" if t.universe == "phase" else f"an id of {t.universe}"
    if isinstance(t, Optional):
        return f"{describe(t.inner)} or 'none'"
    if isinstance(t, OneOf):
        first = describe(t.members[0]).rsplit(" ", 1)[0]  # "an id of", "a piece of"
        return f"{first} {' or '.join(m.universe for m in t.members)}"
    if isinstance(t, Piece):
        return f"a piece of {t.catalog}" if t.catalog else "a piece"
    if isinstance(t, Pile):
        return f"a pile of {t.universe}"
    if isinstance(t, Area):
        return f"an area of {t.catalog}"
    if isinstance(t, Bag):
        return f"a bag of {t.universe}"
    if isinstance(t, Table):
        key = t.key
        if isinstance(key, Id):
            return f"a table by {key.universe}"
        return "a table by player count" if is_number(key) else "a table"
    if isinstance(t, ListOf):
        inner = describe(t.item)
        inner = inner.removeprefix("an ").removeprefix("a ")
        plural = inner
        for one, many in _PLURALS:
            if inner.startswith(one):
                plural = many + inner[len(one) :]
                break
        return f"a list of {plural}"
    return repr(t)  # pragma: no cover - every type is one of the above


def is_number(t: Type) -> bool:
    """A number for arithmetic and order: counts, numbers and seats (a seat is its index)."""
    return t in (NUMBER, COUNT, SEAT)


def numbers_by(keys: list[object], least: int, most: int) -> str | None:
    """What a table's whole-number keys count, for a game of `least` to `most` players:
    "seat" (a key for each seat of the smallest game: 0, 1, ...), "count" (most keys are
    player counts, two at least), or None (numbers of something else, or not all numbers).

    >>> numbers_by([2, 3, 4], 2, 5), numbers_by([0, 1, 2, 3], 2, 5), numbers_by([0, 5, 9], 2, 5)
    ('count', 'seat', None)
    """
    if not keys or not all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
        return None
    inside = sum(least <= k <= most for k in keys)  # type: ignore[operator]
    if least > 0 and set(range(least)) <= set(keys):
        return "seat"  # no game has that few players
    if inside < 2 or inside * 2 <= len(keys):
        return None
    return "count"


def is_text_id(t: Type | None) -> bool:
    """Whether every value of `t` is an id, so a text at run time (not a piece, a number or
    none): an id of one catalog or set, or of one of several.

    >>> is_text_id(Id("colors")), is_text_id(Optional(Id("colors"))), is_text_id(Piece("crates"))
    (True, False, False)
    """
    if isinstance(t, OneOf):
        return all(type(m) is Id for m in t.members)
    return type(t) is Id


def item_of(t: Type) -> Type | None:
    """What a loop over a value of `t` gives (a bag's or table's keys); None: not a collection.

    >>> item_of(Area("crates")), item_of(COUNT)
    (Piece(universe='crates'), None)
    """
    if isinstance(t, ListOf):
        return t.item
    if isinstance(t, Pile | Bag):
        return Id(t.universe)
    if isinstance(t, Area):
        return Piece(t.catalog)
    if isinstance(t, Table):
        return t.key
    if t in (TEXT, ANY):
        return t
    return None


def _as_list(t: Type) -> Type:
    if isinstance(t, Pile):
        return ListOf(Id(t.universe))
    if isinstance(t, Area):
        return ListOf(Piece(t.catalog))
    return t


def assignable(found: Type, expected: Type) -> bool:
    """Whether a value of type `found` may stand where `expected` is wanted."""
    if expected == ANY or found == ANY or found == expected:
        return True
    if isinstance(found, OneOf):
        return all(assignable(m, expected) for m in found.members)
    if isinstance(expected, OneOf):
        return any(assignable(found, m) for m in expected.members)
    if expected == NUMBER and found in (COUNT, SEAT):
        return True
    if isinstance(expected, Piece) and isinstance(found, Piece):
        return not expected.catalog or not found.catalog
    if isinstance(found, Pile | Area) and isinstance(expected, ListOf):
        return assignable(_as_list(found), expected)
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
    if is_number(a) and is_number(b):
        return NUMBER
    if isinstance(a, Piece) and isinstance(b, Piece):
        return Piece("")
    if isinstance(a, Optional) or isinstance(b, Optional):
        inner = join(_strip(a), _strip(b))
        return None if inner is None else Optional(inner)
    a, b = _as_list(a), _as_list(b)
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        item = join(a.item, b.item)
        return None if item is None else ListOf(item)
    return None


def one_of(a: Type, b: Type) -> Type | None:
    """Like :func:`join`, but ids (or pieces) of different catalogs make a :class:`OneOf` of
    them, and so do lists of them (two areas end to end), instead of nothing in common."""
    if isinstance(a, Pile | Area) or isinstance(b, Pile | Area):
        a, b = _as_list(a), _as_list(b)
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        item = one_of(a.item, b.item)
        return None if item is None else ListOf(item)
    members = [*_members(a), *_members(b)]
    kinds = {type(m) for m in members}
    if members and len(kinds) == 1 and all(m.universe for m in members):
        unique = tuple(sorted(set(members), key=lambda m: m.universe))
        return unique[0] if len(unique) == 1 else OneOf(unique)
    return join(a, b)


def _members(t: Type) -> list[Over]:
    if isinstance(t, OneOf):
        return list(t.members)
    return [t] if isinstance(t, Id | Piece) else [Over("")]  # Over(""): not one of these


def _strip(t: Type) -> Type:
    return t.inner if isinstance(t, Optional) else t
