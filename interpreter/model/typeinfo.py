"""The types of every name a rule text may use (scope.TypeInfo), gathered before any text is
compiled: sets, catalogs and their entries, tables (keyed by a universe's ids or by numbers),
state fields (a counter, a value, a bag, a pile or an area over a set or catalog), catalog
fields and attributes (datatypes.py), options, phases and the flow's seat variables."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.resolve.scope import Env, TypeInfo
from interpreter.dsl.resolve.types import (
    ANY,
    BOOL,
    COUNT,
    NUMBER,
    SEAT,
    TEXT,
    Area,
    Bag,
    Id,
    ListOf,
    Pile,
    Table,
    Type,
)
from interpreter.load.locate import is_map, is_seq
from interpreter.model.datatypes import DataTypes

__all__ = ["type_info"]


def _section(node: Any, name: str) -> Any:
    value = node.get(name) if is_map(node) else None
    return value if is_map(value) else {}


def _scalar(value: Any) -> Type:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    return ANY


class _Builder:
    def __init__(self, data: Any, types: DataTypes) -> None:
        self.data = data
        self.types = types
        self.info = TypeInfo()
        self.universe_of: dict[str, set[str]] = {}  # id -> the sets and catalogs it is in

    def universes(self) -> None:
        info = self.info
        for name, ids in _section(self.data, "sets").items():
            info.constants[str(name)] = ListOf(Id(str(name)))
            for i in ids if is_seq(ids) else []:
                self.universe_of.setdefault(str(i), set()).add(str(name))
        for name, cat in _section(self.data, "catalogs").items():
            name = str(name)
            info.constants[name] = ListOf(Id(name))
            for eid in _section(cat, "entries"):
                self.universe_of.setdefault(str(eid), set()).add(name)
                info.catalog_of[str(eid)] = name
            info.attributes[name] = {**self.types.attributes.get(name, {}), "catalog": TEXT}
        for name, cat in _section(self.data, "catalogs").items():
            info.piece_fields[str(name)] = {
                str(f): self.initial(v) for f, v in _section(cat, "fields").items()
            }
        for eid, found in self.universe_of.items():
            if eid in info.catalog_of or len(found - {"phase"}) == 1:
                t = Id(info.catalog_of.get(eid) or next(iter(found - {"phase"})))
                info.constants.setdefault(eid, t)
        info.partial = self.types.partial
        info.phases = {str(p) for p in _section(self.data, "phases")}
        for phase in info.phases:
            self.universe_of.setdefault(phase, set()).add("phase")

    def initial(self, value: Any) -> Type:
        """A piece field's type from its start value: a word is an id (of the one set or
        catalog it is in) or a text; `none` may become anything."""
        if not isinstance(value, str) or value == "none":
            return _scalar(value)
        found = self.universe_of.get(value, set()) - {"phase"}
        return Id(next(iter(found))) if len(found) == 1 else TEXT

    def key(self, keys: list[Any]) -> Type:
        if keys and all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
            return COUNT
        found = [self.universe_of.get(str(k), set()) for k in keys]
        common = set.intersection(*found) if found else set()
        return Id(sorted(common)[0]) if len(common) == 1 else ANY

    def table(self, value: Any, cell: Type) -> Type:
        if is_seq(value):
            return ListOf(cell)
        if not is_map(value):
            return cell
        rows = list(value.values())
        if rows and all(is_map(r) for r in rows):
            inner = [k for r in rows for k in r]
            return Table(self.key(list(value)), Table(self.key(inner), cell))
        return Table(self.key(list(value)), cell)

    def tables(self) -> None:
        for name, value in _section(self.data, "tables").items():
            cell = self.types.tables.get(str(name), ANY)
            self.info.constants[str(name)] = self.table(value, self.ids(value, cell))

    def ids(self, value: Any, cell: Type) -> Type:
        """A cell type of ids that are as much ids of another set or catalog (role ids that
        are phase names too) is not known: any."""
        leaves: list[str] = []
        stack = [value]
        while stack:
            v = stack.pop()
            if is_map(v):
                stack.extend(v.values())
            elif is_seq(v):
                stack.extend(v)
            elif isinstance(v, str):
                leaves.append(v)
        found = [self.universe_of.get(x, set()) for x in leaves]
        common = set.intersection(*found) if found else set()
        if len(common) <= 1:
            return cell
        return ListOf(ANY) if isinstance(cell, ListOf) else ANY

    def state(self) -> None:
        state = _section(self.data, "state")
        catalogs = _section(self.data, "catalogs")
        known = {*catalogs, *_section(self.data, "sets")}
        for where, out in (
            ("global", self.info.global_fields),
            ("player", self.info.player_fields),
        ):
            for fname, decl in _section(state, where).items():
                out[str(fname)] = self.field(decl, catalogs, known)
        self.info.player_fields["seat"] = SEAT

    @staticmethod
    def field(decl: Any, catalogs: Any, known: set[Any]) -> Type:
        """A counter or value; a bag, pile or area over a known set or catalog (else any)."""
        if not is_map(decl):
            return ANY
        if "counter" in decl:
            return NUMBER
        if "value" in decl:
            return _scalar(decl["value"])
        for kind, make in (("bag", Bag), ("pile", Pile)):
            if kind in decl:
                return make(str(decl[kind])) if decl[kind] in known else ANY
        if "area" in decl:
            return Area(str(decl["area"])) if str(decl["area"]) in catalogs else ANY
        return ANY

    def options(self) -> None:
        for oname, odecl in _section(self.data, "options").items():
            choices = list(odecl.get("choices") or []) or [odecl.get("default")]
            if all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
                t: Type = COUNT
            elif all(isinstance(c, bool) for c in choices):
                t = BOOL
            else:
                t = TEXT if all(isinstance(c, str) for c in choices) else ANY
            self.info.options[str(oname)] = t
            for c in choices:
                if isinstance(c, str):
                    self.info.constants.setdefault(c, TEXT)


def _counts(data: Any) -> tuple[int, ...]:
    players = _section(data, "players")
    least, most = players.get("min"), players.get("max", players.get("min"))
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (least, most)):
        return ()
    return tuple(range(least, max(least, most) + 1))


def type_info(data: Any, types: DataTypes, env: Env) -> TypeInfo:
    """The TypeInfo of a composed ruleset (its names are already declared in `env`)."""
    b = _Builder(data, types)
    b.universes()
    b.tables()
    b.state()
    b.options()
    b.info.counts = _counts(data)
    for ability in env.abilities:
        b.info.player_fields.setdefault(ability, COUNT)
    return b.info
