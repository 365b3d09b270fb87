"""Whole-ruleset checks that need no game to be played (R004, R006, warnings W002-W005).

They run on a ruleset (or a composition) that already compiles for every player count, and find
uses by the names in rule texts, not by running anything: every string value outside the prose
keys ``doc``/``title``/``description``/``label`` counts as rule text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.check.verdicts import diagnostic_at
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import is_map, is_seq

__all__ = ["whole_ruleset_checks"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_EMIT = re.compile(r"\bemit\s+([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)")
_OPTION = re.compile(r"\boption\s*\.\s*([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)")
# Keys whose values are prose, never rule text: names in them do not count as uses.
_PROSE_KEYS = {"doc", "title", "description", "label"}
# Sections whose entries an ``extension-points`` list may name.
_DEFINING = ("functions", "procedures", "tables", "sets", "catalogs", "options")


def whole_ruleset_checks(data: Any) -> list[Diagnostic]:
    """Checks over the whole (composed) ruleset that need no game to be played.

    * W002 a function or procedure no rule text calls;
    * W003 a set, table or catalog nothing names (a set or catalog counts as used when one of
      its members is named: declaring member ids is a use);
    * W004 an option no rule reads (``option.NAME``);
    * (W002-W004 skip the names listed in ``extension-points``: kept for overlays to use;
      R006 a listed name that is defined nowhere);
    * W005 a catalog entry's hook on a declared event that no rule emits (it can never run);
    * R004 a table lists an entry more often than its catalog has ``copies`` of it.

    (An attribute or table value naming an id of no such kind, R005, is a type check of the
    model: interpreter/model/datatypes.py, run whenever a ruleset is compiled.)

    Uses are found by the names in rule texts (every string value outside prose keys
    ``doc``/``title``/``description``/``label``), not by running anything.
    """
    uses = _Uses.of(data)
    exported, out = _extension_points(data)
    uses.exported = exported
    catalogs = _section(data, "catalogs")
    out.extend(_unused(data, uses, catalogs))
    out.extend(_unheard_hooks(data, catalogs, uses.emitted))
    out.extend(_copies_check(data, catalogs))
    return out


@dataclass
class _Uses:
    """Where each name occurs in rule text, the events emitted and the options read."""

    tokens: dict[str, set[tuple[Any, ...]]]
    emitted: set[str]
    read_options: set[str]
    exported: set[str] = field(default_factory=set)  # kept for overlays: always used

    @classmethod
    def of(cls, data: Any) -> _Uses:
        strings: list[tuple[tuple[Any, ...], str]] = []
        _strings(data, [], strings)
        tokens: dict[str, set[tuple[Any, ...]]] = {}
        for path, text in strings:
            for name in _NAME.findall(text):
                tokens.setdefault(name, set()).add(path)
        emitted = {m for _, text in strings for m in _EMIT.findall(text)}
        read_options = {m for _, text in strings for m in _OPTION.findall(text)}
        return cls(tokens, emitted, read_options)

    def outside(self, name: str, prefix: tuple[Any, ...]) -> bool:
        """Whether ``name`` is used anywhere but below ``prefix`` (its own definition)."""
        if name in self.exported:
            return True  # there for overlays to use
        return any(p[: len(prefix)] != prefix for p in self.tokens.get(name, ()))


def _strings(node: Any, path: list[Any], out: list[tuple[tuple[Any, ...], str]]) -> None:
    """Every string scalar (values, not keys) with its path, prose excluded."""
    if is_map(node):
        for k, v in node.items():
            if str(k) in _PROSE_KEYS:
                continue
            _strings(v, [*path, k], out)
    elif is_seq(node):
        for i, v in enumerate(node):
            _strings(v, [*path, i], out)
    elif isinstance(node, str):
        out.append((tuple(path), str(node)))


def _warn(data: Any, code: str, message: str, path: list[Any]) -> Diagnostic:
    return diagnostic_at(data, path, code, message, key=True, severity="warning")


def _error(
    data: Any, code: str, message: str, path: list[Any], hint: str | None = None
) -> Diagnostic:
    return diagnostic_at(data, path, code, message, hint=hint)


def _section(data: Any, name: str) -> Mapping[str, Any]:
    value = data.get(name)
    return value if is_map(value) else {}


def _unused(data: Any, uses: _Uses, catalogs: Mapping[str, Any]) -> list[Diagnostic]:
    """W002-W004: functions, procedures, sets, tables, catalogs and options nothing uses."""
    out: list[Diagnostic] = []
    for section, what in (("functions", "function"), ("procedures", "procedure")):
        for name in _section(data, section):
            if not uses.outside(str(name), (section, name)):
                out.append(_warn(data, "W002", f"{what} '{name}' is never called", [section, name]))
    for name, members in _section(data, "sets").items():
        names = [str(name), *(str(m) for m in members or [] if isinstance(m, str))]
        if not any(uses.outside(n, ("sets", name)) for n in names):
            out.append(_warn(data, "W003", f"set '{name}' is never used", ["sets", name]))
    for name in _section(data, "tables"):
        if not uses.outside(str(name), ("tables", name)):
            out.append(_warn(data, "W003", f"table '{name}' is never used", ["tables", name]))
    for name, cat in catalogs.items():
        entries = _section(cat, "entries") if is_map(cat) else {}
        names = [str(name), *(str(e) for e in entries)]
        if not any(uses.outside(n, ("catalogs", name)) for n in names):
            out.append(_warn(data, "W003", f"catalog '{name}' is never used", ["catalogs", name]))
    for name in _section(data, "options"):
        if str(name) not in uses.read_options and str(name) not in uses.exported:
            message = f"option '{name}' is never read (no rule says option.{name})"
            out.append(_warn(data, "W004", message, ["options", name]))
    return out


def _unheard_hooks(data: Any, catalogs: Mapping[str, Any], emitted: set[str]) -> list[Diagnostic]:
    """W005: a catalog entry's hook on a declared event that no rule emits."""
    out: list[Diagnostic] = []
    events = _section(data, "events")
    for cname, cat in catalogs.items():
        if not is_map(cat):
            continue
        for eid, entry in _section(cat, "entries").items():
            hooks = entry.get("on") if is_map(entry) else None
            if not is_map(hooks):
                continue
            for event in hooks:
                if str(event) in events and str(event) not in emitted:
                    message = f"hook on event '{event}' can never run: no rule emits it"
                    where = ["catalogs", cname, "entries", eid, "on", event]
                    out.append(_warn(data, "W005", message, where))
    return out


