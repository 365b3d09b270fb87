"""An entry an overlay writes into a catalog, checked against the entries it joins.

Every entry the base ruleset writes of a catalog may give an attribute that the catalog has
no default for and that rules read of any entry (``b.cost`` for a ``b`` of the catalog). An
entry an overlay adds (or replaces whole) without it would make each text reading it fail
D010 at the base's line, naming no line of the overlay and advising a default the author did
not want: what they wrote is a misspelling (``cots: 7``) or a forgotten attribute. So such an
entry is reported once, at the overlay's line:

* R007 at the unknown key that is one slip from a missing attribute (``cots``), no other
  entry of the catalog having it, with "did you mean 'cost'?";
* D010 at the entry's key for a missing attribute no key of the entry resembles, naming it.

:func:`set_aside` takes those entries out of the catalog's partial attributes before the
texts are checked (so the texts compile, and what they read is known), and :func:`report`
reports them once the texts were checked, for the attributes the texts read of any entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.resolve.scope import TypeInfo
from interpreter.model.datatypes import DataTypes
from interpreter.model.host import DslHost
from interpreter.model.unread import DESCRIPTIVE, ENGINE_KEYS
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import Catalog

__all__ = ["Lack", "report", "set_aside"]


@dataclass(frozen=True)
class Lack:
    """An entry written by an overlay that lacks an attribute every base entry gives."""

    catalog: str
    attribute: str
    entry: str


def set_aside(ruleset: Ruleset, types: DataTypes) -> list[Lack]:
    """The attributes that only entries written by an overlay lack, taken out of
    ``types.partial`` (the texts reading them then compile; :func:`report` says why)."""
    base = ruleset.header.id_pos.file
    out: list[Lack] = []
    for cat, attributes in types.partial.items():
        where = ruleset.catalogs[cat].places
        for attr, lacking in list(attributes.items()):
            written = {e: where.value("entries", e).file for e in lacking}
            if any(file is None or file == base for file in written.values()):
                continue  # a base entry lacks it too: D010 at the texts, as for any ruleset
            out.extend(Lack(cat, attr, e) for e in lacking)
            del attributes[attr]
    return out


def report(host: DslHost, ruleset: Ruleset, info: TypeInfo, lacks: list[Lack]) -> None:
    """Each entry of ``lacks`` that lacks an attribute the texts read of any entry, reported
    once at the overlay's line (see the module doc)."""
    missing: dict[tuple[str, str], list[str]] = {}
    for lack in lacks:
        if (lack.catalog, lack.attribute) in info.entry_reads:
            missing.setdefault((lack.catalog, lack.entry), []).append(lack.attribute)
    for (cat, eid), attrs in missing.items():
        catalog = ruleset.catalogs[cat]
        entry = catalog.entries[eid]
        known = _known_attributes(catalog, eid)
        path = [*catalog.path, "entries", eid]
        explained: set[str] = set()
        for name in entry.keys:
            if name in known:
                continue
            meant = did_you_mean(name, [a for a in attrs if a not in explained])
            if meant is None:
                continue
            explained.add(meant)
            host.error_at(
                entry.places.key(name),
                [*path, name],
                "R007",
                f"no rule reads the attribute '{name}' of {cat} entries, and '{eid}' has no "
                f"'{meant}', which the rules read of every entry of {cat} (the catalog gives "
                "no default)",
                f"did you mean '{meant}'?",
            )
        forgotten = sorted(a for a in attrs if a not in explained)
        if forgotten:
            names = " or ".join(f"'{a}'" for a in forgotten)
            host.error_at(
                catalog.places.key("entries", eid),
                path,
                "D010",
                f"'{eid}' has no {names}, which the rules read of every entry of {cat} (the "
                "catalog gives no default)",
                f"give '{eid}' {' and '.join(repr(a + ':') for a in forgotten)}, as every "
                f"other entry of {cat} has",
            )


def _known_attributes(catalog: Catalog, own: str) -> set[str]:
    """The names an entry's key may be without being a slip: the attributes the catalog's
    other entries give, its defaults and declared attributes, and the keys every entry may
    have."""
    known = set(ENGINE_KEYS) | set(DESCRIPTIVE) | set(catalog.defaults) | set(catalog.declared)
    for eid, entry in catalog.entries.items():
        if eid != own:
            known.update(entry.keys)
    return known
