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
from typing import Any

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.resolve.scope import TypeInfo
from interpreter.load.locate import is_map
from interpreter.model.datatypes import DataTypes
from interpreter.model.host import DslHost
from interpreter.model.unread import DESCRIPTIVE, ENGINE_KEYS

__all__ = ["Lack", "report", "set_aside"]


@dataclass(frozen=True)
class Lack:
    """An entry written by an overlay that lacks an attribute every base entry gives."""

    catalog: str
    attribute: str
    entry: str


def set_aside(host: DslHost, data: Any, types: DataTypes) -> list[Lack]:
    """The attributes that only entries written by an overlay lack, taken out of
    ``types.partial`` (the texts reading them then compile; :func:`report` says why)."""
    base = host.text_origin(["ruleset"])[0]
    out: list[Lack] = []
    for cat, attributes in types.partial.items():
        for attr, lacking in list(attributes.items()):
            written = {e: host.text_origin(["catalogs", cat, "entries", e])[0] for e in lacking}
            if any(file is None or file == base for file in written.values()):
                continue  # a base entry lacks it too: D010 at the texts, as for any ruleset
            out.extend(Lack(cat, attr, e) for e in lacking)
            del attributes[attr]
    return out


def report(host: DslHost, data: Any, info: TypeInfo, lacks: list[Lack]) -> None:
    """Each entry of ``lacks`` that lacks an attribute the texts read of any entry, reported
    once at the overlay's line (see the module doc)."""
    missing: dict[tuple[str, str], list[str]] = {}
    for lack in lacks:
        if (lack.catalog, lack.attribute) in info.entry_reads:
            missing.setdefault((lack.catalog, lack.entry), []).append(lack.attribute)
    for (cat, eid), attrs in missing.items():
        catalog = data["catalogs"][cat]
        entries = catalog["entries"]
        key = next(k for k in entries if str(k) == eid)
        entry = entries[key]
        known = _known_attributes(catalog, key)
        path = ["catalogs", cat, "entries", key]
        explained: set[str] = set()
        for name in entry if is_map(entry) else ():
            if str(name) in known:
                continue
            meant = did_you_mean(str(name), [a for a in attrs if a not in explained])
            if meant is None:
                continue
            explained.add(meant)
            host.error(
                [*path, name],
                "R007",
                f"no rule reads the attribute '{name}' of {cat} entries, and '{eid}' has no "
                f"'{meant}', which the rules read of every entry of {cat} (the catalog gives "
                "no default)",
                f"did you mean '{meant}'?",
                at_key=True,
            )
        forgotten = sorted(a for a in attrs if a not in explained)
        if forgotten:
            names = " or ".join(f"'{a}'" for a in forgotten)
            host.error(
                path,
                "D010",
                f"'{eid}' has no {names}, which the rules read of every entry of {cat} (the "
                "catalog gives no default)",
                f"give '{eid}' {' and '.join(repr(a + ':') for a in forgotten)}, as every "
                f"other entry of {cat} has",
                at_key=True,
            )


def _known_attributes(catalog: Any, own: Any) -> set[str]:
    """The names an entry's key may be without being a slip: the attributes the catalog's
    other entries give, its defaults and declared attributes, and the keys every entry may
    have."""
    known = set(ENGINE_KEYS) | set(DESCRIPTIVE)
    for section in ("defaults", "attributes"):
        values = catalog.get(section)
        if is_map(values):
            known.update(str(k) for k in values)
    for eid, entry in catalog["entries"].items():
        if eid != own and is_map(entry):
            known.update(str(k) for k in entry)
    return known
