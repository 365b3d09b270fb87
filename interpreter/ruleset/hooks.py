"""Catalog entries' ``on:`` hooks typed: what an entry does when an event is emitted for its
owner, with where it was written. A hook is statements (``on: {EVENT: TEXT}``), or an offer
the owner may take (``on: {EVENT: {may: {id, do, ...}, do: TEXT}}``, compiled by
``model/may.py``).

>>> hooks = hooks_of({"catalogs": {"things": {"entries": {"hat": {"on": {
...     "sold": "coins += 1", "bought": {"may": {"id": "wear", "do": "x = 1"}}}}}}}})
>>> [(h.entry, h.event, h.path[-1]) for h in hooks]
[('hat', 'sold', 'sold'), ('hat', 'bought', 'bought')]
>>> hooks[1].may.id, hooks[0].may
('wear', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from interpreter.load.locate import is_map
from interpreter.ruleset.nodes import (
    NOWHERE,
    Places,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    plain,
    value_at,
    written_at,
)

__all__ = ["Hook", "MayOffer", "hooks_of"]


@dataclass(frozen=True, slots=True)
class MayOffer:
    """A hook's ``may:``: an option the owner is offered when the event comes (its ``id``,
    ``do`` and the other texts: ``label``, ``when``, ``for``, ``amount``, ``if``, ``log``)."""

    id: str
    do: Plain
    texts: Mapping[str, Plain] = field(default_factory=empty_map)
    pos: Pos = NOWHERE
    id_pos: Pos = NOWHERE  # where its `id:` text was written
    # the `may:` map, whose nodes the phase the engine writes from it is made of (positions
    # kept: model/may_phase.py), and where its parts were written (`places`)
    node: object = field(default=None, repr=False, compare=False)

    @property
    def places(self) -> Places:
        """Where the offer's keys and values were written (found when asked)."""
        return Places(self.node)

    @property
    def label(self) -> Plain:
        """``label:``, the question asked (None: not written)."""
        return self.texts.get("label")

    @property
    def condition(self) -> Plain:
        """``if:``, whether the owner is asked (None: not written, always)."""
        return self.texts.get("if")

    @property
    def log(self) -> Plain:
        """``log:``, the line taking it writes (None: not written)."""
        return self.texts.get("log")

    @property
    def ranges(self) -> Plain:
        """``for:``, ``VAR in COLLECTION``: one offer for each value (None: not written)."""
        return self.texts.get("for")

    @property
    def when(self) -> Plain:
        """``when:``, whether the offer is made as the event happens (None: always)."""
        return self.texts.get("when")

    @property
    def amount(self) -> Plain:
        """``amount:``, how many offers are made at once (None: one)."""
        return self.texts.get("amount")


@dataclass(frozen=True, slots=True)
class Hook:
    """One entry's hook on one event: its statements (``do``) and the offer it makes."""

    catalog: str
    entry: str
    event: str
    do: Plain = None  # the statements run (a may-hook's own `do:`, beside its offer)
    may: MayOffer | None = None
    path: TreePath = ()
    pos: Pos = NOWHERE
    # the hook's node (a may-hook's map: where the declining option the engine writes for its
    # offer is placed, model/may_phase.py)
    node: object = field(default=None, repr=False, compare=False)


def _hook(catalog: str, entry: str, event: str, node: object, path: TreePath, pos: Pos) -> Hook:
    if not is_map(node):
        return Hook(catalog, entry, event, plain(node), None, path, pos)
    offer = node.get("may")
    may = (
        MayOffer(
            str(offer.get("id", "")),
            plain(offer.get("do")),
            frozen_map({str(k): plain(v) for k, v in offer.items() if k not in ("id", "do")}),
            written_at(node, "may"),
            value_at(offer, "id"),
            offer,
        )
        if is_map(offer)
        else None
    )
    return Hook(catalog, entry, event, plain(node.get("do")), may, path, pos, node)


def hooks_of(data: object) -> tuple[Hook, ...]:
    """Every hook of every catalog entry, catalogs, entries and events in the order written."""
    catalogs = data.get("catalogs") if is_map(data) else None
    found: list[Hook] = []
    for cname, catalog in catalogs.items() if is_map(catalogs) else ():
        entries = catalog.get("entries") if is_map(catalog) else None
        for eid, entry in entries.items() if is_map(entries) else ():
            on = entry.get("on") if is_map(entry) else None
            for event, node in on.items() if is_map(on) else ():
                path: TreePath = ("catalogs", cname, "entries", eid, "on", event)
                found.append(
                    _hook(str(cname), str(eid), str(event), node, path, written_at(on, event))
                )
    return tuple(found)
