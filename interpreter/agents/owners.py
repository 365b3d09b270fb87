"""Which field of a state holds which container: how the encoder reads a journal build's
notes (dsl/emit/journal.py), each a ``(container, key)`` pair, as the fields that were written.

A note ``(seat, name)`` (``-1`` for a global field) names its field. A note on any other
container (a bag, a list, a piece in a list, a table's row) names the field that holds it, as
last seen: the encoder tells :class:`Owners` each field's value whenever it walks the field
again, so a container that moved (a piece dealt from a pile to a seat's area) is found where
it went (the move itself noted both lists). A container it never saw (held deeper than a
field's items, or made and changed before any field held it) makes :meth:`Owners.fields`
answer None: the caller then compares every field, as for a state that keeps no journal.
Each entry of the map holds its container, so an id in the map is never that of a freed one
(CPython gives a new object a freed one's address), and a field mapped again forgets what it
no longer holds.

A note on a counter, or on a piece, a bag or a pile the encoder has followed, is applied as
the notes are read, by the record kept for it (``move_counter``, ``move_entry``,
``shift_pile``: its copy, its node and its positions in the blocks, found once).
"""

from __future__ import annotations

from typing import Any

from interpreter.agents.refill import add
from interpreter.engine.state import State
from interpreter.model.rules import Rules

__all__ = ["Owners", "move_counter", "move_entry", "shift_pile"]

Field = tuple[int, str]  # (seat, or -1 for a global field; the field's name)
# a note on an entry of a field written in place: (seat or -1, the field, the piece's position
# in the list, -2 for a bag, or -3 for a list an item was drawn from, pushed to or removed
# from; the piece, the bag or the list; the key written, or for a list (-1|1|0, the item))
Entry = tuple[int, str, int, Any, Any]


class Owners:
    """The containers of the state last synced (``state``), each with the field holding it."""

    def __init__(self, rules: Rules) -> None:
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
        # and features are (``move_entry``, ``shift_pile``): good while ``of`` holds the very
        # entry it was made with (the container is where it was) and the field's copy is the
        # one it was made for (a walk that copied the field again makes it stale)
        self.recs: dict[int, tuple] = {}
        # (seat or -1, name) of a counter shown alike to every seat -> its record (encoder.py's
        # ``_counters``, ``move_counter``), set with the map of a new state
        self.counters: dict[Field, tuple] = {}

    def follow(self, s: State) -> None:
        """Map every container of state ``s`` (after the caller compared every field)."""
        self.state = s
        self.names = {-1: frozenset(s.g)}
        self.of = {}
        self.held = {}
        self.recs = {}
        self.counters = {}
        for name, value in s.g.items():
            self.own(-1, value, name)
        for pl in s.p:
            j = pl["seat"]
            self.names[j] = frozenset(pl)
            for name, value in pl.items():
                self.own(j, value, name)

    def own(self, j: int, value: Any, name: str) -> None:
        """Field ``name`` of seat ``j`` (-1: global) holds ``value``: it and its items that
        are containers are found there (a container found where it was keeps its entry, and
        so its record), and what the field held before and holds no more is forgotten."""
        of, field = self.of, (j, name)
        ids: list[int] = []
        t = type(value)
        if name in self.flat[j < 0]:
            if t is dict:
                self._at(j, name, -2, value, ids)  # a bag: its entries noted by key
            elif t is list:
                self._at(j, name, -1, value, ids)
        elif t is list:
            self._at(j, name, -1, value, ids)
            for at, item in enumerate(value):
                ti = type(item)
                if ti is dict or ti is list:
                    self._at(j, name, at, item, ids)
        elif t is dict:
            self._at(j, name, -1, value, ids)
            for item in value.values():
                ti = type(item)
                if ti is dict or ti is list:
                    self._at(j, name, -1, item, ids)
        old = self.held.get(field)
        self.held[field] = ids
        if old:
            recs, kept = self.recs, set(ids)
            for i in old:
                if i not in kept:
                    where = of.get(i)
                    if where is not None and where[0] == j and where[1] == name:
                        del of[i]
                        recs.pop(i, None)

    def _at(self, j: int, name: str, at: int, box: Any, ids: list[int]) -> None:
        """Container ``box`` is at position ``at`` of field ``name`` of seat ``j`` (see
        ``of``); its entry is kept where it is the same."""
        i = id(box)
        where = self.of.get(i)
        # (the entry holds its container: while it is in the map its id is no other's)
        if where is None or where[2] != at or where[1] != name or where[0] != j:
            self.of[i] = (j, name, at, box)
        ids.append(i)

    def fields(
        self, notes: list[tuple[Any, Any]], gone: Any = frozenset()
    ) -> tuple[dict[Field, None], list] | None:
        """What ``notes`` wrote: the fields to walk again, in order, each once, and the
        entries written in place (``Entry``s: a piece's field, a bag's count), which may be
        brought to their copies on their own instead; None where a note names a container
        this map does not know, or a name no field has. An entry of a container with a
        record (``recs``) is brought to its copy here, at once, and not returned, unless its
        field is out of the view (``gone``: its scope and name)."""
        of, names, recs, counters = self.of, self.names, self.recs, self.counters
        out: dict[Field, None] = {}
        entries: list[Entry] = []
        unknown = None
        for note in notes:
            container, key = note
            if type(container) is int:  # (seat or -1, a field's name)
                rec = counters.get(note)
                if rec is None or (gone and rec[8] in gone) or not move_counter(rec):
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


