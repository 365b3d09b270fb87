"""Types of the data a ruleset declares: catalog attributes, grants and tables.

Each catalog attribute has one type, declared under the catalog's ``attributes:`` or inferred
from all its values (the default counts once), and every entry must agree; likewise every
value of a table, every list item in it, and its keys (ids of one set or catalog, or player
counts within the game's range). Numbers are whole numbers of 0 or more unless the ruleset
declares ``number`` for the attribute. Each slip is reported at the odd value:

* K001 a value of the wrong type (``cost: eight``, ``vp: "3"``, ``copies: 2.5``, a list or
  ``null`` where a number belongs), saying what was expected and what was found;
* K002 a negative number where a whole number of 0 or more is expected (and negative grants);
* K003 a per-player-count table key outside the game's player counts;
* K004 an ``attributes:`` declaration naming no type;
  (K005, a table by player count lacking a count a rule reads it with, is the effect-language
  checker's: dsl/resolve/table_keys.py);
* R005 / R001 an id that is not a member of the set, catalog or phases the others belong to.

The inferred types (:class:`DataTypes`) are what the effect-language checker reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.resolve.types import (
    ANY,
    BOOL,
    COUNT,
    NONE,
    NUMBER,
    TEXT,
    Id,
    ListOf,
    Optional,
    Type,
    describe,
    numbers_by,
)
from interpreter.load.locate import json_pointer
from interpreter.ruleset.nodes import Places, Plain, TreePath
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import Catalog, Table

__all__ = ["DataTypes", "check_data_types", "parse_type"]

NONE_WORD = "none"
_SPECIAL_ENTRY_KEYS = {"doc", "grants", "on"}
Path = TreePath


@dataclass
class DataTypes:
    """What the data declares: attribute types per catalog, which entries lack an attribute
    that has no default, and each table's value type."""

    attributes: dict[str, dict[str, Type]] = field(default_factory=dict)
    partial: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    tables: dict[str, Type] = field(default_factory=dict)


