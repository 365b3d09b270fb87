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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from interpreter.check.verdicts import diagnostic_at
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import is_map, is_seq

__all__ = ["CODE", "drawing_faults"]

CODE = "R008"
_HOLDS = ("pile", "bag", "area")  # state field kinds that hold a catalog's entries


def _keys(value: Any) -> list[str]:
    return [str(k) for k in value] if is_map(value) else []


def _catalog_attrs(catalog: Any) -> list[str]:
    """Every attribute a catalog's entries have (their own or the defaults')."""
    if not is_map(catalog):
        return []
    names = _keys(catalog.get("defaults"))
    for attrs in (catalog.get("entries") or {}).values() if is_map(catalog.get("entries")) else []:
        names.extend(k for k in _keys(attrs) if k not in names)
    return names


def _fields(data: Mapping[str, Any]) -> dict[str, str | None]:
    """Global and player state fields, each with the catalog it holds (None: none)."""
    state = data.get("state")
    out: dict[str, str | None] = {}
    for part in ("global", "player"):
        decls = state.get(part) if is_map(state) else None
        for name, decl in decls.items() if is_map(decls) else []:
            held = next((decl.get(k) for k in _HOLDS if is_map(decl) and k in decl), None)
            if out.get(str(name)) is None:
                out[str(name)] = str(held) if isinstance(held, str) else None
    return out


def drawing_faults(data: Any) -> list[Diagnostic]:
    """Every name in ``presentation: cards:`` and ``draw:`` that the ruleset does not have."""
    pres = data.get("presentation") if is_map(data) else None
    if not is_map(pres):
        return []
    names = _Names(data)
    names.cards(pres.get("cards"))
    draw = pres.get("draw")
    for name, spec in draw.items() if is_map(draw) else []:
        names.drawn(name, spec)
    return names.out


class _Names:
    """What the presentation may name (catalogs, tables, state fields), and the faults found."""

    def __init__(self, data: Any) -> None:
        self.data = data
        self.catalogs = data.get("catalogs") if is_map(data.get("catalogs")) else {}
        self.tables = _keys(data.get("tables"))
        self.fields = _fields(data)
        self.out: list[Diagnostic] = []

    def fault(
        self, path: Sequence[str | int], what: str, name: Any, pool: Iterable[str], key=False
    ) -> None:
        self.out.append(
            diagnostic_at(
                self.data,
                ["presentation", *path],
                CODE,
                f"{what} '{name}' does not exist",
                key=key,
                hint=hint_for(str(name), pool),
            )
        )

    def cards(self, cards: Any) -> None:
        """``cards: CATALOG: {PART: ATTR}``: a catalog and attributes of its entries."""
        catalogs = self.catalogs
        for cat, spec in cards.items() if is_map(cards) else []:
            if cat not in catalogs:
                self.fault(["cards", cat], "catalog", cat, _keys(catalogs), key=True)
                continue
            attrs = _catalog_attrs(catalogs[cat])
            for part, attr in spec.items() if is_map(spec) else []:
                if attr not in attrs:
                    self.fault(["cards", cat, part], f"attribute of the {cat}", attr, attrs)

    def drawn(self, name: Any, spec: Any) -> None:
        """``draw: FIELD: {...}``: a state field, and the tables, attributes and piece fields
        its drawing reads."""
        if name not in self.fields:
            self.fault(["draw", name], "state field", name, list(self.fields), key=True)
            return
        if not is_map(spec):
            return
        held = self.fields[name]
        catalog = self.catalogs.get(held) if held else None
        attrs = _catalog_attrs(catalog)
        tables = self.tables
        at = ["draw", name]
        for part in ("spaces", "max"):
            value = spec.get(part)
            if isinstance(value, str) and value not in tables:
                self.fault([*at, part], "table", value, tables)
        value = spec.get("capacity")
        if isinstance(value, str) and value not in tables and value not in attrs:
            self.fault([*at, "capacity"], "table or attribute", value, [*tables, *attrs])
        value = spec.get("width")
        if isinstance(value, str) and value not in attrs:
            self.fault([*at, "width"], f"attribute of the {held or 'field'}", value, attrs)
        value = spec.get("table")
        if isinstance(value, str) and value not in tables:
            self.fault([*at, "table"], "table", value, tables)
        self._pieces(at, spec, held, catalog)

    def _pieces(self, at: list[Any], spec: Any, held: str | None, catalog: Any) -> None:
        """``occupants:``, ``fill:``, ``content:``, ``marked:``: fields of the held pieces."""
        pieces = _keys(catalog.get("fields")) if is_map(catalog) else []
        occupants = spec.get("occupants")
        named: list[tuple[list[Any], Any]] = (
            [(["occupants", i], v) for i, v in enumerate(occupants)] if is_seq(occupants) else []
        )
        named += [
            ([part], spec.get(part)) for part in ("fill", "content", "marked") if part in spec
        ]
        for path, value in named:
            if isinstance(value, str) and value not in pieces:
                self.fault([*at, *path], f"piece field of the {held or 'field'}", value, pieces)
