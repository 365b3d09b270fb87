"""R007: a value set where nothing reads it, the misspelt patch that would otherwise be silent.

An entry's attributes are open (any name), so ``cots: 6`` in a patch of an entry, ``copeis: 7``
or a made-up ``vp-per-load: 2`` would compose, compile and play exactly as the base game. This
check runs on the composed ruleset after every rule text of it was resolved and type-checked
(the texts' reads are collected then, in ``TypeInfo.reads``), and reports, at the line where the
value is written (the overlay's, when an overlay wrote it):

* a catalog entry's attribute (or a catalog default) that no rule text reads of that catalog's
  entries: not ``x.NAME`` for an ``x`` of the catalog, nor ``x.NAME`` for an ``x`` of a type not
  known, nor a ``detail:`` template of ``presentation: options:`` (``{NAME}``). The keys the
  engine reads itself (``grants``, ``on``), the descriptive ones (:data:`DESCRIPTIVE`) and the
  attributes whose type the catalog declares under ``attributes:`` (kept for another overlay
  to read) are always allowed;
* an option declared by an overlay that no rule reads (``option.NAME``), and a table declared
  by an overlay that no rule names: the patch that merged ``{bnak: ...}`` into ``options:``
  meaning the option ``bank``; in a base ruleset an option or table nothing reads stays a
  warning (W004, W003: a base may keep one for its overlays, and names them under
  ``extension-points``, which this check respects too).

Each comes with the nearest names that are read, as a did-you-mean. An attribute an overlay
adds and reads in its own texts is read like any other. A table key no rule can look up is
found by the data types (model/datatypes.py: K003 a player count outside the game's, R005 an id
of no such kind). The check runs wherever a ruleset is compiled with its texts checked (by
``rulebook validate`` and by ``load_game``), only when every text compiled: a text that failed
would seem to read too little.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.resolve.scope import TypeInfo
from interpreter.model.host import DslHost
from interpreter.ruleset.nodes import Pos, TreePath
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import Catalog

__all__ = ["DESCRIPTIVE", "ENGINE_KEYS", "check_unread"]

CODE = "R007"
# Keys the engine reads from every entry itself (catalogs.py).
ENGINE_KEYS = frozenset({"grants", "on"})
# Keys for readers, never read by a rule: the card text, names, and how a page draws a piece.
DESCRIPTIVE = frozenset({"doc", "name", "title", "text", "label", "icon", "colour", "color"})
_TEMPLATE = re.compile(r"\{([a-zA-Z0-9_-]+)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")


def check_unread(host: DslHost, ruleset: Ruleset, info: TypeInfo) -> None:
    """Report (through ``host``) each attribute, and each option and table an overlay
    declares, that nothing reads."""
    if ruleset.catalogs:
        shown = _detail_names(ruleset)
        for catalog in ruleset.catalogs.values():
            _check_catalog(host, catalog, info, shown)
    _check_options(host, ruleset, info)
    _check_tables(host, ruleset)


def _detail_names(ruleset: Ruleset) -> set[str]:
    """Attribute names the web table's option details print (``{NAME}`` of a ``detail:``)."""
    out: set[str] = set()
    for style in ruleset.presentation.options.values():
        if style.detail is not None:
            out.update(_TEMPLATE.findall(style.detail))
    return out


def _check_catalog(host: DslHost, catalog: Catalog, info: TypeInfo, shown: set[str]) -> None:
    cname = catalog.name
    # a type declared under the catalog's `attributes:` says the attribute is meant: kept for
    # another overlay to read (an expansion's attribute that a second expansion's rules read)
    read = {name for c, name in info.reads if c in (cname, "")} | shown | set(catalog.declared)
    # the names a misspelling most likely meant: those rules read of this catalog, then any
    # other attribute its entries have
    own = {name for c, name in info.reads if c == cname}
    declared = set(info.attributes.get(cname, {})) - {"catalog"}
    places: list[tuple[TreePath, Iterable[str], Callable[[str], Pos]]] = [
        ((*catalog.path, "defaults"), catalog.defaults, partial(catalog.places.key, "defaults"))
    ]
    places.extend(
        ((*catalog.path, "entries", entry.id), entry.keys, entry.places.key)
        for entry in catalog.entries.values()
    )
    for path, names, where in places:
        for name in names:
            if name in read or name in ENGINE_KEYS or name in DESCRIPTIVE:
                continue
            guess = _nearest(name, own) or _nearest(name, (declared & read) | ENGINE_KEYS)
            host.error_at(
                where(name),
                [*path, name],
                CODE,
                f"no rule reads the attribute '{name}' of {cname} entries: setting it "
                "changes nothing",
                f"did you mean '{guess}'?" if guess else _known(own),
            )


def _from_overlays(ruleset: Ruleset, declared: Iterable[tuple[str, Pos]]) -> list[str]:
    """The names of ``declared`` (name, where) an overlay declared (written in a file other
    than the base's), leaving out those ``extension-points`` lists (kept for other
    overlays)."""
    if ruleset.header.kind != "ruleset":
        return []
    base = ruleset.header.id_pos.file
    kept = {p.name for p in ruleset.definitions.extension_points or ()}
    return [
        name
        for name, at in declared
        if name not in kept and at.file is not None and at.file != base
    ]


def _check_options(host: DslHost, ruleset: Ruleset, info: TypeInfo) -> None:
    """An option an overlay declares and no rule reads (in a base: warning W004)."""
    read = info.options_read
    options = ruleset.header.options
    for name in _from_overlays(ruleset, ((n, o.pos) for n, o in options.items())):
        if name in read:
            continue
        guess = _nearest(name, (o for o in options if o in read))
        host.error_at(
            options[name].pos,
            ["options", name],
            CODE,
            f"the overlay declares the option '{name}', which no rule reads (no rule says "
            f"option.{name}): setting it changes nothing",
            f"did you mean '{guess}'?" if guess else _known(read, "options rules read"),
        )


def _check_tables(host: DslHost, ruleset: Ruleset) -> None:
    """A table an overlay declares and no rule names (in a base: warning W003). A use is the
    name anywhere in rule text, as W003 finds it: tables are read by name."""
    tables = ruleset.tables
    added = _from_overlays(ruleset, ((n, t.pos) for n, t in tables.items()))
    if not added:
        return
    wanted = set(added)
    used: set[str] = set()
    for path, text in ruleset.rule_strings():
        if path[0] == "tables" and len(path) > 1 and path[1] in wanted:
            continue  # a wanted table's own value
        if any(w in text for w in wanted):
            used.update(m for m in _NAME.findall(text) if m in wanted)
    for name in added:
        if name in used:
            continue
        others = [t for t in tables if t not in wanted or t in used]
        guess = _nearest(name, others)
        host.error_at(
            tables[name].pos,
            ["tables", name],
            CODE,
            f"the overlay declares the table '{name}', which no rule names: setting it "
            "changes nothing",
            f"did you mean '{guess}'?" if guess else None,
        )


def _nearest(name: str, candidates: Iterable[str]) -> str | None:
    return did_you_mean(name, sorted(set(candidates)))


def _known(names: Iterable[str], what: str = "attributes rules read") -> str | None:
    shown = sorted(set(names))
    if not shown:
        return None
    more = ", ..." if len(shown) > 12 else ""
    return f"{what}: {', '.join(shown[:12])}{more}"
