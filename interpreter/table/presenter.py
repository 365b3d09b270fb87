"""How a ruleset looks to people: labels, short texts, icons and colours, zones, internal fields,
and the human text of each option. Read from the optional ``presentation:`` section of the rule
files; without it everything still reads well, from the ids, the catalogs and their ``doc:`` texts.

The web table and the terminal both describe a seat's view through :meth:`Presentation.board`
(a plain :class:`Board` of zones, fields and chips), so the two show the same thing. A board is
built only from ``state.view(seat)``, never from the full state.

>>> p = Presentation.from_ruleset(Ruleset.from_data(
...     {"catalogs": {"things": {"entries": {"big-hat": {"cost": 2}}}},
...      "presentation": {"options": {"buy": {"text": "Buy {1}", "detail": "{cost} coins"}}}}))
>>> p.option_text("buy:big-hat")
'Buy Big hat — 2 coins'
>>> p.label("big-hat"), p.label("turn-order")
('Big hat', 'Turn order')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.model.may import pending_bags
from interpreter.model.words import doc_text, fill, label, option_words
from interpreter.ruleset.nodes import Plain
from interpreter.ruleset.presentation import CardSpec, DrawSpec, GestureSpec, OptionStyle
from interpreter.ruleset.ruleset import Ruleset
from interpreter.table.field_drawing import Drawing, Face, draw_field
from interpreter.table.shapes import OptionEntry

__all__ = ["Board", "Chip", "Face", "Field", "Presentation", "Zone"]

FIELDS_KEPT = 4096  # described fields kept per presentation (a table's game); then started anew


@dataclass
class Chip:
    """One shown thing: a text, the id it stands for (for an icon, colour, tooltip)."""

    text: str
    key: str | None = None
    count: int | None = None


@dataclass
class Field:
    """A state field for people: its name, label, chips (the words) and, where the ruleset's
    ``presentation: draw:`` asks for one, its drawing (table/field_drawing.py)."""

    name: str
    label: str
    chips: list[Chip]
    drawing: Drawing | None = None
    html: str | None = None  # its table row, once rendered (render.py); a Field is reused


@dataclass
class Zone:
    title: str
    fields: list[Field]
    seat: int | None = None


@dataclass
class Board:
    """What a seat sees, grouped for people: the shared zones, then one zone per seat."""

    round: int
    to_move: int | None
    zones: list[Zone]
    seats: list[Zone]


@dataclass
class Presentation:
    labels: dict[str, str] = field(default_factory=dict)
    docs: dict[str, str] = field(default_factory=dict)
    icons: dict[str, str] = field(default_factory=dict)
    colours: dict[str, str] = field(default_factory=dict)
    internal: set[str] = field(default_factory=set)
    zones: list[tuple[str, list[str]]] = field(default_factory=list)
    options: dict[str, OptionStyle] = field(default_factory=dict)
    pieces: dict[str, Mapping[str, Plain]] = field(default_factory=dict)  # entry -> attributes
    # ids that name a row of numbers in a table, as that row in words (a tile and its prices)
    rows: dict[str, str] = field(default_factory=dict)
    # the ruleset's tables (knobs a drawing reads), how each field is drawn, what a catalog's
    # card face shows (cost, vp, kind: attribute names), and each entry's catalog
    tables: dict[str, Plain] = field(default_factory=dict)
    draw: dict[str, DrawSpec] = field(default_factory=dict)
    cards: dict[str, CardSpec] = field(default_factory=dict)
    catalog_of: dict[str, str] = field(default_factory=dict)
    # a run of one choose step's decisions shown as one gesture, by the step's name
    # (table/gestures.py): {kind: assign | select, confirm: TEXT, about: FIELD}
    gestures: dict[str, GestureSpec] = field(default_factory=dict)
    # the score table's words: each component's label (``scoring: components: label:``), the
    # tiebreak's (``scoring: tiebreak-label:``), and how each end trigger reads (``ends:``)
    score_labels: dict[str, str] = field(default_factory=dict)
    tiebreak_label: str = "Tiebreak"
    ends: dict[str, str] = field(default_factory=dict)
    # a bag field whose counts are things of their own ("Market (3 coins)", not "Market ×3",
    # which reads as three Markets): field -> [one, many] (``presentation: counts:``)
    counts: dict[str, list[str]] = field(default_factory=dict)
    # the board element an option family stands for (``presentation: acts:``): family ->
    # [field, part]: the drawn thing of ``field`` whose key is the option id's part ``part``
    # (1: the first after the family); a click on it picks the option (static/acts.js)
    acts: dict[str, list[Any]] = field(default_factory=dict)
    # the fields already described, by (name, value, viewer where it matters, players): most
    # fields are unchanged from one move to the next, and describing and drawing them is most
    # of a table message's work. A Field depends on nothing else, so it is shared.
    _fields: dict[tuple[Any, ...], Field] = field(default_factory=dict, repr=False)
    # the ones kept before ``_fields`` last filled up: a field asked for again is taken back
    # from there, so the fields of the positions being played stay kept (emptying the whole
    # store at once made every table describe every field again, a fiftieth of its moves)
    _fields_before: dict[tuple[Any, ...], Field] = field(default_factory=dict, repr=False)
    # the options already worded, by (option, preview, cost): the same few come back at every
    # decision of a game, and wording one is most of listing it
    _options: dict[tuple[Any, ...], OptionEntry] = field(default_factory=dict, repr=False)
    # each catalog entry's card face (it depends on the entry alone; a drawing copies a face
    # it changes): a drawn grid shows every entry again whenever one of its spaces changes
    _faces: dict[str, Face] = field(default_factory=dict, repr=False)

    @classmethod
    def from_data(cls, data: object) -> Presentation:
        """A composed rule tree read through the typed :class:`Ruleset` (tests, tools); a kept
        parse's typed rules are the ones its game's load reads (``Ruleset.of``)."""
        return cls.from_ruleset(Ruleset.of(data))

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset) -> Presentation:
        """Read a loaded game's typed ruleset (catalogs, ``doc:`` texts, ``presentation:``)."""
        section = ruleset.presentation
        pres = cls(
            labels=dict(section.labels),
            icons=dict(section.icons),
            colours=dict(section.colours),
            # and the engine's own bookkeeping of the cards' `may:` offers
            internal=set(section.internal) | set(pending_bags(ruleset)),
            zones=[(z.title, list(z.fields)) for z in section.zones],
            options=dict(section.options),
            tables=ruleset.table_values(),
            cards=dict(section.cards),
            gestures=dict(section.gestures),
            ends=dict(section.ends),
            counts={k: list(v) for k, v in section.counts.items()},
            draw=dict(section.draw),
            acts={k: [a.field, a.part] for k, a in section.acts.items()},
        )
        for part in ruleset.scoring.components:
            pres.score_labels[part.name] = part.label
        pres.tiebreak_label = ruleset.scoring.tiebreak_label or pres.tiebreak_label
        pres.docs.update(section.docs)
        # an id naming a row of numbers in a table, with no text of its own, shows that row
        # on hover: a tile's printed numbers ("Tile 2: red 1, blue 2")
        for table in ruleset.tables.values():
            if not isinstance(table.value, dict):
                continue
            for key, row in table.value.items():
                if _numbers_row(key, row) and key not in pres.docs:
                    assert isinstance(row, dict)
                    cells = ", ".join(f"{pres.label(k).lower()} {v}" for k, v in row.items())
                    pres.rows[key] = pres.docs[key] = f"{pres.label(key)}: {cells}"
        for catalog in ruleset.catalogs.values():
            for entry in catalog.entries.values():
                pres.pieces[entry.id] = entry.attrs
                pres.catalog_of[entry.id] = catalog.name
                if entry.doc is not None:
                    pres.docs.setdefault(entry.id, doc_text(entry.doc, pres.tables))
        return pres

    # -- words ---------------------------------------------------------------------------
    def label(self, key: object) -> str:
        """The human name of an id: the declared label, else the id in words."""
        return label(key, self.labels)

    def doc(self, key: object) -> str:
        return self.docs.get(str(key), "")

    def score_label(self, component: str) -> str:
        """A score component as a score table's header reads it."""
        return self.score_labels.get(component) or self.label(component)

    def end_text(self, trigger: object) -> str:
        """Why the game ended, in words (``presentation: ends:``), else the trigger's label."""
        return (self.ends.get(str(trigger)) or self.label(trigger)) if trigger else ""

    def option_family(self, option: str) -> str:
        return option.split(":", 1)[0]

    def option_text(
        self, option: str, preview: Mapping[str, int] | None = None, cost: str | None = None
    ) -> str:
        """The human text of an option id: ``Buy Big hat — 2 coins, you pay 1 with 1 card``.

        ``preview`` holds how the deciding seat's fields named by the family's ``preview:`` would
        change if it took the option (see :meth:`preview_fields`); ``cost`` is what the option
        costs that seat, in words (the family's ``cost:``, table/option_costs.py), said first.
        """
        family, *args = option.split(":")
        spec = self.options.get(family) or OptionStyle(family)
        text = option_words(option, self.labels, self.options)[0]
        details: list[str] = [cost] if cost else []
        piece = next((self.pieces[a] for a in args if a in self.pieces), None)
        if spec.detail and piece is not None:
            attrs = {k: str(v) for k, v in piece.items() if not isinstance(v, (dict, list))}
            details.append(fill(spec.detail, attrs))
        for name, template in spec.preview:
            if preview is not None and name in preview:
                delta = preview[name]
                # "one|many": "you get 1 card", "you get 2 cards"
                one, _, many = str(template).partition("|")
                template = one if abs(delta) == 1 or not many else many
                if delta == 0 and ("{gain}" in str(template) or "{what}" in str(template)):
                    continue  # "you get 0" says nothing; "you pay 0" does
                # a bag's kinds that changed: "2 Copper, 1 Tin" (preview_changes)
                what = ", ".join(
                    f"{d} {self.label(key.partition('/')[2])}"
                    for key, d in preview.items()
                    if key.startswith(f"{name}/")
                )
                values = {"gain": str(delta), "loss": str(-delta), "what": what}
                details.append(fill(str(template), values))
        if not details:
            return text
        # the cost reads "2 coins, you pay 1 with ..."; what follows it is set apart
        head = "; ".join([details[0], ", ".join(details[1:])]) if cost else ", ".join(details)
        return f"{text} — {head.removesuffix('; ')}"

    def option_entry(
        self, option: str, preview: Mapping[str, int] | None = None, cost: str | None = None
    ) -> OptionEntry:
        """An option as a table message lists it: id, text (:meth:`option_text`), family,
        group and tooltip; a new dict each time (worded once, then kept)."""
        key = (option, None if preview is None else tuple(preview.items()), cost)
        known = self._options.get(key)
        if known is None:
            if len(self._options) >= FIELDS_KEPT:
                self._options.clear()
            known = self._options[key] = {
                "id": option,
                "text": self.option_text(option, preview, cost),
                "family": self.option_family(option),
                "group": self.option_group(option),
                "doc": self.option_doc(option),
            }
        return known.copy()

    def option_group(self, option: str) -> str:
        """The heading an option is listed under: its family's ``group``, else its label."""
        family = self.option_family(option)
        spec = self.options.get(family)
        return (spec.group if spec is not None else None) or self.label(family)

    def preview_fields(self, option: str) -> list[str]:
        spec = self.options.get(self.option_family(option))
        return [name for name, _ in spec.preview] if spec is not None else []

    def option_doc(self, option: str) -> str:
        """The ``doc:`` text of the first catalog entry an option names (a tooltip)."""
        for arg in option.split(":")[1:]:
            if self.doc(arg):
                return self.doc(arg)
        return ""

    # -- card faces ------------------------------------------------------------------------
    def card_face(self, key: str) -> Face:
        """A catalog entry as a card: its name, cost, VP and kind (the attributes its catalog
        names under ``presentation: cards:``, else those called ``cost`` and ``vp``), colour,
        icon and ``doc:`` text. The web table draws it; the terminal's ``? NAME`` prints it."""
        face = self._faces.get(key)
        if face is None:
            face = self._faces[key] = self._face(key)
        return face

    def _face(self, key: str) -> Face:
        piece = self.pieces.get(key) or {}
        catalog = self.catalog_of.get(key, "")
        spec = self.cards.get(catalog) or CardSpec(catalog)

        def attr(part: str) -> Any:
            name = spec.attribute(part)
            value = piece.get(name) if name else None
            return None if value in (None, "none") or isinstance(value, (Mapping, list)) else value

        icon, colour = self.style_of(key)
        kind = attr("kind")
        return Face(
            key,
            self.label(key),
            cost=attr("cost"),
            vp=attr("vp"),
            kind=self.label(kind) if isinstance(kind, str) else "",
            colour=colour,
            icon=icon,
            doc=self.doc(key),
        )

    def face_words(self, face: Face) -> str:
        """A card face's numbers in words: ``Cost 2 · VP 1 · Violet``."""
        parts = [] if face.cost is None else [f"Cost {face.cost}"]
        parts += [] if face.vp is None else [f"VP {face.vp}"]
        parts += [face.kind] if face.kind else []
        return " · ".join(parts)

    # -- the board -------------------------------------------------------------------------
    def board(self, view: Mapping[str, Any]) -> Board:
        """Group a seat's view into zones of fields, internal fields left out."""
        viewer = view.get("seat")
        players = len(view.get("players", []))
        zones = [
            zone
            for title, values in self.shared_groups(view.get("global", {}))
            if (zone := self.zone(title, values, viewer, players)).fields
        ]
        seats = [
            self.zone(f"Seat {seat}", values, viewer, players, seat)
            for seat, values in self.seat_groups(view.get("players", []))
        ]
        return Board(int(view.get("round", 0)), view.get("to_move"), zones, seats)

    def shared_groups(self, shared: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The shared fields of a view by zone, each zone's in its order (internal fields left
        out, the fields no zone names last, under "Table"); a zone may be empty."""
        left = {k: v for k, v in shared.items() if k not in self.internal}
        groups = [
            (title, {n: left.pop(n) for n in names if n in left}) for title, names in self.zones
        ]
        if left:
            groups.append(("Table", left))
        return groups

    def seat_groups(self, players: list[Mapping[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
        """Each seat's number and its fields (internal fields left out), in the view's order."""
        groups: list[tuple[int, dict[str, Any]]] = []
        for player in players:
            seat = int(player.get("seat", len(groups)))
            values = {n: v for n, v in player.items() if n != "seat" and n not in self.internal}
            groups.append((seat, values))
        return groups

    def zone(
        self,
        title: str,
        values: Mapping[str, Any],
        viewer: Any,
        players: int,
        seat: int | None = None,
    ) -> Zone:
        """One zone of fields, each described as ``viewer`` reads it."""
        return Zone(title, [self._field(n, v, viewer, players) for n, v in values.items()], seat)

    def _field(self, name: str, value: Any, viewer: Any = None, players: int = 0) -> Field:
        spec = self.draw.get(name)
        # repr is exact for the plain values of a view (numbers, texts, lists, dicts), and it
        # costs a fraction of describing them; the viewer only changes a field holding a seat
        seat_field = spec is not None and spec.as_ == "seat"
        key = (name, repr(value), viewer if seat_field else None, players)
        known = self._fields.get(key)
        if known is None:
            known = self._fields_before.get(key)
            if known is None:
                known = self._describe(name, spec, value, viewer, players)
            if len(self._fields) >= FIELDS_KEPT:
                self._fields_before = self._fields
                self._fields = {}
            self._fields[key] = known
        return known

    def _describe(
        self, name: str, spec: DrawSpec | None, value: Any, viewer: Any, players: int
    ) -> Field:
        if name in self.counts and isinstance(value, Mapping) and value.get("hidden") is not True:
            return Field(name, self.label(name), self._counted(name, value))
        if spec is None:
            return Field(name, self.label(name), self.chips(value))
        if spec.as_ == "seat" and isinstance(value, int) and not isinstance(value, bool):
            # a field holding a seat number reads as that seat
            return Field(
                name, self.label(name), [Chip("you" if value == viewer else f"Seat {value}")]
            )
        drawing = draw_field(self, spec, value, players)
        return Field(name, self.label(name), self.chips(value), drawing)

    def _counted(self, name: str, value: Mapping[str, Any]) -> list[Chip]:
        """A bag of ``counts:`` as each kind with its count in words: "Market (3 coins)"."""
        one, many = (self.counts[name] + self.counts[name])[:2]
        return [
            Chip(f"{self.label(k)} ({v} {one if v == 1 else many})", str(k), v)
            for k, v in value.items()
            if v not in (0, None, False)
        ]

    def chips(self, value: Any) -> list[Chip]:
        """A value as chips: a bag as kinds with counts, a pile grouped, pieces with fields."""
        if isinstance(value, Mapping):
            if value.get("hidden") is True:
                count = value.get("count")
                return [Chip("hidden" if count is None else f"{count} hidden", count=count)]
            return [
                Chip(f"{self.label(k)} ×{v}" if v != 1 else self.label(k), str(k), v)
                for k, v in value.items()
                if v not in (0, None, False)
            ]
        if isinstance(value, list):
            chips: list[Chip] = []
            counts: dict[str, int] = {}
            for item in value:
                if isinstance(item, Mapping):
                    chips.append(self._piece_chip(item))
                else:
                    counts[str(item)] = counts.get(str(item), 0) + 1
            for key, n in counts.items():
                chips.append(Chip(self.label(key) + (f" ×{n}" if n > 1 else ""), key, n))
            return chips
        if value is None:
            return []
        if isinstance(value, str):  # an id (a tile, a kind): its name, a tile its numbers
            return [Chip(self.rows.get(value) or self.label(value), value)]
        return [Chip(str(value))]

    def _piece_chip(self, piece: Mapping[str, Any]) -> Chip:
        kind = str(piece.get("type", "?"))
        extra = [
            f"{self.label(k).lower()} {self.label(v).lower() if isinstance(v, str) else v}"
            for k, v in piece.items()
            if k != "type" and k not in self.internal and v not in (None, 0)
        ]
        text = self.label(kind) + (f" ({', '.join(extra)})" if extra else "")
        return Chip(text, kind)

    def style_of(self, key: str | None) -> tuple[str, str]:
        """(icon, colour) of an id or of the kind/good a catalog entry names."""
        if key is None:
            return "", ""
        icon, colour = self.icons.get(key, ""), self.colours.get(key, "")
        piece = self.pieces.get(key) or {}
        for attr in piece.values():
            if isinstance(attr, str):
                icon = icon or self.icons.get(attr, "")
                colour = colour or self.colours.get(attr, "")
        return icon, colour


def _numbers_row(key: Any, row: Any) -> bool:
    return (
        isinstance(key, str)
        and not key.isdigit()
        and isinstance(row, Mapping)
        and bool(row)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in row.values())
    )


def preview_changes(
    before: Mapping[str, Any], after: Mapping[str, Any], names: Sequence[str]
) -> dict[str, int]:
    """How each named field changed between two views of one seat's player entry: a number by
    its value, a pile by its size (cards drawn into a hand), a hidden pile by its count, a bag
    by its total and, under ``NAME/KIND``, each kind of it that changed."""
    out = {}
    for name in names:
        was, now = before.get(name), after.get(name)
        if (
            isinstance(was, Mapping)
            and isinstance(now, Mapping)
            and _numbers_row(name, was)
            and _numbers_row(name, now)
        ):
            kinds = {**was, **now}
            changed = {k: now.get(k, 0) - was.get(k, 0) for k in kinds}
            out[name] = sum(changed.values())
            out.update((f"{name}/{k}", d) for k, d in changed.items() if d)
            continue
        a, b = _amount(was), _amount(now)
        if a is not None and b is not None:
            out[name] = b - a
    return out


def _amount(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, list):
        return len(value)
    if isinstance(value, Mapping) and isinstance(value.get("count"), int):
        return int(value["count"])
    return None
