"""The ``presentation:`` section typed: how a ruleset looks to people (docs/serve.md). It
changes no rule; the web table and the terminal read it through ``table/presenter.py``.

>>> spec = DrawSpec.from_node("hand", "cards", Pos())
>>> spec.as_, spec.capacity
('cards', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import (
    dataclass,
    field,
    field as default_field,  # where a class has a `field` of its own
)

from interpreter.load.locate import is_map
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    items_of,
    key_pos,
    plain,
    seq_of,
    text,
    texts,
    value_at,
)

__all__ = [
    "ActSpec",
    "CardSpec",
    "CostDecl",
    "Discount",
    "DrawSpec",
    "GestureSpec",
    "OptionStyle",
    "PresentationSection",
    "ZoneDecl",
]


@dataclass(frozen=True, slots=True)
class ZoneDecl:
    """``zones:``: a titled group of global fields on the board."""

    title: str
    fields: tuple[str, ...]
    pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class Discount:
    """One ``because:`` of a ``cost:``: how much it takes off and its text (one text, or
    [one, many]), as written."""

    name: str
    amount: Plain = 0
    text: Plain = None
    path: TreePath = ()


@dataclass(frozen=True, slots=True)
class CostDecl:
    """An option family's ``cost:``, its effect-language texts as written (compiled by
    ``model/costs.py``): names for the deciding seat and the id's parts, the printed price
    (None: not written), what the seat pays, the unit, and the discounts in written order."""

    params: tuple[str, ...] = ("seat",)
    price: Plain = None
    pay: Plain = 0
    unit: Plain = None
    because: tuple[Discount, ...] = ()
    path: TreePath = ()

    @classmethod
    def from_node(cls, node: object, path: TreePath) -> CostDecl | None:
        if not is_map(node):
            return None
        reasons = node.get("because")
        return cls(
            tuple(str(p) for p in node.get("params") or ["seat"]),
            plain(node.get("price")),
            plain(node.get("pay", 0)),
            plain(node.get("unit")),
            tuple(
                Discount(
                    name,
                    plain(reason.get("amount", 0)) if is_map(reason) else 0,
                    plain(reason.get("text", name)) if is_map(reason) else name,
                    (*path, "because", name),
                )
                for name, reason in items_of(reasons)
            ),
            path,
        )


@dataclass(frozen=True, slots=True)
class OptionStyle:
    """``options: FAMILY:``: how a family's option ids read, and what its options cost."""

    family: str
    text: str | None = None  # "Buy {1}": {0} the family, {1}... the id's parts, in words
    detail: str | None = None  # filled with the first named catalog entry's attributes
    group: str | None = None  # the heading the options are listed under
    preview: tuple[tuple[str, str], ...] = ()  # (field, "you get {gain}|...") in order
    pos: Pos = NOWHERE
    cost: CostDecl | None = None  # None: none written

    @classmethod
    def from_node(cls, family: str, node: object, pos: Pos) -> OptionStyle:
        if not is_map(node):
            return cls(family, pos=pos)

        def optional(key: str) -> str | None:
            value = node.get(key)
            return None if value is None else str(value)

        return cls(
            family,
            optional("text"),
            optional("detail"),
            optional("group"),
            tuple(texts(node.get("preview")).items()),
            pos,
            CostDecl.from_node(node.get("cost"), ("presentation", "options", family, "cost")),
        )


@dataclass(frozen=True, slots=True)
class DrawSpec:
    """``draw: FIELD:``: one field drawn as a generic component (``as_``). A number of a spec
    (``spaces``, ``capacity``, ``max``, ``width``) is a number, a table's name or (per piece) an
    attribute's name."""

    field: str
    as_: str
    spaces: Plain = None
    width: str | None = None
    capacity: Plain = None
    occupants: tuple[str, ...] = ()
    marked: str | None = None
    fill: str | None = None
    content: str | None = None
    max: Plain = None
    table: str | None = None
    pos: Pos = NOWHERE
    # where each part written was written (its value): "spaces", ..., "occupants/0", ...
    places: Mapping[str, Pos] = default_field(default_factory=empty_map)

    @classmethod
    def from_node(cls, name: str, node: object, pos: Pos) -> DrawSpec:
        if not is_map(node):  # `first: seat` is short for `first: {as: seat}`
            return cls(name, text(node), pos=pos)

        def name_of(key: str) -> str | None:
            value = node.get(key)
            return None if value is None else str(value)

        return cls(
            name,
            text(node.get("as")),
            plain(node.get("spaces")),
            name_of("width"),
            plain(node.get("capacity")),
            tuple(str(o) for o in seq_of(node.get("occupants"))),
            name_of("marked"),
            name_of("fill"),
            name_of("content"),
            plain(node.get("max")),
            name_of("table"),
            pos,
            _places(node),
        )


def _places(node: Mapping[object, object]) -> Mapping[str, Pos]:
    """Where each part of a map was written (a list's items as ``part/index``)."""
    found: dict[str, Pos] = {}
    for key, value in node.items():
        found[str(key)] = value_at(node, key)
        found.update({f"{key}/{i}": value_at(value, i) for i in range(len(seq_of(value)))})
    return frozen_map(found)


@dataclass(frozen=True, slots=True)
class CardSpec:
    """``cards: CATALOG:``: the attributes a card face shows as cost, VP and kind."""

    catalog: str
    cost: str = "cost"
    vp: str = "vp"
    kind: str | None = None
    pos: Pos = NOWHERE
    # the parts written, in order, each with the attribute it names and where that was written
    written: tuple[tuple[str, str, Pos], ...] = ()

    def attribute(self, part: str) -> str | None:
        """The attribute shown as ``part`` ("cost", "vp" or "kind")."""
        return {"cost": self.cost, "vp": self.vp, "kind": self.kind}.get(part)

    @classmethod
    def from_node(cls, catalog: str, node: object, pos: Pos) -> CardSpec:
        spec = texts(node)
        written = tuple(
            (str(k), str(v), value_at(node, k)) for k, v in (node.items() if is_map(node) else ())
        )
        return cls(
            catalog,
            spec.get("cost", "cost"),
            spec.get("vp", "vp"),
            spec.get("kind"),
            pos,
            written,
        )