def move_counter(rec: tuple) -> bool:
    """A counter brought to its copy, its one feature moved by its change (in the blocks of
    the seat and of the others, shown alike); ``rec`` is its record (encoder.py's
    ``_counters``: its field's dict and name, the snapshot's copies, the position among them
    and the copies by name, the blocks' vectors, its feature, its scope). False where it is
    no whole number before or after (a bool, a fraction, a field out of the view)."""
    value, was = rec[0][rec[1]], rec[2][rec[3]]
    if type(value) is not int or type(was) is not int:
        return False
    if value != was:
        rec[2][rec[3]] = rec[4][rec[1]] = value
        at = rec[7]
        if at is not None:
            add(rec[5], at, value - was)
            if rec[6] is not None:
                add(rec[6], at, value - was)
    return True


def move_entry(rec: tuple, box: dict, key: Any) -> bool:
    """Entry ``key`` of ``box`` (a piece or a bag) brought to its copy, its one feature moved
    by its change; ``rec`` is the box's record (encoder.py's ``_entry``: its ``of`` entry, its
    field's scope and name, the entry's dict in the copy, its node, the block's vector and
    the other seats' (or None), the piece's position in the list (-2: a bag), the snapshot's
    copies, the field's position among them and the field's copy as the record was made).
    False where that copy is no longer the field's, where the entry is no whole number
    before or after, or is a piece's type."""
    held, at, copy = rec[2], rec[6], rec[9]
    if rec[7][rec[8]] is not copy or (at >= 0 and (at >= len(copy) or copy[at] is not held)):
        return False  # the copy it was made for is no longer the field's (walked since)
    try:
        x, y = held[key], box[key]
    except KeyError:  # a key the piece or the bag did not have: the walk
        return False
    if type(x) is not int or type(y) is not int:
        # a number as the rule file gave it keeps its YAML type (an int all the same);
        # a bool, a fraction or no number: the walk
        if not (isinstance(x, int) and isinstance(y, int)) or bool in (type(x), type(y)):
            return False
    if at >= 0 and key == "type":
        return False
    if x != y:
        node = rec[3]
        kids = node.kids
        feature = (kids[key] if key in kids else node.kid(key)).num
        if feature is not None:
            add(rec[4], feature, y - x)
            vec2 = rec[5]
            if vec2 is not None:
                add(vec2, feature, y - x)
        held[key] = y
    return True


def shift_pile(rec: tuple, key: Any) -> bool:
    """An id drawn, pushed or removed (``key``: ``(-1|1|0, id)``, dsl/emit/journal.py) from a
    pile: its copy does the same, the pile's size and the id's count move by one; ``rec`` is
    the pile's record (encoder.py's ``_pile``: its ``of`` entry, its field's scope and name,
    its copy, its node, its block's vector, the other seats' block or None, whether it is
    hidden from them, its size's feature, whether the size is shown, the snapshot's copies
    and the field's position among them). False where the copy is no longer the field's or
    cannot follow (no id, or not the one drawn)."""
    op, x = key
    copy = rec[2]
    if type(x) is not str or rec[9][rec[10]] is not copy:
        return False  # (not an id; or the copy it was made for is no longer the field's)
    if op < 0:
        if not copy or copy[-1] != x:
            return False
        copy.pop()
    elif op > 0:
        copy.append(x)
    else:
        try:
            copy.remove(x)  # (the first equal item, as the rule's removal)
        except ValueError:
            return False
    d = 1 if op > 0 else -1
    node, vec, other, hidden, size, sized = rec[3:9]
    if hidden and other is None:  # a global pile no seat sees: its size alone
        if sized:
            add(vec, size, d)
        return True
    if size is not None:
        add(vec, size, d)
    at = node.ids.get(x, -1)
    if at == -1:
        at = node.id_at(x)
    if at is not None:
        add(vec, at, d)
    if other is not None:
        if not hidden:  # shown alike to every seat
            if size is not None:
                add(other.vec, size, d)
            if at is not None:
                add(other.vec, at, d)
        elif sized:
            add(other.vec, size, d)
    return True
