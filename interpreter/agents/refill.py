"""In-place refills of the encoder's two common containers: a bag (a dict of numbers) and an
area (a list of flat pieces) whose entries changed but kept their keys and length.

The encoder (encoder.py) keeps beside each block a copy of every field as last encoded. For
these two kinds it does not copy the whole value again when it changes: it finds the changed
entries in C, moves each one's features by its change, and writes the new entry into its
copy, entry by entry, so the copy always stays the value the vector was filled from. Where an
entry is not a plain whole number (a fraction, a text, a piece that changed type or fields)
the function stops and returns False, leaving copy and vector consistent at the entries done:
the caller then finishes by the general walk from that copy.
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import ne
from typing import Any

from interpreter.engine.copier import copy_value

__all__ = [
    "MISSING",
    "Snapshot",
    "refill_area",
    "refill_bag",
    "piece_kind",
    "refill_piece",
    "refills",
    "same_kind",
]

MISSING = object()  # a field never encoded yet


def add(vec: array, at: int, d: float) -> int:
    """``vec[at] += d`` on a feature vector (``array("f")``)."""
    vec[at] += d
    return 0


def refills(
    init: dict[str, tuple[str, Any]], copy_of: dict[str, Any], hidden: set[str]
) -> dict[str, Any]:
    """Field -> the refill that changes its copy in place: a bag's, or a list of pieces' where
    pieces are flat (copied piece by piece, not walked: ``copy_of``); none for a hidden field
    (the others see another form of it)."""
    out: dict[str, Any] = {}
    for name, (kind, _start) in init.items():
        if name in hidden:
            continue
        if kind == "bag":
            out[name] = refill_bag
        elif kind == "area" and copy_of.get(name, copy_value) is not copy_value:
            out[name] = refill_area
    return out


def refill_bag(
    node: Any, was: dict[Any, Any], new: dict[Any, Any], vec: array, vec2: array | None
) -> bool:
    """Bring copy ``was`` (encoded in ``vec``, and in ``vec2`` too where not None: the block
    the other seats see, shown alike) to ``new`` where only numbers of the same keys changed.
    False where it stopped short (see the module's docstring)."""
    if type(new) is not dict or len(was) != len(new):
        return False
    try:
        changed = list(compress(new, map(ne, map(was.__getitem__, new), new.values())))
    except KeyError:  # another key than before: the general walk
        return False
    kids = node.kids
    for key in changed:
        x, y = was[key], new[key]
        if type(x) is not int or type(y) is not int:
            return False  # (a bool, a fraction or a rule file's number: the general walk)
        at = (kids.get(key) or node.kid(key)).num
        if at is not None:
            add(vec, at, y - x)
            if vec2 is not None:
                add(vec2, at, y - x)
        was[key] = y
    return True


def refill_area(
    node: Any, was: list[dict[str, Any]], new: list[Any], vec: array, vec2: array | None
) -> bool:
    """Bring copy ``was`` (a list of flat pieces, encoded as ``refill_bag`` says) to ``new``
    where it kept its length and each changed piece kept its type and fields and changed
    only whole numbers. False where it stopped short (see the module's docstring)."""
    if type(new) is not list or len(was) != len(new):
        return False
    for i in compress(range(len(new)), map(ne, was, new)):
        if not refill_piece(node, was, i, new[i], vec, vec2):
            return False
    return True


def refill_piece(
    node: Any, was: list[dict[str, Any]], i: int, b: Any, vec: array, vec2: array | None
) -> bool:
    """Bring piece ``i`` of copy ``was`` to piece ``b`` (as :func:`refill_area` does each
    changed piece); False where it cannot (the copy is left as it was)."""
    a = was[i]
    if type(b) is not dict or len(a) != len(b):
        return False
    sub = same_kind(node, a, b, i)
    if sub is None:
        return False
    kids = sub.kids
    try:
        keys = list(compress(b, map(ne, map(a.__getitem__, b), b.values())))
    except KeyError:
        return False
    if not keys:
        return True
    for key in keys:
        if type(a[key]) is not int or type(b[key]) is not int:
            return False  # before any write to this piece: the copy stays exact
    for key in keys:
        at = (kids.get(key) or sub.kid(key)).num
        if at is not None:
            d = b[key] - a[key]
            add(vec, at, d)
            if vec2 is not None:
                add(vec2, at, d)
    for key in keys:  # (in place: a record of this piece (owners.py) stays good)
        a[key] = b[key]
    return True


def same_kind(node: Any, a: dict, b: Any, i: int) -> Any:
    """The node of piece ``a``'s type (position ``i`` of list field ``node``, where a piece
    without a type is named by its position) if piece ``b`` is of the same type; else None."""
    kind = a.get("type", i)
    if kind != b.get("type", i):
        return None
    found = node.kinds.get(kind)
    if found is None:
        found = node.kinds[kind] = piece_kind(node, kind)
    return found[1]


def piece_kind(node: Any, kind: Any) -> tuple[int | None, Any]:
    """A piece type's count position and its node, as encoder._items makes them."""
    name = f"{node.path}[{kind}]"
    return node.index.get(name), type(node)(name, node.index)


class Snapshot:
    """One dict of fields (the global fields, or one seat's) as last encoded: the dict, its
    keys in order, and a copy of each value in the same order (compared with the dict's
    ``values()`` by position), and the same copies by name (``mirror``: the dict as last
    encoded, so one C-level ``==`` tells that nothing of it changed, as it does for most
    seats at most steps)."""

    __slots__ = (
        "obj",
        "keys",
        "at",
        "vals",
        "copies",
        "positions",
        "copy_of",
        "mirror",
        "kinds",
        "kind_of",
    )

    def __init__(self, copy_of: dict[str, Any], kind_of: dict[str, Any]) -> None:
        self.copy_of = copy_of  # field -> the function that copies its value by its kind
        self.kind_of = kind_of  # field -> the refill that changes its copy in place (refill.py)
        self.kinds: list[Any] = []  # the same, by position (None: copied again when it changes)
        self.obj: dict[str, Any] | None = None
        self.keys: tuple[str, ...] = ()
        self.at: dict[str, int] = {}
        self.vals: list[Any] = []
        self.copies: list[Any] = []
        self.positions: range = range(0)
        self.mirror: dict[str, Any] = {}  # always dict(zip(keys, vals))

    def bind(self, fields: dict[str, Any]) -> None:
        """Follow ``fields`` (another dict than last time: a new game, a copied state); the
        copies stay comparable where its keys are the same, in the same order."""
        keys = tuple(fields)
        if keys != self.keys:
            self.keys = keys
            self.at = {k: i for i, k in enumerate(keys)}
            self.vals = [MISSING] * len(keys)
            self.copies = [self.copy_of.get(k, copy_value) for k in keys]
            self.kinds = [self.kind_of.get(k) for k in keys]
            self.positions = range(len(keys))
            self.mirror = dict.fromkeys(keys, MISSING)
        self.obj = fields

    def forget(self, name: str) -> None:
        """Field ``name`` is filled again at the next call, changed or not."""
        i = self.at.get(name)
        if i is not None:
            self.vals[i] = MISSING
            self.mirror[name] = MISSING
