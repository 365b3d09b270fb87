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
from collections.abc import Iterable
from typing import Any

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.resolve.scope import TypeInfo
from interpreter.load.locate import is_map, is_seq
from interpreter.model.host import DslHost

__all__ = ["DESCRIPTIVE", "ENGINE_KEYS", "check_unread"]

CODE = "R007"
# Keys the engine reads from every entry itself (catalogs.py).
ENGINE_KEYS = frozenset({"grants", "on"})
# Keys for readers, never read by a rule: the card text, names, and how a page draws a piece.
DESCRIPTIVE = frozenset({"doc", "name", "title", "text", "label", "icon", "colour", "color"})
_TEMPLATE = re.compile(r"\{([a-zA-Z0-9_-]+)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_PROSE = frozenset({"doc", "title", "description", "label"})  # names in them are no uses


def check_unread(host: DslHost, data: Any, info: TypeInfo) -> None:
    """Report (through ``host``) each attribute, and each option and table an overlay
    declares, that nothing reads."""
    catalogs = data.get("catalogs")
    if is_map(catalogs):
        shown = _detail_names(data)
        for cname, cat in catalogs.items():
            if is_map(cat):
                _check_catalog(host, str(cname), cat, info, shown)
    _check_options(host, data, info)
    _check_tables(host, data)


def _detail_names(data: Any) -> set[str]:
    """Attribute names the web table's option details print (``{NAME}`` of a ``detail:``)."""
    pres = data.get("presentation")
    options = pres.get("options") if is_map(pres) else None
    out: set[str] = set()
    for spec in options.values() if is_map(options) else ():
        if is_map(spec) and isinstance(spec.get("detail"), str):
            out.update(_TEMPLATE.findall(spec["detail"]))
    return out


def _check_catalog(host: DslHost, cname: str, cat: Any, info: TypeInfo, shown: set[str]) -> None:
    # a type declared under the catalog's `attributes:` says the attribute is meant: kept for
    # another overlay to read (an expansion's attribute that a second expansion's rules read)
    meant = cat.get("attributes")
    read = {name for c, name in info.reads if c in (cname, "")} | shown
    read |= {str(k) for k in meant} if is_map(meant) else set()
    # the names a misspelling most likely meant: those rules read of this catalog, then any
    # other attribute its entries have
    own = {name for c, name in info.reads if c == cname}
    declared = set(info.attributes.get(cname, {})) - {"catalog"}
    places: list[tuple[list[Any], Any]] = []
    defaults = cat.get("defaults")
    if is_map(defaults):
        places.append((["catalogs", cname, "defaults"], defaults))
    entries = cat.get("entries")
    for eid, entry in entries.items() if is_map(entries) else ():
        if is_map(entry):
            places.append((["catalogs", cname, "entries", eid], entry))
    for path, values in places:
        for key in values:
            name = str(key)
            if name in read or name in ENGINE_KEYS or name in DESCRIPTIVE:
                continue
            guess = _nearest(name, own) or _nearest(name, (declared & read) | ENGINE_KEYS)
            host.error(
                [*path, key],
                CODE,
                f"no rule reads the attribute '{name}' of {cname} entries: setting it "
                "changes nothing",
                f"did you mean '{guess}'?" if guess else _known(own),
                at_key=True,
            )


def _from_overlays(host: DslHost, data: Any, section: str) -> list[Any]:
    """The names of ``section`` an overlay declared (written in a file other than the base's),
    leaving out those ``extension-points`` lists (kept for other overlays)."""
    names = data.get(section)
    if not is_map(names) or "ruleset" not in data:
        return []
    base = host.text_origin(["ruleset"])[0]
    kept = data.get("extension-points")
    kept_names = {str(k) for k in kept} if is_seq(kept) else set()
    out = []
    for name in names:
        if str(name) in kept_names:
            continue
        file = host.text_origin([section, name])[0]
        if file is not None and file != base:
            out.append(name)
    return out


def _check_options(host: DslHost, data: Any, info: TypeInfo) -> None:
    """An option an overlay declares and no rule reads (in a base: warning W004)."""
    read = info.options_read
    for name in _from_overlays(host, data, "options"):
        if str(name) in read:
            continue
        guess = _nearest(str(name), (str(o) for o in data["options"] if str(o) in read))
        host.error(
            ["options", name],
            CODE,
            f"the overlay declares the option '{name}', which no rule reads (no rule says "
            f"option.{name}): setting it changes nothing",
            f"did you mean '{guess}'?" if guess else _known(read, "options rules read"),
            at_key=True,
        )


def _check_tables(host: DslHost, data: Any) -> None:
    """A table an overlay declares and no rule names (in a base: warning W003). A use is the
    name anywhere in rule text, as W003 finds it: tables are read by name."""
    added = {str(n): n for n in _from_overlays(host, data, "tables")}
    if not added:
        return
    used: set[str] = set()
    _names_in(data, (), set(added), used)
    tables = data["tables"]
    for name, key in added.items():
        if name in used:
            continue
        others = [str(t) for t in tables if str(t) not in added or str(t) in used]
        guess = _nearest(name, others)
        host.error(
            ["tables", key],
            CODE,
            f"the overlay declares the table '{name}', which no rule names: setting it "
            "changes nothing",
            f"did you mean '{guess}'?" if guess else None,
            at_key=True,
        )


def _names_in(node: Any, path: tuple[Any, ...], wanted: set[str], found: set[str]) -> None:
    """Which of ``wanted`` occur as names in the strings of ``node`` (prose keys and each
    wanted table's own value left out)."""
    if is_map(node):
        for k, v in node.items():
            if str(k) in _PROSE or (path == ("tables",) and str(k) in wanted):
                continue
            _names_in(v, (*path, str(k))[:2], wanted, found)
    elif isinstance(node, list):
        for v in node:
            _names_in(v, path, wanted, found)
    elif isinstance(node, str) and any(w in node for w in wanted):
        found.update(m for m in _NAME.findall(node) if m in wanted)


def _nearest(name: str, candidates: Iterable[str]) -> str | None:
    return did_you_mean(name, sorted(set(candidates)))


def _known(names: Iterable[str], what: str = "attributes rules read") -> str | None:
    shown = sorted(set(names))
    if not shown:
        return None
    more = ", ..." if len(shown) > 12 else ""
    return f"{what}: {', '.join(shown[:12])}{more}"
