"""R008: a ``presentation:`` ``cards:`` or ``draw:`` that names nothing of the ruleset.

The board a person sees is drawn from these sections (table/field_drawing.py); a misspelt name there
would silently draw nothing, so ``rulebook validate`` finds it at its line and column, with a
did-you-mean among the names that would fit:

* ``cards: CATALOG: {cost: ATTR, vp: ATTR, kind: ATTR}``: a catalog, and attributes its entries
  (or defaults) have;
* ``draw: FIELD: ...``: a global or player state field; ``spaces:``/``max:`` a number or a
  table; ``capacity:`` a number, a table or an attribute of the field's catalog; ``width:`` an
  attribute of it; ``occupants:``/``marked:``/``fill:``/``content:`` fields of its pieces (the
  catalog's ``fields:``); ``table:`` a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from interpreter.check.verdicts import diagnostic_on
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.ruleset.nodes import NOWHERE, Pos
from interpreter.ruleset.presentation import CardSpec, DrawSpec
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import Catalog

__all__ = ["CODE", "drawing_faults"]

CODE = "R008"
_HOLDS = ("pile", "bag", "area")  # state field kinds that hold a catalog's entries


def _fields(ruleset: Ruleset) -> dict[str, str | None]:
    """Global and player state fields, each with the catalog it holds (None: none)."""
    out: dict[str, str | None] = {}
    for decl in ruleset.fields:  # the global ones first
        if out.get(decl.name) is None:
            out[decl.name] = decl.holds if decl.kind in _HOLDS and decl.holds else None
    return out


def drawing_faults(ruleset: Ruleset) -> list[Diagnostic]:
    """Every name in ``presentation: cards:`` and ``draw:`` that the ruleset does not have."""
    names = _Names(ruleset)
    for spec in ruleset.presentation.cards.values():
        names.cards(spec)
    for drawn in ruleset.presentation.draw.values():
        names.drawn(drawn)
    return names.out


class _Names:
    """What the presentation may name (catalogs, tables, state fields), and the faults found."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.catalogs = ruleset.catalogs
        self.tables = list(ruleset.tables)
        self.fields = _fields(ruleset)
        self.out: list[Diagnostic] = []

    def fault(
        self, where: Pos, path: Sequence[str | int], what: str, name: str, pool: Iterable[str]
    ) -> None:
        self.out.append(
            diagnostic_on(
                where,
                ["presentation", *path],
                CODE,
                f"{what} '{name}' does not exist",
                hint=hint_for(name, pool),
            )
        )

    def cards(self, spec: CardSpec) -> None:
        """``cards: CATALOG: {PART: ATTR}``: a catalog and attributes of its entries."""
        cat = spec.catalog
        if cat not in self.catalogs:
            self.fault(spec.pos, ["cards", cat], "catalog", cat, list(self.catalogs))
            return
        attrs = self.catalogs[cat].attributes
        for part, attr, where in spec.written:
            if attr not in attrs:
                self.fault(where, ["cards", cat, part], f"attribute of the {cat}", attr, attrs)

    def drawn(self, spec: DrawSpec) -> None:
        """``draw: FIELD: {...}``: a state field, and the tables, attributes and piece fields
        its drawing reads."""
        name = spec.field
        if name not in self.fields:
            self.fault(spec.pos, ["draw", name], "state field", name, list(self.fields))
            return
        held = self.fields[name]
        catalog = self.catalogs.get(held) if held else None
        attrs = catalog.attributes if catalog is not None else ()
        tables = self.tables
        at: list[str | int] = ["draw", name]

        def check(part: str, value: object, what: str, pool: Sequence[str]) -> None:
            if isinstance(value, str) and value not in pool:
                self.fault(spec.places.get(part, NOWHERE), [*at, part], what, value, pool)

        check("spaces", spec.spaces, "table", tables)
        check("max", spec.max, "table", tables)
        check("capacity", spec.capacity, "table or attribute", [*tables, *attrs])
        check("width", spec.width, f"attribute of the {held or 'field'}", attrs)
        check("table", spec.table, "table", tables)
        self._pieces(spec, at, held, catalog)

    def _pieces(
        self, spec: DrawSpec, at: list[str | int], held: str | None, catalog: Catalog | None
    ) -> None:
        """``occupants:``, ``fill:``, ``content:``, ``marked:``: fields of the held pieces."""
        pieces = catalog.piece_fields if catalog is not None else ()
        named: list[tuple[list[str | int], str, str | None]] = [
            (["occupants", i], f"occupants/{i}", v) for i, v in enumerate(spec.occupants)
        ]
        named += [([part], part, getattr(spec, part)) for part in ("fill", "content", "marked")]
        for path, place, value in named:
            if value is not None and value not in pieces:
                what = f"piece field of the {held or 'field'}"
                self.fault(spec.places.get(place, NOWHERE), [*at, *path], what, value, pieces)
