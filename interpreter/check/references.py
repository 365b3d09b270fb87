"""Whole-ruleset checks that need no game to be played (R004, R006, warnings W002-W005).

They run on a ruleset (or a composition) that already compiles for every player count, and find
uses by the names in rule texts, not by running anything: every string value outside the prose
keys ``doc``/``title``/``description``/``label`` counts as rule text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from interpreter.check.verdicts import diagnostic_on
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.ruleset.nodes import Pos, TreePath
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["whole_ruleset_checks"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_EMIT = re.compile(r"\bemit\s+([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)")
_OPTION = re.compile(r"\boption\s*\.\s*([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)")


def whole_ruleset_checks(ruleset: Ruleset) -> list[Diagnostic]:
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
    uses = _Uses.of(ruleset)
    exported, out = _extension_points(ruleset)
    uses.exported = exported
    out.extend(_unused(ruleset, uses))
    out.extend(_unheard_hooks(ruleset, uses.emitted))
    out.extend(_copies_check(ruleset))
    return out


@dataclass
class _Uses:
    """Where each name occurs in rule text, the events emitted and the options read."""

    tokens: dict[str, set[TreePath]]
    emitted: set[str]
    read_options: set[str]
    exported: set[str] = field(default_factory=set)  # kept for overlays: always used

    @classmethod
    def of(cls, ruleset: Ruleset) -> _Uses:
        strings = ruleset.rule_strings()
        tokens: dict[str, set[TreePath]] = {}
        for path, text in strings:
            for name in _NAME.findall(text):
                tokens.setdefault(name, set()).add(path)
        emitted = {m for _, text in strings for m in _EMIT.findall(text)}
        read_options = {m for _, text in strings for m in _OPTION.findall(text)}
        return cls(tokens, emitted, read_options)

    def outside(self, name: str, prefix: TreePath) -> bool:
        """Whether ``name`` is used anywhere but below ``prefix`` (its own definition)."""
        if name in self.exported:
            return True  # there for overlays to use
        return any(p[: len(prefix)] != prefix for p in self.tokens.get(name, ()))


def _warn(where: Pos, code: str, message: str, path: TreePath) -> Diagnostic:
    return diagnostic_on(where, path, code, message, severity="warning")


def _unused(ruleset: Ruleset, uses: _Uses) -> list[Diagnostic]:
    """W002-W004: functions, procedures, sets, tables, catalogs and options nothing uses."""
    out: list[Diagnostic] = []
    defs = ruleset.definitions
    for functions in (defs.functions, defs.procedures):
        for f in functions.values():
            if not uses.outside(f.name, f.path):
                out.append(_warn(f.pos, "W002", f"{f.kind} '{f.name}' is never called", f.path))
    for members in defs.sets.values():
        names = [members.name, *(m for m in members.items if isinstance(m, str))]
        if not any(uses.outside(n, members.path) for n in names):
            message = f"set '{members.name}' is never used"
            out.append(_warn(members.pos, "W003", message, members.path))
    for table in ruleset.tables.values():
        path = ("tables", table.name)
        if not uses.outside(table.name, path):
            out.append(_warn(table.pos, "W003", f"table '{table.name}' is never used", path))
    for catalog in ruleset.catalogs.values():
        path = ("catalogs", catalog.name)
        names = [catalog.name, *catalog.entries]
        if not any(uses.outside(n, path) for n in names):
            message = f"catalog '{catalog.name}' is never used"
            out.append(_warn(catalog.pos, "W003", message, path))
    for option in ruleset.header.options.values():
        name = option.name
        if name not in uses.read_options and name not in uses.exported:
            message = f"option '{name}' is never read (no rule says option.{name})"
            out.append(_warn(option.pos, "W004", message, ("options", name)))
    return out


def _unheard_hooks(ruleset: Ruleset, emitted: set[str]) -> list[Diagnostic]:
    """W005: a catalog entry's hook on a declared event that no rule emits."""
    out: list[Diagnostic] = []
    events = ruleset.definitions.events
    for hook in ruleset.hooks:
        if hook.event in events and hook.event not in emitted:
            message = f"hook on event '{hook.event}' can never run: no rule emits it"
            out.append(_warn(hook.pos, "W005", message, hook.path))
    return out


def _extension_points(ruleset: Ruleset) -> tuple[set[str], list[Diagnostic]]:
    """The names a ruleset keeps for its overlays (``extension-points``), and R006 for each
    that names no definition."""
    listed = ruleset.definitions.extension_points
    if listed is None:
        return set(), []
    defs = ruleset.definitions
    defined = {
        *defs.functions,
        *defs.procedures,
        *ruleset.tables,
        *defs.sets,
        *ruleset.catalogs,
        *ruleset.header.options,
    }
    out = []
    for point in listed:
        if point.name not in defined:
            out.append(
                diagnostic_on(
                    point.pos,
                    point.path,
                    "R006",
                    f"extension point '{point.name}' names no function, procedure, table, set, "
                    "catalog or option of this ruleset",
                    hint=hint_for(point.name, sorted(defined)),
                )
            )
    return {p.name for p in listed}, out


def _copies_of(ruleset: Ruleset) -> dict[str, tuple[str, int]]:
    """Entry id -> (its catalog, how many copies of it there are), for entries that say."""
    copies: dict[str, tuple[str, int]] = {}
    for catalog in ruleset.catalogs.values():
        for entry in catalog.entries.values():
            n = entry.attrs.get("copies")
            if isinstance(n, int) and not isinstance(n, bool):
                copies[entry.id] = (catalog.name, n)
    return copies


def _copies_check(ruleset: Ruleset) -> list[Diagnostic]:
    """R004: a list in a table naming an entry more often than the entry's ``copies``."""
    copies = _copies_of(ruleset)
    out: list[Diagnostic] = []
    if not copies:
        return out
    for table in ruleset.tables.values():
        for listed in table.lists:
            seen: dict[str, int] = {}
            for i, item, where in listed.items:
                if item not in copies:
                    continue
                seen[item] = seen.get(item, 0) + 1
                cname, n = copies[item]
                if seen[item] == n + 1:
                    out.append(
                        diagnostic_on(
                            where,
                            [*listed.path, i],
                            "R004",
                            f"'{item}' is listed more than {n} time"
                            f"{'s' if n != 1 else ''}, but catalog '{cname}' has "
                            f"only {n} {'copy' if n == 1 else 'copies'} of it",
                        )
                    )
    return out