@dataclass(frozen=True, slots=True)
class GestureSpec:
    """``gestures: STEP:``: a run of one choose step's decisions offered as one gesture."""

    step: str
    kind: str = "select"  # "assign" or "select"
    text: str | None = None
    about: str | None = None  # a field named in the text as {about}
    confirm: str = "Confirm"
    pos: Pos = NOWHERE
    about_pos: Pos = NOWHERE  # where the `about:` field's name was written

    @classmethod
    def from_node(cls, step: str, node: object, pos: Pos) -> GestureSpec:
        spec = texts(node)
        return cls(
            step,
            spec.get("kind") or "select",
            spec.get("text") or None,
            spec.get("about"),
            spec.get("confirm") or "Confirm",
            pos,
            value_at(node, "about") if "about" in spec else NOWHERE,
        )


@dataclass(frozen=True, slots=True)
class ActSpec:
    """``acts: FAMILY: {field, part}``: the drawn thing of ``field`` an option of the family
    stands for, keyed by the option id's part ``part`` (1: the first after the family); a
    field's name alone means part 1."""

    family: str
    field: str
    part: int
    pos: Pos
    short: bool = False  # written as the field's name alone
    field_pos: Pos = NOWHERE  # where the field's name was written
    part_pos: Pos = NOWHERE  # where the part was written (the family's key when it was not)

    @classmethod
    def from_node(cls, family: str, node: object, pos: Pos, value: Pos = NOWHERE) -> ActSpec:
        """``value``: where the entry's value was written (the field's name, when short)."""
        if is_map(node):
            part = node.get("part")
            whole = isinstance(part, int) and not isinstance(part, bool)
            return cls(
                family,
                text(node.get("field")),
                part if whole and part else 1,
                pos,
                False,
                value_at(node, "field") if "field" in node else pos,
                value_at(node, "part") if "part" in node else pos,
            )
        return cls(family, text(node), 1, pos, True, value, value)


@dataclass(frozen=True, slots=True)
class PresentationSection:
    """The whole ``presentation:`` section, every part defaulted when absent."""

    labels: Mapping[str, str] = field(default_factory=empty_map)
    docs: Mapping[str, str] = field(default_factory=empty_map)  # on one line each
    icons: Mapping[str, str] = field(default_factory=empty_map)
    colours: Mapping[str, str] = field(default_factory=empty_map)
    internal: frozenset[str] = frozenset()
    zones: tuple[ZoneDecl, ...] = ()
    options: Mapping[str, OptionStyle] = field(default_factory=empty_map)
    draw: Mapping[str, DrawSpec] = field(default_factory=empty_map)
    cards: Mapping[str, CardSpec] = field(default_factory=empty_map)
    gestures: Mapping[str, GestureSpec] = field(default_factory=empty_map)
    # a choose step's name -> (the answer in advance a seat starts with, where it is written)
    answers: Mapping[str, tuple[str, Pos]] = field(default_factory=empty_map)
    ends: Mapping[str, str] = field(default_factory=empty_map)
    counts: Mapping[str, tuple[str, ...]] = field(
        default_factory=empty_map
    )  # bag field -> (one, many)
    acts: Mapping[str, ActSpec] = field(default_factory=empty_map)
    pos: Pos = NOWHERE

    @classmethod
    def from_node(cls, node: object, pos: Pos) -> PresentationSection:
        if not is_map(node):
            return cls(pos=pos)

        def part(key: str) -> list[tuple[str, object, Pos]]:
            found = node.get(key)
            return [(k, v, key_pos(found, k)) for k, v in items_of(found)]

        zones = node.get("zones")
        return cls(
            labels=frozen_map(texts(node.get("labels"))),
            docs=frozen_map({k: " ".join(v.split()) for k, v in texts(node.get("docs")).items()}),
            icons=frozen_map(texts(node.get("icons"))),
            colours=frozen_map(texts(node.get("colours"))),
            internal=frozenset(
                [k for k, _ in items_of(node.get("internal"))]
                + [str(k) for k in seq_of(node.get("internal"))]
            ),
            zones=tuple(
                ZoneDecl(
                    text(z.get("title")),
                    tuple(str(f) for f in seq_of(z.get("fields"))),
                    key_pos(zones, i),
                )
                for i, z in enumerate(seq_of(zones))
                if is_map(z)
            ),
            options=frozen_map({k: OptionStyle.from_node(k, v, p) for k, v, p in part("options")}),
            draw=frozen_map({k: DrawSpec.from_node(k, v, p) for k, v, p in part("draw")}),
            cards=frozen_map({k: CardSpec.from_node(k, v, p) for k, v, p in part("cards")}),
            gestures=frozen_map(
                {k: GestureSpec.from_node(k, v, p) for k, v, p in part("gestures") if v}
            ),
            answers=frozen_map({k: (text(v), p) for k, v, p in part("answers")}),
            ends=frozen_map(texts(node.get("ends"))),
            counts=frozen_map({k: tuple(str(w) for w in seq_of(v)) for k, v, _ in part("counts")}),
            acts=frozen_map(
                {
                    k: ActSpec.from_node(k, v, p, value_at(node.get("acts"), k))
                    for k, v, p in part("acts")
                }
            ),
            pos=pos,
        )