class _Universes:
    """Every id the ruleset declares, by what it belongs to: sets, catalogs and phases."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.members: dict[str, set[str]] = {}
        for name, ids in ruleset.definitions.sets.items():
            self.members[name] = {str(i) for i in ids.items}
        for name, catalog in ruleset.catalogs.items():
            self.members[name] = set(catalog.entries)
        self.members["phase"] = set(ruleset.flow.phases)

    def of(self, word: str) -> set[str]:
        return {u for u, ids in self.members.items() if word in ids}

    def all_ids(self) -> set[str]:
        return set().union(*self.members.values()) if self.members else set()


def parse_type(text: Any, universes: Mapping[str, set[str]]) -> Type | None:
    """``count``, ``number``, ``bool``, ``text``, ``any``, a set/catalog name or ``phase`` (an id
    of it), ``T or none``, ``list of T``; None for anything else.

    >>> parse_type("list of colors or none", {"colors": {"red"}})
    Optional(inner=ListOf(item=Id(universe='colors')))
    """
    if not isinstance(text, str):
        return None
    words = text.strip()
    if words.endswith(" or none"):
        inner = parse_type(words[: -len(" or none")], universes)
        return None if inner is None else Optional(inner)
    if words.startswith("list of "):
        inner = parse_type(words[len("list of ") :], universes)
        return None if inner is None else ListOf(inner)
    prims = {"count": COUNT, "number": NUMBER, "bool": BOOL, "text": TEXT, "any": ANY}
    if words in prims:
        return prims[words]
    return Id(words) if words in universes else None


# -- what one value is ---------------------------------------------------------------------------


def _kind(value: Any, universes: _Universes) -> tuple[str, Any]:
    """The shape of one value: (kind, detail); detail is the universes an id belongs to."""
    if isinstance(value, bool):
        return "bool", None
    if isinstance(value, int):
        return ("int", None) if value >= 0 else ("negative", None)
    if isinstance(value, float):
        return "float", None
    if value is None:
        return "null", None
    if isinstance(value, str):
        if value == NONE_WORD:
            return "none", None
        if value.strip().lstrip("-").isdigit():
            return "quoted", None
        found = universes.of(value)
        return ("id", found) if found else ("text", None)
    if isinstance(value, list):
        return "list", None
    return "map", None


def _show(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"the text '{value}'" if value.strip().lstrip("-").isdigit() else f"'{value}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _infer(values: list[Any], universes: _Universes) -> Type:
    """The type most of `values` share (numbers win a tie); `none` makes it optional."""
    kinds = [_kind(v, universes) for v in values]
    counts = Counter("int" if k in ("int", "negative") else k for k, _ in kinds)
    optional = counts.pop("none", 0) > 0
    if not counts:
        return NONE
    order = ["int", "id", "list", "bool", "text", "quoted", "float", "null", "map"]
    best = max(counts, key=lambda k: (counts[k], -order.index(k)))
    if best == "int":
        inferred: Type = COUNT
    elif best == "id":
        tally: Counter[str] = Counter()
        for k, found in kinds:
            if k == "id":
                tally.update(found)
        inferred = Id(max(sorted(tally), key=lambda u: (tally[u], u == "phase")))
    elif best == "list":
        items = [item for v in values if isinstance(v, list) for item in v]
        inferred = ListOf(_infer(items, universes) if items else ANY)
    elif best == "bool":
        inferred = BOOL
    elif best == "text":
        inferred = TEXT
    elif best == "quoted":  # numbers meant, each written in quotes: each is reported
        inferred = COUNT
    else:
        return ANY  # mostly malformed values: each is reported on its own
    return Optional(inferred) if optional else inferred


# -- checking values against a type ----------------------------------------------------------


@dataclass
class _Checker:
    ruleset: Ruleset
    universes: _Universes
    out: list[Diagnostic] = field(default_factory=list)

    def error(
        self, code: str, message: str, path: Path, hint: str | None = None, *, key: bool = False
    ) -> None:
        """A fault at ``path`` (``catalogs/NAME/...`` or ``tables/NAME/...``), where the typed
        catalog or table says that part was written."""
        section, name, *rest = path
        assert isinstance(name, str), path  # a catalog's or a table's name
        places: Places = (
            self.ruleset.catalogs[name].places
            if section == "catalogs"
            else self.ruleset.tables[name].places
        )
        at = places.key(*rest) if key else places.value(*rest)
        self.out.append(
            Diagnostic(code, message, at.file, at.line, at.column, json_pointer(path), hint=hint)
        )

    def value(self, value: Any, expected: Type, path: Path, what: str, why: str = "") -> None:
        """Report `value` (at `path`) when it does not fit `expected`."""
        if isinstance(expected, Optional):
            if value == NONE_WORD:
                return
            expected = expected.inner
        if value is None and expected == ANY:  # no type to name; `none` is the word for nothing
            self.error("K001", f"{what}: has no value (null)", path, _NULL_HINT)
            return
        if value is None:
            self.mismatch(value, expected, path, what, why)
            return
        if expected == ANY:
            return
        kind, _ = _kind(value, self.universes)
        if isinstance(expected, ListOf):
            if kind != "list":
                self.mismatch(value, expected, path, what, why)
                return
            for i, item in enumerate(value):
                self.value(item, expected.item, (*path, i), f"an item of {what}", why)
            return
        if expected in (COUNT, NUMBER):
            if kind == "negative" and expected == COUNT:
                self.error(
                    "K002",
                    f"{what}: expected a whole number of 0 or more{why}, got {value}",
                    path,
                    "declare the attribute as `number` under the catalog's `attributes:` "
                    "if negative values are meant",
                )
            elif kind not in ("int", "negative"):
                self.mismatch(value, expected, path, what, why)
            return
        if isinstance(expected, Id):
            if kind == "id" and expected.universe in self.universes.of(value):
                return
            if kind in ("id", "text"):
                ids = self.universes.members.get(expected.universe, set())
                guess = did_you_mean(str(value), ids)
                word = "a phase" if expected.universe == "phase" else f"in {expected.universe}"
                self.error(
                    "R001" if expected.universe == "phase" else "R005",
                    f"{what}: '{value}' is not {word}{why}",
                    path,
                    f"did you mean '{guess}'?" if guess else _known(ids),
                )
                return
            self.mismatch(value, expected, path, what, why)
            return
        if (expected == BOOL and kind != "bool") or (expected == TEXT and kind == "list"):
            self.mismatch(value, expected, path, what, why)

    def mismatch(self, value: Any, expected: Type, path: Path, what: str, why: str = "") -> None:
        hint = None
        kind, _ = _kind(value, self.universes)
        if kind == "quoted" and expected in (COUNT, NUMBER):
            hint = "remove the quotes: a number in quotes is a text"
        elif kind == "float":
            hint = "use a whole number"
        elif kind == "null":
            hint = _NULL_HINT
        message = f"{what}: expected {describe(expected)}{why}, got {_show(value)}"
        self.error("K001", message, path, hint)


_NULL_HINT = "write a value, or leave the key out"


def _known(ids: set[str]) -> str | None:
    if not ids:
        return None
    shown = sorted(ids)
    more = f", ... ({len(shown)} in all)" if len(shown) > 8 else ""
    return "known: " + ", ".join(shown[:8]) + more


# -- catalogs ------------------------------------------------------------------------------------


def _attribute_values(catalog: Catalog, attr: str) -> tuple[list[tuple[Path, Plain]], list[Plain]]:
    """Where `attr` is written (the default, then each entry that says it) and the value each
    entry really has (its own, else the default): the type is inferred from the latter, so a
    default that no entry falls back on (`phase: none` when every role names its phase) does
    not make the attribute optional."""
    defaults = catalog.defaults
    written: list[tuple[Path, Plain]] = []
    effective: list[Plain] = []
    if attr in defaults:
        written.append((("defaults", attr), defaults[attr]))
    for eid, entry in catalog.entries.items():
        if attr in entry.keys:
            written.append((("entries", eid, attr), entry.attrs[attr]))
            effective.append(entry.attrs[attr])
        elif attr in defaults:
            effective.append(defaults[attr])
    if not effective and attr in defaults:
        effective.append(defaults[attr])
    return written, effective


def _check_catalog(catalog: Catalog, c: _Checker, types: DataTypes) -> None:
    name, entries = catalog.name, catalog.entries
    defaults, declared = catalog.defaults, catalog.declared
    attrs: dict[str, None] = dict.fromkeys(defaults)
    for entry in entries.values():
        attrs.update(dict.fromkeys(a for a in entry.keys if a not in _SPECIAL_ENTRY_KEYS))
    attrs.update(dict.fromkeys(declared))
    base = ("catalogs", name)
    found: dict[str, Type] = {}
    for attr in attrs:
        values, effective = _attribute_values(catalog, attr)
        if attr in declared:
            t = parse_type(declared[attr], c.universes.members)
            if t is None:
                c.error(
                    "K004",
                    f"'{declared[attr]}' is not a type",
                    (*base, "attributes", attr),
                    "types: count, number, bool, text, any, a set or catalog name (an id of "
                    "it), phase, 'list of T', 'T or none'",
                )
                t = ANY
        else:
            t = _infer(effective, c.universes)
        found[attr] = t
        for path, value in values:
            where = "the default" if path[0] == "defaults" else f"'{path[1]}'"
            why = f"declared '{declared[attr]}'" if attr in declared else f"as in the other {name}"
            # a default may be `none` (a value no entry needs to fall back on)
            want = Optional(t) if path[0] == "defaults" and not isinstance(t, Optional) else t
            c.value(value, want, (*base, *path), f"'{attr}' of {where}", f" ({why})")
        if attr not in defaults:
            lacking = [e for e, entry in entries.items() if attr not in entry.keys]
            if lacking:
                types.partial.setdefault(name, {})[attr] = lacking
    for fname, start in catalog.piece_written.items():
        c.value(start, ANY, (*base, "fields", fname), f"the start value of field '{fname}'")
    for eid, entry in entries.items():
        for ability, amount in entry.grants.items():
            path = (*base, "entries", eid, "grants", ability)
            c.value(amount, COUNT, path, f"the grant '{ability}'")
    types.attributes[name] = found


# -- tables --------------------------------------------------------------------------------------


def _check_table(table: Table, c: _Checker, players: tuple[int, int]) -> Type:
    """The type of a table's values, each value that breaks it reported. Its keys are read as
    YAML read them (numbers for a table by player count: ``constant``), its values as written
    (``value``: `none` a word there)."""
    name, keyed, value = table.name, table.constant, table.value
    path: Path = ("tables", name)
    cells: list[tuple[Path, Plain]]
    if isinstance(value, dict) and isinstance(keyed, dict):
        _check_keys(list(keyed), path, c, players)
        rows = list(value.values())
        if rows and all(isinstance(r, dict) for r in rows):
            cells = []
            for (key, row_keys), row in zip(keyed.items(), rows, strict=True):
                keys = list(row_keys) if isinstance(row_keys, dict) else []
                _check_keys(keys, (*path, key), c, players)
                written = row.values() if isinstance(row, dict) else ()
                cells.extend(((*path, key, rk), v) for rk, v in zip(keys, written, strict=True))
        else:
            cells = [((*path, k), v) for k, v in zip(keyed, rows, strict=True)]
    elif isinstance(value, list):
        cells = [((*path, i), v) for i, v in enumerate(value)]
    else:
        cells = [(path, value)]
    t = _infer([v for _, v in cells], c.universes)
    for where, cell in cells:
        at = "".join(f"[{k}]" for k in where[2:])
        c.value(cell, t, where, f"table '{name}'{at}", " (as its other values are)")
    return t


def _check_keys(keys: list[Any], path: Path, c: _Checker, players: tuple[int, int]) -> None:
    if not keys:
        return
    if all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
        lo, hi = players
        if numbers_by(keys, lo, hi) != "count":
            return  # seats 0, 1, ..., or numbers of something else (a cost, a count)
        for k in keys:
            if not lo <= k <= hi:
                c.error(
                    "K003",
                    f"table '{path[1]}' by player count has a key {k}, but the game is for "
                    f"{lo} to {hi} players",
                    (*path, k),
                    key=True,
                )
        return
    words = [str(k) for k in keys]
    tally: Counter[str] = Counter()
    for w in words:
        tally.update(c.universes.of(w))
    if not tally:
        return  # free keys (names of its own)
    universe, hits = max(sorted(tally.items()), key=lambda item: item[1])
    if hits < 2 and len(words) > 1:
        return
    ids = c.universes.members[universe]
    for key, w in zip(keys, words, strict=True):
        if w not in ids:
            guess = did_you_mean(w, ids)
            c.error(
                "R005",
                f"key '{w}' is not in {universe}, as the table's other keys are",
                (*path, key),
                f"did you mean '{guess}'?" if guess else _known(ids),
                key=True,
            )


# -- entry point ---------------------------------------------------------------------------------


def check_data_types(ruleset: Ruleset) -> tuple[DataTypes, list[Diagnostic]]:
    """The types of a composed ruleset's catalogs and tables, and every value that breaks them
    (the ruleset typed, with the phase its cards' `may:` hooks need among its phases)."""
    universes = _Universes(ruleset)
    c = _Checker(ruleset, universes)
    types = DataTypes()
    for catalog in ruleset.catalogs.values():
        _check_catalog(catalog, c, types)
    players = (ruleset.header.players.min, ruleset.header.players.max)
    for name, table in ruleset.tables.items():
        types.tables[name] = _check_table(table, c, players)
    return types, c.out
