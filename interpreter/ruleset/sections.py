"""The declarations besides the header: catalogs and their entries, tables, state fields, and
the ``scoring:`` section. Each is a frozen object with its :class:`Pos`; what a rule text reads
of them (an entry's attributes, a table, a field's start value) is there as a :data:`Value`,
and the texts ``model/`` compiles (a catalog's ``active:``, a score component's ``value:``) as
written, with the path the compiler reports them at.

>>> cat = Catalog.from_node("things", {"defaults": {"cost": 1}, "entries": {"hat": {"vp": 2}}})
>>> cat.entries["hat"].attrs["cost"], cat.entries["hat"].attrs["vp"]
(1, 2)
>>> dict(cat.entries["hat"].values)
{'cost': 1, 'vp': 2, 'catalog': 'things'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from interpreter.load.locate import is_map, is_seq
from interpreter.ruleset.nodes import (
    NOWHERE,
    Places,
    Plain,
    Pos,
    TreePath,
    Value,
    empty_map,
    frozen_map,
    items_of,
    key_pos,
    plain,
    rule_value,
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
# an entry's keys that are no attributes: its hooks, its grants, its card text
_NOT_ATTRIBUTES = ("on", "grants", "doc")


@dataclass(frozen=True, slots=True)
class Entry:
    """A catalog entry: its static attributes (the catalog's ``defaults`` under its own) and
    its ``doc:`` text; ``values``, the attributes as a rule text reads them (with ``catalog``,
    the catalog's name, which the engine supplies), and what it ``grants:`` its owner."""

    id: str
    catalog: str
    attrs: Mapping[str, Plain]
    doc: str | None = None
    pos: Pos = NOWHERE
    values: Mapping[str, Value] = field(default_factory=empty_map)
    grants: Mapping[str, Plain] = field(default_factory=empty_map)  # ability -> amount
    # the keys written on the entry itself, in order (`attrs` adds the catalog's defaults)
    keys: tuple[str, ...] = ()
    node: object = field(default=None, repr=False, compare=False)  # for `places` alone

    @property
    def places(self) -> Places:
        """Where the entry's keys and values were written (found when asked)."""
        return Places(self.node)


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
    # `fields:` with the start value of each, as a rule text reads it
    piece_starts: Mapping[str, Value] = field(default_factory=empty_map)
    active: Plain = None  # `active:`, when a piece of it counts (None: none written)
    held_by: Plain = None  # `held-by:`, the seat holding an entry `self` (None: none written)
    path: TreePath = ()
    defaults: Mapping[str, Plain] = field(default_factory=empty_map)  # `defaults:`
    # `attributes:`: the type declared for each attribute named there, as written
    declared: Mapping[str, Plain] = field(default_factory=empty_map)
    # `fields:` with the start value of each as written (`none` a word, null no value)
    piece_written: Mapping[str, Plain] = field(default_factory=empty_map)
    node: object = field(default=None, repr=False, compare=False)  # for `places` alone

    @property
    def places(self) -> Places:
        """Where the catalog's keys and values were written (found when asked)."""
        return Places(self.node)

    @classmethod
    def from_node(cls, name: str, node: object, pos: Pos = NOWHERE) -> Catalog:
        path: TreePath = ("catalogs", name)
        if not is_map(node):
            return cls(name, frozen_map({}), pos=pos, path=path)
        defaults = node.get("defaults")
        found = plain(defaults)
        base = found if isinstance(found, dict) else {}
        read = rule_value(defaults) if is_map(defaults) else {}
        read_base = read if isinstance(read, dict) else {}
        listed = node.get("entries")
        entries: dict[str, Entry] = {}
        may = False
        for eid, attrs in items_of(listed):
            own = plain(attrs) if is_map(attrs) else {}
            merged: dict[str, Plain] = {**base, **own} if isinstance(own, dict) else dict(base)
            doc = merged.get("doc")
            values = dict(read_base)
            for k, v in items_of(attrs):
                if k not in _NOT_ATTRIBUTES:
                    values[k] = rule_value(v)
            values["catalog"] = name
            hooks = attrs.get("on") if is_map(attrs) else None
            entries[eid] = Entry(
                eid,
                name,
                frozen_map(merged),
                doc if isinstance(doc, str) else None,
                key_pos(listed, eid),
                frozen_map(values),
                frozen_map(
                    {k: plain(v) for k, v in items_of(attrs.get("grants"))} if is_map(attrs) else {}
                ),
                tuple(own) if isinstance(own, dict) else (),
                attrs,
            )
            may = may or any(is_map(h) and is_map(h.get("may")) for _, h in items_of(hooks))
        attributes = [k for k, _ in items_of(defaults)]
        for _, attrs in items_of(listed):
            attributes.extend(k for k, _ in items_of(attrs) if k not in attributes)
        pieces = node.get("fields")
        starts = rule_value(pieces) if is_map(pieces) else {}
        return cls(
            name,
            frozen_map(entries),
            may,
            pos,
            tuple(attributes),
            tuple(k for k, _ in items_of(pieces)),
            frozen_map(starts if isinstance(starts, dict) else {}),
            plain(node.get("active")),
            plain(node.get("held-by")),
            path,
            MappingProxyType(base),
            _written(node.get("attributes")),
            _written(pieces),
            node,
        )


def _written(node: object) -> Mapping[str, Plain]:
    """A map of the tree as plain values (keys as text); none when it is not a map."""
    found = plain(node) if is_map(node) else None
    return MappingProxyType(found) if isinstance(found, dict) else empty_map()


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
    constant: Value = None  # the value as a rule text reads it (`name[key]`)
    # the `tables:` map holding it, for `places` alone
    holder: object = field(default=None, repr=False, compare=False)

    @property
    def places(self) -> Places:
        """Where the table's keys and values were written (found when asked): ``value()``
        where its value was, ``key(KEY)`` where one of its keys was."""
        return Places(self.holder, (self.name,))

    @classmethod
    def from_node(
        cls, name: str, node: object, pos: Pos, path: TreePath, holder: object = None
    ) -> Table:
        lists: list[TableList] = []
        _lists_in(node, path, lists)
        return cls(name, plain(node), pos, tuple(lists), rule_value(node), holder)

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
    holds, and the global counter a counter is stocked from (``stock:``); a counter's or a
    value's start value and a counter's range as a rule text reads them, how long it lives
    (``scope:``: the game, a phase, a round), and whom it is hidden from."""

    scope: str  # "global" or "player"
    name: str
    kind: str  # one of FIELD_KINDS ("" when it names none)
    holds: str | None = None
    stock: str | None = None
    pos: Pos = NOWHERE
    start: Value = None  # a counter's or a value's start value
    low: Value = 0  # a counter's `min:` (None: no floor)
    high: Value = None  # a counter's `max:` (None: none)
    lasts: str = "game"  # its `scope:`
    hidden: bool = False  # from the other seats
    hidden_all: bool = False  # `hidden: all`: not even a pile's size is shown
    path: TreePath = ()

    @classmethod
    def from_node(cls, scope: str, name: str, node: object, pos: Pos) -> FieldDecl:
        path: TreePath = ("state", scope, name)
        if not is_map(node):
            return cls(scope, name, "", pos=pos, path=path)
        kind = next((k for k in FIELD_KINDS if k in node), "")
        holds = text(node.get(kind)) if kind in ("bag", "pile", "area") else None
        stock = node.get("stock") if kind == "counter" else None
        counted = kind == "counter"
        hidden = node.get("hidden")
        return cls(
            scope,
            name,
            kind,
            holds,
            None if stock is None else str(stock),
            pos,
            rule_value(node[kind]) if kind in ("counter", "value") else None,
            rule_value(node.get("min", 0)) if counted else 0,
            rule_value(node.get("max")) if counted else None,
            str(node.get("scope", "game")),
            bool(hidden),
            hidden == "all",
            path,
        )


@dataclass(frozen=True, slots=True)
class ScoreComponent:
    name: str
    label: str  # "" when it has none (the name in words is shown)
    pos: Pos = NOWHERE
    value: Plain = "0"  # `value:`, the points of the seat `p`, as written
    path: TreePath = ()


@dataclass(frozen=True, slots=True)
class ScoringWords:
    """The ``scoring:`` section: what the score table says (each component's label and the
    tiebreak's), and the texts that count: ``before:`` (statements run before counting), each
    component's ``value:`` and the ``tiebreak:`` expressions, in the order applied."""

    components: tuple[ScoreComponent, ...] = ()
    tiebreak_label: str | None = None
    pos: Pos = NOWHERE
    before: Plain = None  # None: none written
    tiebreaks: tuple[Plain, ...] = ()
    # `tiebreak:` written as a list (each then at its index under `tiebreak`)
    tiebreak_list: bool = False

    @classmethod
    def from_node(cls, node: object, pos: Pos) -> ScoringWords:
        if not is_map(node):
            return cls(pos=pos)
        parts = node.get("components")
        components = tuple(
            ScoreComponent(
                text(part.get("name")),
                text(part.get("label")),
                key_pos(parts, i),
                plain(part.get("value", "0")),
                ("scoring", "components", i, "value"),
            )
            for i, part in enumerate(seq_of(parts))
            if is_map(part) and part.get("name")
        )
        label = node.get("tiebreak-label")
        tiebreak = node.get("tiebreak")
        listed = isinstance(tiebreak, list)
        written: Sequence[object] = (
            tiebreak if isinstance(tiebreak, list) else () if tiebreak is None else (tiebreak,)
        )
        return cls(
            components,
            str(label) if label else None,
            pos,
            plain(node.get("before")),
            tuple(plain(t) for t in written),
            listed,
        )