def _extension_points(data: Any) -> tuple[set[str], list[Diagnostic]]:
    """The names a ruleset keeps for its overlays (``extension-points``), and R006 for each
    that names no definition."""
    listed = data.get("extension-points")
    if not is_seq(listed):
        return set(), []
    defined = {str(n) for section in _DEFINING for n in _section(data, section)}
    out = []
    for i, name in enumerate(listed):
        if str(name) not in defined:
            out.append(
                _error(
                    data,
                    "R006",
                    f"extension point '{name}' names no function, procedure, table, set, "
                    "catalog or option of this ruleset",
                    ["extension-points", i],
                    hint_for(str(name), sorted(defined)),
                )
            )
    return {str(n) for n in listed}, out


def _entry_attr(cat: Mapping[str, Any], entry: Any, attr: str) -> Any:
    if is_map(entry) and attr in entry:
        return entry[attr]
    defaults = cat.get("defaults")
    return defaults.get(attr) if is_map(defaults) else None


def _copies_of(catalogs: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """Entry id -> (its catalog, how many copies of it there are), for entries that say."""
    copies: dict[str, tuple[str, int]] = {}
    for cname, cat in catalogs.items():
        if not is_map(cat):
            continue
        for eid, entry in _section(cat, "entries").items():
            n = _entry_attr(cat, entry, "copies")
            if isinstance(n, int) and not isinstance(n, bool):
                copies[str(eid)] = (str(cname), n)
    return copies


def _copies_check(data: Any, catalogs: Mapping[str, Any]) -> list[Diagnostic]:
    """R004: a list in a table naming an entry more often than the entry's ``copies``."""
    copies = _copies_of(catalogs)
    out: list[Diagnostic] = []
    if not copies:
        return out

    def walk(node: Any, path: list[Any]) -> None:
        if is_map(node):
            for k, v in node.items():
                walk(v, [*path, k])
        elif is_seq(node):
            seen: dict[str, int] = {}
            for i, item in enumerate(node):
                if isinstance(item, str) and item in copies:
                    seen[item] = seen.get(item, 0) + 1
                    cname, n = copies[item]
                    if seen[item] == n + 1:
                        out.append(
                            _error(
                                data,
                                "R004",
                                f"'{item}' is listed more than {n} time"
                                f"{'s' if n != 1 else ''}, but catalog '{cname}' has "
                                f"only {n} {'copy' if n == 1 else 'copies'} of it",
                                [*path, i],
                            )
                        )
                else:
                    walk(item, [*path, i])

    for name, table in _section(data, "tables").items():
        walk(table, ["tables", name])
    return out
