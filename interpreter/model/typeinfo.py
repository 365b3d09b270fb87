"""The types of every name a rule text may use (scope.TypeInfo), gathered before any text is
compiled: sets, catalogs and their entries, tables (keyed by a universe's ids or by numbers),
state fields (a counter, a value, a bag, a pile or an area over a set or catalog), catalog
fields and attributes (datatypes.py), options, phases and the flow's seat variables."""

from __future__ import annotations

from collections.abc import Mapping
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
from interpreter.model.datatypes import DataTypes
from interpreter.ruleset.nodes import Value
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import FieldDecl

__all__ = ["type_info"]


def _scalar(value: Any) -> Type:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    return ANY


class _Builder:
    def __init__(self, ruleset: Ruleset, types: DataTypes) -> None:
        self.ruleset = ruleset
        self.types = types
        self.info = TypeInfo()
        self.universe_of: dict[str, set[str]] = {}  # id -> the sets and catalogs it is in

    def universes(self) -> None:
        info = self.info
        for name, members in self.ruleset.definitions.sets.items():
            info.constants[name] = ListOf(Id(name))
            for i in members.items:
                self.universe_of.setdefault(str(i), set()).add(name)
        for name, catalog in self.ruleset.catalogs.items():
            info.constants[name] = ListOf(Id(name))
            for eid in catalog.entries:
                self.universe_of.setdefault(eid, set()).add(name)
                info.catalog_of[eid] = name
            info.attributes[name] = {**self.types.attributes.get(name, {}), "catalog": TEXT}
        for name, catalog in self.ruleset.catalogs.items():
            info.piece_fields[name] = {
                str(f): self.initial(v) for f, v in catalog.piece_starts.items()
            }
        for eid, found in self.universe_of.items():
            if eid in info.catalog_of or len(found - {"phase"}) == 1:
                t = Id(info.catalog_of.get(eid) or next(iter(found - {"phase"})))
                info.constants.setdefault(eid, t)
        info.partial = self.types.partial
        info.phases = set(self.ruleset.flow.phases)
        for phase in info.phases:
            self.universe_of.setdefault(phase, set()).add("phase")

    def initial(self, value: Value) -> Type:
        """A piece field's type from its start value: a word is an id (of the one set or
        catalog it is in) or a text; `none` (read as no value) may become anything."""
        if not isinstance(value, str):
            return _scalar(value)
        found = self.universe_of.get(value, set()) - {"phase"}
        return Id(next(iter(found))) if len(found) == 1 else TEXT

    def key(self, keys: list[Any]) -> Type:
        if keys and all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
            return COUNT
        found = [self.universe_of.get(str(k), set()) for k in keys]
        common = set.intersection(*found) if found else set()
        return Id(sorted(common)[0]) if len(common) == 1 else ANY

    def table(self, value: Value, cell: Type) -> Type:
        if isinstance(value, list):
            return ListOf(cell)
        if not isinstance(value, dict):
            return cell
        rows = list(value.values())
        if rows and all(isinstance(r, dict) for r in rows):
            inner = [k for r in rows if isinstance(r, dict) for k in r]
            return Table(self.key(list(value)), Table(self.key(inner), cell))
        return Table(self.key(list(value)), cell)

    def tables(self) -> None:
        for name, table in self.ruleset.tables.items():
            cell = self.types.tables.get(name, ANY)
            # the keys as YAML read them (numbers for a table by count), the words as written
            self.info.constants[name] = self.table(table.constant, self.ids(table.value, cell))

    def ids(self, value: object, cell: Type) -> Type:
        """A cell type of ids that are as much ids of another set or catalog (role ids that
        are phase names too) is not known: any."""
        leaves: list[str] = []
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
            elif isinstance(v, str):
                leaves.append(v)
        found = [self.universe_of.get(x, set()) for x in leaves]
        common = set.intersection(*found) if found else set()
        if len(common) <= 1:
            return cell
        return ListOf(ANY) if isinstance(cell, ListOf) else ANY

    def state(self) -> None:
        catalogs = self.ruleset.catalogs
        known = {*catalogs, *self.ruleset.definitions.sets}
        for decl in self.ruleset.fields:
            out = self.info.global_fields if decl.scope == "global" else self.info.player_fields
            out[decl.name] = self.field(decl, catalogs, known)
        self.info.player_fields["seat"] = SEAT

    @staticmethod
    def field(decl: FieldDecl, catalogs: Mapping[str, object], known: set[str]) -> Type:
        """A counter or value; a bag, pile or area over a known set or catalog (else any)."""
        if decl.kind == "counter":
            return NUMBER
        if decl.kind == "value":
            return _scalar(decl.start)
        for kind, make in (("bag", Bag), ("pile", Pile)):
            if decl.kind == kind:
                return make(str(decl.holds)) if decl.holds in known else ANY
        if decl.kind == "area":
            return Area(str(decl.holds)) if decl.holds in catalogs else ANY
        return ANY

    def options(self) -> None:
        for oname, option in self.ruleset.header.options.items():
            choices = list(option.choices) or [option.default]
            if all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
                t: Type = COUNT
            elif all(isinstance(c, bool) for c in choices):
                t = BOOL
            else:
                t = TEXT if all(isinstance(c, str) for c in choices) else ANY
            self.info.options[oname] = t
            for c in choices:
                if isinstance(c, str):
                    self.info.constants.setdefault(c, TEXT)


def type_info(ruleset: Ruleset, types: DataTypes, env: Env) -> TypeInfo:
    """The TypeInfo of a composed ruleset, typed, with what its cards' `may:` hooks need
    (model/may_phase.py) in its flow and fields (its names are already declared in `env`)."""
    b = _Builder(ruleset, types)
    b.universes()
    b.tables()
    b.state()
    b.options()
    players = ruleset.header.players
    b.info.counts = tuple(range(players.min, max(players.min, players.max) + 1))
    for ability in env.abilities:
        b.info.player_fields.setdefault(ability, COUNT)
    return b.info
