"""The board's pictures: a state field drawn as one of a few generic components, as the
``presentation: draw:`` section of a ruleset asks (docs/serve.md, "Drawing the board").

A component is plain data built from one seat's view (never the full state), so hidden values
stay hidden: a hidden pile is drawn as a face-down stack with its count, whatever the field
asks. The web table renders it (serve/render_draw.py); the terminal keeps the field's chips.

Components (``as:``):

* ``cards``  catalog entries as card faces (name, cost, VP, kind, colour, ``doc:`` text): a hand,
  a city, the entries for sale (a bag: each with how many are left);
* ``grid``   spaces holding pieces, each piece with its occupant circles (filled of capacity);
  ``spaces:`` how many (empty ones drawn too), ``width:`` the spaces a piece takes,
  ``occupants:`` the piece fields counting them, ``marked:`` how many of the first are of a
  second sort (drawn in their own colour);
* ``slots``  rows of slots: a piece with ``capacity:`` slots, ``fill:`` of them filled with what
  its ``content:`` field names; a bag or a pile filling ``capacity:`` slots;
* ``track``  a number on a range from 0 to ``max:``;
* ``stack``  a face-down stack with its count;
* ``tile``   an id naming a row of numbers in ``table:``, drawn with its printed numbers;
* ``seat``   a number that is a seat, said as the seat ("Seat 1", "you").

A number in the spec (``spaces``, ``capacity``, ``max``) is a number, the name of a table (a
knob: a house rule changing it changes the drawing; a table by player count is read at this
game's count) or, for ``capacity``, an attribute of the piece's catalog entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from interpreter.ruleset.nodes import Plain
from interpreter.ruleset.presentation import DrawSpec

__all__ = [
    "COMPONENTS",
    "Drawing",
    "Face",
    "Looks",
    "Row",
    "Space",
    "draw_field",
    "is_hidden",
    "number_of",
    "pile_size",
]


class Looks(Protocol):
    """What a drawing reads of the presentation (``presentation.py``'s ``Presentation``): the
    tables and pieces a size or a count names, the words of an id, a card's face, its style."""

    tables: dict[str, Plain]
    pieces: dict[str, Mapping[str, Plain]]
    rows: dict[str, str]

    def label(self, key: object) -> str: ...

    def card_face(self, key: str) -> Face: ...

    def style_of(self, key: str | None) -> tuple[str, str]: ...


COMPONENTS = ("cards", "grid", "slots", "track", "stack", "tile", "seat")


@dataclass
class Face:
    """A catalog entry as a card: what a player reads on it."""

    key: str
    name: str
    cost: Any = None
    vp: Any = None
    kind: str = ""
    colour: str = ""
    icon: str = ""
    doc: str = ""
    count: int | None = None  # how many of it (left for sale), when more than one is meant


@dataclass
class Space:
    """One space of a grid: the piece on it (None: empty), the spaces it takes, and its
    occupants (label, how many) out of ``capacity`` circles."""

    face: Face | None = None
    width: int = 1
    occupants: list[tuple[str, int]] = field(default_factory=list)
    capacity: int | None = None


@dataclass
class Row:
    """A row of slots: its name, how many slots, and what fills them (a face each, or None
    for a plain mark); ``named``: the things in it are catalog entries, shown by name."""

    title: str
    key: str | None
    capacity: int | None
    filled: list[Face | None] = field(default_factory=list)
    named: bool = False


@dataclass
class Drawing:
    """One field drawn as a component (``kind`` is one of :data:`COMPONENTS`)."""

    kind: str
    faces: list[Face] = field(default_factory=list)
    spaces: list[Space] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    value: int | None = None  # a track's number, a stack's count (None: not told)
    max: int | None = None
    title: str = ""  # a tile's name
    words: str = ""  # a tile's numbers in words (its tooltip)
    cells: list[tuple[str, str, int]] = field(default_factory=list)  # a tile: colour, name, number


def number_of(pres: Looks, spec: Any, players: int, entry: str | None = None) -> int | None:
    """A number of a draw spec: a number, a table (at this player count) or an attribute of
    ``entry``'s catalog entry; None when it names nothing that is a whole number."""
    if isinstance(spec, bool):
        return None
    if isinstance(spec, int):
        return spec
    if not isinstance(spec, str):
        return None
    if spec in pres.tables:
        value = pres.tables[spec]
        if isinstance(value, Mapping):  # by player count (the keys read as text)
            value = value.get(str(players))
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if entry is not None:
        value = (pres.pieces.get(entry) or {}).get(spec)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return None


def pile_size(value: object) -> int | None:
    """How many things a pile holds: a list's length, a bag's total, a hidden pile's told
    count (None when not told, and for anything that is not a pile)."""
    if isinstance(value, list | tuple):
        return len(value)
    if isinstance(value, Mapping):
        if value.get("hidden") is True:
            count = value.get("count")
            return count if isinstance(count, int) else None
        return sum(v for v in value.values() if isinstance(v, int) and not isinstance(v, bool))
    return None


def is_hidden(value: object) -> bool:
    """Whether a view's value is a pile the viewer may not see (``{"hidden": true, ...}``)."""
    return isinstance(value, Mapping) and value.get("hidden") is True


def _count(value: object) -> int | None:
    """How many things a value holds: a number, or a pile's :func:`pile_size`."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return pile_size(value)


def draw_field(pres: Looks, spec: DrawSpec, value: Any, players: int) -> Drawing | None:
    """``value`` (a field of one seat's view) drawn as ``spec`` asks; None where the value is
    not of a shape the component draws (the field then keeps its chips)."""
    kind = spec.as_
    if kind == "stack" or (is_hidden(value) and kind in ("cards", "grid", "slots")):
        # what is hidden is a face-down stack, whatever the field asks for
        return Drawing("stack", value=_count(value))
    if kind == "cards":
        return _cards(pres, value)
    if kind == "grid" and isinstance(value, list):
        return _grid(pres, spec, value, players)
    if kind == "slots":
        return _slots(pres, spec, value, players)
    if kind == "track" and isinstance(value, int) and not isinstance(value, bool):
        top = number_of(pres, spec.max, players)
        return Drawing("track", value=value, max=top)
    if kind == "tile" and isinstance(value, str):
        row = pres.tables.get(str(spec.table))
        row = row.get(value) if isinstance(row, Mapping) else None
        if isinstance(row, Mapping):
            cells = [
                (pres.style_of(str(k))[1], pres.label(k), v)
                for k, v in row.items()
                if isinstance(v, int) and not isinstance(v, bool)
            ]
            words = pres.rows.get(value, "")
            return Drawing("tile", title=pres.label(value), cells=cells, words=words)
    return None


def _piece_key(item: Any) -> str | None:
    if isinstance(item, Mapping):
        kind = item.get("type")
        return None if kind is None else str(kind)
    return None if item is None else str(item)


def _cards(pres: Looks, value: Any) -> Drawing | None:
    faces: list[Face] = []
    if isinstance(value, Mapping):  # a bag: each entry once, with how many are left
        for key, n in value.items():
            if isinstance(n, int) and not isinstance(n, bool) and n > 0:
                faces.append(replace(pres.card_face(str(key)), count=n))
    elif isinstance(value, list):
        for item in value:
            key = _piece_key(item)
            if key is not None:
                faces.append(pres.card_face(key))
    else:
        return None
    return Drawing("cards", faces=faces)


def _grid(pres: Looks, spec: DrawSpec, value: list[Any], players: int) -> Drawing:
    spaces: list[Space] = []
    for item in value:
        key = _piece_key(item)
        if key is None:
            continue
        width = number_of(pres, spec.width, players, key) if spec.width else 1
        occupants = [
            (pres.label(name), int(item.get(name) or 0))
            for name in spec.occupants
            if isinstance(item, Mapping) and isinstance(item.get(name), int)
        ]
        marked = spec.marked
        if occupants and isinstance(item, Mapping) and isinstance(item.get(marked), int):
            # `marked:` counts how many of the first occupants are of a second sort
            label, n = occupants[0]
            occupants[0] = (label, max(0, n - item[marked]))
            occupants.insert(1, (pres.label(marked), item[marked]))
        capacity = number_of(pres, spec.capacity, players, key)
        spaces.append(Space(pres.card_face(key), max(1, width or 1), occupants, capacity))
    total = number_of(pres, spec.spaces, players)
    used = sum(s.width for s in spaces)
    spaces.extend(Space() for _ in range(max(0, (total or 0) - used)))
    return Drawing("grid", spaces=spaces, max=total)


def _slots(pres: Looks, spec: DrawSpec, value: Any, players: int) -> Drawing | None:
    rows: list[Row] = []
    if isinstance(value, list) and all(isinstance(v, Mapping) for v in value) and value:
        fill, content = spec.fill, spec.content
        for item in value:
            key = _piece_key(item)
            n = item.get(fill) if fill else None
            n = n if isinstance(n, int) and not isinstance(n, bool) else 0
            what = item.get(content) if content else None
            face = None if what in (None, "none") else pres.card_face(str(what))
            capacity = number_of(pres, spec.capacity, players, key)
            rows.append(Row(pres.label(key), key, capacity, [face] * n))
        return Drawing("slots", rows=rows)
    capacity = number_of(pres, spec.capacity, players)
    keys: list[str | None]
    if isinstance(value, Mapping):
        keys = []
        for key, n in value.items():
            if isinstance(n, int) and not isinstance(n, bool):
                keys.extend([str(key)] * n)
    elif isinstance(value, list):
        keys = [_piece_key(v) for v in value]
    elif isinstance(value, int) and not isinstance(value, bool):
        keys = [None] * value
    else:
        return None
    filled = [None if k is None else pres.card_face(k) for k in keys]
    named = any(k in pres.pieces for k in keys if k is not None)
    return Drawing("slots", rows=[Row("", None, capacity, filled, named)])
