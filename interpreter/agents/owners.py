# cython: language_level=3, annotation_typing=False
"""Which field of a state holds which container: how the encoder reads a journal build's
notes (dsl/journal.py), each a ``(container, key)`` pair, as the fields that were written.

A note ``(seat, name)`` (``-1`` for a global field) names its field. A note on any other
container (a bag, a list, a piece in a list, a table's row) names the field that holds it, as
last seen: the encoder tells :class:`Owners` each field's value whenever it walks the field
again, so a container that moved (a piece dealt from a pile to a seat's area) is found where
it went (the move itself noted both lists). A container it never saw (held deeper than a
field's items, or made and changed before any field held it) makes :meth:`Owners.fields`
answer None: the caller then compares every field, as for a state that keeps no journal.
"""

from __future__ import annotations

from typing import Any

from interpreter.agents.refill import move_entry, shift_pile

__all__ = ["Owners"]

Field = tuple[int, str]  # (seat, or -1 for a global field; the field's name)
# a note on an entry of a field written in place: (seat or -1, the field, the piece's position
# in the list, -2 for a bag, or -3 for a list an item was drawn from, pushed to or removed
# from; the piece, the bag or the list; the key written, or for a list (-1|1|0, the item))
Entry = tuple[int, str, int, Any, Any]


class Owners:
    """The containers of the state last synced (``state``), each with the field holding it."""

    def __init__(self, rules: Any) -> None:
        # the fields whose items are ids or numbers (a pile, a bag), never containers: only
        # the field's own container is mapped (one that holds a piece all the same is not
        # known, so a note on that piece has every field compared: right, if slower)
        self.flat = tuple(
            frozenset(k for k, (kind, _) in init.items() if kind in ("pile", "bag"))
            for init in (rules.player_init, rules.global_init)
        )
        self.state: Any = None  # the state the map is of (None: none; compare everything)
        self.names: dict[int, frozenset[str]] = {}  # seat (-1: global) -> its fields
        # id of a field's value or of one of its items -> (seat, field, the item's position
        # in a list, -1 for anything else, -2 for a bag; the container itself)
        self.of: dict[int, tuple[int, str, int, Any]] = {}
        self.held: dict[Field, list[int]] = {}  # each field's ids in ``of``, as last mapped
        # id of a piece, a bag or a pile whose entries the encoder followed -> where its copy
        # and features are (refill.py's ``move_entry``, ``shift_pile``), valid while ``of``
        # holds the very entry the record was made with (a field mapped again makes new ones)
        self.recs: dict[int, tuple] = {}

    def follow(self, s: Any) -> None:
        """Map every container of state ``s`` (after the caller compared every field)."""
        self.state = s
        self.names = {-1: frozenset(s.g)}
        self.of = {}
        self.held = {}
        self.recs = {}
        for name, value in s.g.items():
            self.own(-1, value, name)
        for pl in s.p:
            j = pl["seat"]
            self.names[j] = frozenset(pl)
            for name, value in pl.items():
                self.own(j, value, name)

    def own(self, j: int, value: Any, name: str) -> None:
        """Field ``name`` of seat ``j`` (-1: global) holds ``value``: it and its items that
        are containers are found there, and what the field held before and holds no more is
        forgotten."""
        of, field = self.of, (j, name)
        ids = self.held.get(field)
        if ids:
            recs = self.recs
            for i in ids:
                where = of.get(i)
                if where is not None and where[0] == j and where[1] == name:
                    del of[i]
                    recs.pop(i, None)
        # each entry holds its container: while it is in the map its id is no other's
        ids = self.held[field] = []
        t = type(value)
        if name in self.flat[j < 0]:
            if t is dict:
                of[id(value)] = (j, name, -2, value)  # a bag: its entries noted by key
                ids.append(id(value))
            elif t is list:
                of[id(value)] = (j, name, -1, value)
                ids.append(id(value))
        elif t is list:
            of[id(value)] = (j, name, -1, value)
            ids.append(id(value))
            for at, item in enumerate(value):
                ti = type(item)
                if ti is dict or ti is list:
                    of[id(item)] = (j, name, at, item)
                    ids.append(id(item))
        elif t is dict:
            of[id(value)] = (j, name, -1, value)
            ids.append(id(value))
            for item in value.values():
                ti = type(item)
                if ti is dict or ti is list:
                    of[id(item)] = (j, name, -1, item)
                    ids.append(id(item))

    def fields(
        self, notes: list[tuple[Any, Any]], gone: Any = frozenset()
    ) -> tuple[dict[Field, None], list] | None:
        """What ``notes`` wrote: the fields to walk again, in order, each once, and the
        entries written in place (``Entry``s: a piece's field, a bag's count), which may be
        brought to their copies on their own instead; None where a note names a container
        this map does not know, or a name no field has. An entry of a container with a
        record (``recs``) is brought to its copy here, at once, and not returned, unless its
        field is out of the view (``gone``: its scope and name)."""
        of, names, recs = self.of, self.names, self.recs
        out: dict[Field, None] = {}
        entries: list[Entry] = []
        unknown = None
        for note in notes:
            container, key = note
            if type(container) is int:  # (seat or -1, a field's name)
                out[note] = None
                continue
            i = id(container)
            where = of.get(i)
            if where is None:
                if unknown is None:
                    unknown = []
                unknown.append(i)
                continue
            if key is None:
                out[where[:2]] = None
                continue
            rec = recs.get(i)
            if rec is not None and rec[0] is where and not (gone and rec[1] in gone):
                if type(key) is tuple:
                    if shift_pile(rec, key):
                        continue
                elif move_entry(rec, container, key):
                    continue
            if where[2] == -1:
                if type(key) is tuple:  # an item drawn, pushed or removed: followed on its own
                    entries.append((where[0], where[1], -3, container, key))
                else:
                    out[where[:2]] = None
            else:
                entries.append((where[0], where[1], where[2], container, key))
        for j, key in out:
            if key not in names[j]:
                return None
        if unknown is not None:
            # a container made during the step (a piece placed, then written): known once
            # the fields written are mapped as they are now, or not at all
            s = self.state
            for j, name in out:
                self.own(j, (s.g if j < 0 else s.p[j])[name], name)
            if any(i not in of for i in unknown):
                return None
        return out, entries
