"""The declarations a driver reads besides the header: catalogs and their entries, tables,
state fields, and the score table's words. Each is a frozen object with its :class:`Pos`.

>>> cat = Catalog.from_node("things", {"defaults": {"cost": 1}, "entries": {"hat": {"vp": 2}}})
>>> cat.entries["hat"].attrs["cost"], cat.entries["hat"].attrs["vp"]
(1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from interpreter.load.locate import is_map, is_seq
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    TreePath,
    frozen_map,
    items_of,
    key_pos,
    plain,
    seq_of,
    text,
    value_at,
)

__all__ = [
    "FIELD_KINDS",
    "Catalog",
    "Entry",
    "FieldDecl",
    "ScoreComponent",
    "ScoringWords",
    "Table",
    "TableList",
]

FIELD_KINDS = ("counter", "value", "bag", "pile", "area")


@dataclass(frozen=True, slots=True)
class Entry:
    """A catalog entry: its static attributes (the catalog's ``defaults`` under its own) and
    its ``doc:`` text."""

    id: str
    catalog: str
    attrs: Mapping[str, Plain]
    doc: str | None = None
    pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class Catalog:
    """A catalog of pieces: its entries in declared order, and whether any entry has a
    ``may:`` hook (whose offers the engine keeps in a bag of its own, ``model/may.py``)."""

    name: str
    entries: Mapping[str, Entry]
    offers_may: bool = False
    pos: Pos = NOWHERE
    # every attribute its entries have, the defaults' first, then each entry's new ones
    attributes: tuple[str, ...] = ()
    piece_fields: tuple[str, ...] = ()  # `fields:`: what each piece of it holds in play

    @classmethod
    def from_node(cls, name: str, node: object, pos: Pos = NOWHERE) -> Catalog:
        if not is_map(node):
            return cls(name, frozen_map({}), pos=pos)
        defaults = node.get("defaults")
        found = plain(defaults)
        base = found if isinstance(found, dict) else {}
        listed = node.get("entries")
        entries: dict[str, Entry] = {}
        may = False
        for eid, attrs in items_of(listed):
            own = plain(attrs) if is_map(attrs) else {}
            merged: dict[str, Plain] = {**base, **own} if isinstance(own, dict) else dict(base)
            doc = merged.get("doc")
            entries[eid] = Entry(
                eid,
                name,
                frozen_map(merged),
                doc if isinstance(doc, str) else None,
                key_pos(listed, eid),
            )
            hooks = attrs.get("on") if is_map(attrs) else None
            may = may or any(is_map(h) and is_map(h.get("may")) for _, h in items_of(hooks))
        attributes = [k for k, _ in items_of(defaults)]
        for _, attrs in items_of(listed):
            attributes.extend(k for k, _ in items_of(attrs) if k not in attributes)
        pieces = tuple(k for k, _ in items_of(node.get("fields")))
        return cls(name, frozen_map(entries), may, pos, tuple(attributes), pieces)


@dataclass(frozen=True, slots=True)
class TableList:
    """A list written in a table (at any depth): its text items, each where it was written
    (what a check of the ids a table lists reports at)."""

    path: TreePath
    items: tuple[tuple[int, str, Pos], ...]  # (index, text, where), text items only


@dataclass(frozen=True, slots=True)
class Table:
    """A ``tables:`` entry: one value, a row by id, or a value by player count."""

    name: str
    value: Plain
    pos: Pos = NOWHERE
    lists: tuple[TableList, ...] = ()  # every list in it, outermost first

    @classmethod
    def from_node(cls, name: str, node: object, pos: Pos, path: TreePath) -> Table:
        lists: list[TableList] = []
        _lists_in(node, path, lists)
        return cls(name, plain(node), pos, tuple(lists))

    def at(self, players: int) -> Plain:
        """The value at a player count where the table is by count, else the whole value."""
        if isinstance(self.value, dict):
            return self.value.get(str(players))
        return self.value


def _lists_in(node: object, path: TreePath, out: list[TableList]) -> None:
    if is_map(node):
        for k, v in node.items():
            _lists_in(v, (*path, k), out)
    elif is_seq(node):
        out.append(
            TableList(
                path,
                tuple(
                    (i, item, value_at(node, i))
                    for i, item in enumerate(node)
                    if isinstance(item, str)
                ),
            )
        )
        for i, item in enumerate(node):
            if not isinstance(item, str):
                _lists_in(item, (*path, i), out)


@dataclass(frozen=True, slots=True)
class FieldDecl:
    """A ``state:`` field: global or per seat, its kind, the set or catalog a bag, pile or area
    holds, and the global counter a counter is stocked from (``stock:``)."""

    scope: str  # "global" or "player"
    name: str
    kind: str  # one of FIELD_KINDS ("" when it names none)
    holds: str | None = None
    stock: str | None = None
    pos: Pos = NOWHERE

    @classmethod
    def from_node(cls, scope: str, name: str, node: object, pos: Pos) -> FieldDecl:
        if not is_map(node):
            return cls(scope, name, "", pos=pos)
        kind = next((k for k in FIELD_KINDS if k in node), "")
        holds = text(node.get(kind)) if kind in ("bag", "pile", "area") else None
        stock = node.get("stock") if kind == "counter" else None
        return cls(scope, name, kind, holds, None if stock is None else str(stock), pos)


@dataclass(frozen=True, slots=True)
class ScoreComponent:
    name: str
    label: str  # "" when it has none (the name in words is shown)
    pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class ScoringWords:
    """What the score table says: each component's label and the tiebreak's."""

    components: tuple[ScoreComponent, ...] = ()
    tiebreak_label: str | None = None
    pos: Pos = NOWHERE

    @classmethod
    def from_node(cls, node: object, pos: Pos) -> ScoringWords:
        if not is_map(node):
            return cls(pos=pos)
        parts = node.get("components")
        components = tuple(
            ScoreComponent(text(part.get("name")), text(part.get("label")), key_pos(parts, i))
            for i, part in enumerate(seq_of(parts))
            if is_map(part) and part.get("name")
        )
        label = node.get("tiebreak-label")
        return cls(components, str(label) if label else None, pos)
