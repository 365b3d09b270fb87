"""The encoder: every seat's feature vector (features.py) kept between calls and refilled only
where the state changed, at engine speed.

:class:`Encoder` keeps the blocks of the vector between calls: the global block, and for each
seat its block as the seat sees it and as the others do (they differ in its hidden fields).
Beside each block it keeps the dict of fields it was filled from (the state's ``g``, or one
seat's dict of ``p``), its keys in order and a copy of each value as last encoded. A state of a
journal build (dsl/emit/journal.py) says what its rules wrote since the last call, read at the
encoder's own place in its journal (infoset/changes.py): a counter then
moves its feature by its change, a piece's field or a bag's count the same, and any other field
written is walked again (owners.py finds the field that holds a container written). Any other
state is compared: a call skips each dict equal to its copies (one C-level ``==``: the seats a
step left alone), finds the fields that changed in the others in one C-level pass per dict
(each value against its copy, by ``!=``: no Python frame per field) and walks again only
those. A walk (walk.py) changes what differs (a changed entry of a dict, the items a list
gained or lost; a bag or a list of flat pieces is moved by its changed entries and its copy
changed in place: refill.py); the blocks are then joined for the observing seat. What a seat
may see of a field comes from the engine's own view code (``secret_fields``, ``hidden_form``,
``out_of_scope`` in engine/view.py), so the vector equals the one :meth:`Layout.encode` makes
of ``state.view(seat)`` (tests/agents/test_features.py, test_encoder.py and test_refill.py
check that on many random states of the games under rulesets/).
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import ne
from typing import Any

import numpy as np

from interpreter.agents.features import Layout
from interpreter.agents.owners import Owners, move_entry, shift_pile
from interpreter.agents.refill import Snapshot as _Snapshot, add, refills, same_kind
from interpreter.agents.walk import GONE as _GONE, Block as _Block, refilled as _refilled
from interpreter.engine.copier import field_copies
from interpreter.engine.view import hidden_form, out_of_scope, secret_fields
from interpreter.infoset.changes import Note, Reader, follow

__all__ = ["Encoder"]

_F32 = np.dtype(np.float32)
_NONE_GONE: frozenset[tuple[str, str]] = frozenset()


class Encoder:
    """The feature vectors of every seat of one game, kept between calls and refilled where
    the state changed (make one per environment; it works on any state of its game)."""

    def __init__(self, layout: Layout, rules: Any) -> None:
        self.layout = layout
        self.rules = rules
        n = self.players = layout.players
        self.size = layout.size
        self.head_index = {name: i for i, name in enumerate(layout.head)}
        self.round_at = self.head_index.get("round")
        self.to_move_at = [self.head_index.get(f"to_move=+{r}") for r in range(n)]
        self.heads: dict[tuple[int, int | None], bytes] = {}  # (round, seat to move) -> head
        self.glob = _Block(layout.globals, layout.global_slices, "g.")
        self.own = [_Block(layout.player, layout.player_slices, "") for _ in range(n)]
        self.other = [_Block(layout.player, layout.player_slices, "") for _ in range(n)]
        # each observer's blocks in vector order, the head first (set at each call): the
        # blocks' arrays are changed in place, never replaced
        self.parts: list[list[Any]] = [  # the head's bytes, then the blocks' float arrays
            [b"", self.glob.vec, self.own[seat].vec]
            + [self.other[(seat + r) % n].vec for r in range(1, n)]
            for seat in range(n)
        ]
        # fields that leave the view while their phase (round) does not run: asked only then
        self.local = any(rules.local.values()) if rules.local else False
        self.gone: frozenset[tuple[str, str]] | set[tuple[str, str]] = _NONE_GONE
        self.hidden_global, self.hidden_player = secret_fields(rules)
        g_copy, p_copy = field_copies(rules)  # each field copied by its kind
        self.g_snap = _Snapshot(g_copy, refills(rules.global_init, g_copy, self.hidden_global))
        p_kinds = refills(rules.player_init, p_copy, self.hidden_player)
        self.p_snap = [_Snapshot(p_copy, p_kinds) for _ in range(n)]
        # which field holds which container of the state last synced, to read its journal
        self.noted = Owners(rules)
        self.reader: Reader[Note] | None = None  # this encoder's place in that state's journal

    def encode(self, s: Any, seat: int) -> np.ndarray:
        """The vector of what ``seat`` sees of state ``s`` (a new array)."""
        self.sync(s)
        to_move = s.to_move
        rel = None if to_move is None else (to_move - seat) % self.players
        key = (s.round, rel)
        head = self.heads.get(key)
        if head is None:
            head = self.heads[key] = self._head(s.round, rel)
        parts = self.parts[seat]
        parts[0] = head
        # the dtype passed by position, as an object: numpy parses a keyword argument slowly
        return np.frombuffer(bytearray().join(parts), _F32)

    def _head(self, round_: Any, rel: int | None) -> bytes:
        head = array("f", bytes(4 * len(self.layout.head)))
        if self.round_at is not None:
            head[self.round_at] = float(round_ or 0)
        if rel is not None:
            at = self.to_move_at[rel]
            if at is not None:
                head[at] = 1.0
        return head.tobytes()

    def sync(self, s: Any) -> None:
        """Bring every block up to state ``s``: walk again each field that changed. A state
        of a journal build (dsl/emit/journal.py) that this encoder synced last says which fields
        its rules wrote since then, read at this encoder's place in its journal
        (infoset/changes.py); any other state, or one that keeps no journal, is compared
        field by field."""
        gone = out_of_scope(self.rules, s) if self.local else _NONE_GONE
        reader = self.reader
        if reader is not None:
            if s is self.noted.state and s.tj is reader.journal:
                noted = self.noted.fields(reader.take(), gone)
                if noted is not None:
                    if gone != self.gone:  # fields left or came back into the view: walked too
                        fields = noted[0]
                        for scope, name in self.gone ^ gone:
                            for j in (-1,) if scope == "global" else range(self.players):
                                fields[j, name] = None
                        self._rescope(s, gone)
                    self._sync_fields(s, noted, gone)
                    return
            else:  # another state, or this one's journal dropped: its place is given up
                reader = self.reader = None
        if gone != self.gone:
            self._rescope(s, gone)
        self._sync_all(s, gone)
        if reader is None:
            reader = self.reader = follow(s)
        if reader is not None:
            self.noted.follow(s)  # which field holds which container, for the next call
            self.noted.counters = self._counters(s)
        else:
            self.noted.state = None

    def _counters(self, s: Any) -> dict[tuple[int, str], tuple]:
        """The record of each counter of state ``s`` shown alike to every seat (see
        ``Owners.counters``): its field's dict, its copies, its feature in the blocks, and
        for a phase's or a round's own counter the (scope, name) out of the view while it
        does not run."""
        rules = self.rules
        local = {name for scoped in (rules.local or {}).values() for _where, name in scoped}
        out: dict[tuple[int, str], tuple] = {}

        def record(fields: dict, snap: Any, block: Any, vec2: Any, name: str, scope: str) -> tuple:
            scoped = (scope, name) if name in local else None
            i, at = snap.at[name], block.num_at[name]
            return (fields, name, snap.vals, i, snap.mirror, block.vec, vec2, at, scoped)

        g_snap = self.g_snap
        for name, (kind, _start) in rules.global_init.items():
            if kind == "counter" and name not in self.hidden_global and name in g_snap.at:
                out[-1, name] = record(s.g, g_snap, self.glob, None, name, "global")
        for pl in s.p:
            j = pl["seat"]
            snap, own, other = self.p_snap[j], self.own[j], self.other[j].vec
            for name, (kind, _start) in rules.player_init.items():
                if kind == "counter" and name not in self.hidden_player and name in snap.at:
                    out[j, name] = record(pl, snap, own, other, name, "player")
        return out

    def _sync_fields(self, s: Any, noted: Any, gone: Any) -> None:
        """Walk again the fields a journal named ((seat or -1, name) pairs) where changed, and
        bring each entry it names (a piece's field, a bag's count) to its copy on its own."""
        fields, entries = noted
        for j, name in fields:
            self._field(s, j, name, gone)
        for j, name, at, container, key in entries:
            if (j, name) in fields:
                continue  # (walked, which brought all of it to its copy)
            if at == -3:
                done = self._pile(s, j, name, container, key, gone)
            else:
                done = self._entry(j, name, at, container, key, gone)
            if not done:
                fields[j, name] = None  # (walked once, whatever its other entries)
                self._field(s, j, name, gone)

    def _field(self, s: Any, j: int, name: str, gone: Any) -> None:
        """Field ``name`` of seat ``j`` (-1: global), walked again if it changed."""
        if j < 0:
            g, snap = s.g, self.g_snap
            i = snap.at[name]
            value = g[name]
            if value == snap.vals[i]:
                return
            self._global(g, name, i, gone)
        elif name == "seat":
            return
        else:
            pl, snap = s.p[j], self.p_snap[j]
            i = snap.at[name]
            value = pl[name]
            if value == snap.vals[i]:
                return
            self._player(pl, j, name, i, gone)
        if type(value) is list or type(value) is dict:
            self.noted.own(j, value, name)

    def _entry(self, j: int, name: str, at: int, box: Any, key: Any, gone: Any) -> bool:
        """Entry ``key`` of ``box`` (piece ``at`` of list field ``name`` of seat ``j``, -1 for
        a global field; or with ``at`` -2 the bag that is the field) changed in place: its
        copy and its one feature follow it (``move_entry``), and the box's record is kept for its
        next change. False where only walking the field can do it (a field hidden from some
        seat or out of the view, not a whole number, a piece's type)."""
        scope = "global" if j < 0 else "player"
        if gone and (scope, name) in gone:
            return False
        if j < 0:
            snap, block, vec2 = self.g_snap, self.glob, None
        else:
            snap, block, vec2 = self.p_snap[j], self.own[j], self.other[j].vec
        if snap.kind_of.get(name) is None or type(box) is not dict:  # (none: a hidden field)
            return False
        vals, i = snap.vals, snap.at[name]
        copy = vals[i]
        node = block.nodes.get(name) or block.node(name)
        if at >= 0:  # a piece of a list of flat pieces
            if type(copy) is not list or at >= len(copy):
                return False
            held = copy[at]
            if type(held) is not dict:
                return False
            node = same_kind(node, held, box, at)
            if node is None:
                return False
        else:  # a bag's count
            held = copy
        where = self.noted.of.get(id(box))
        rec = (where, (scope, name), held, node, block.vec, vec2, at, vals, i, copy)
        if where is not None:
            self.noted.recs[id(box)] = rec
        return move_entry(rec, box, key)

    def _pile(self, s: Any, j: int, name: str, box: Any, key: Any, gone: Any) -> bool:
        """An id drawn from the end of list field ``name`` of seat ``j`` (-1: global; ``key``
        ``(-1, id)``), pushed on its end (``(1, id)``) or removed (``(0, id)``, the first equal
        one): its copy does the same (``shift_pile``), and the pile's record is kept for its next
        change. False where only walking the field can do it (an item that is no id, a list
        held deeper than the field, a copy that does not hold the id drawn, the field out of
        the view)."""
        scope = "global" if j < 0 else "player"
        if gone and (scope, name) in gone:
            return False
        if j < 0:
            if s.g.get(name) is not box:
                return False
            snap, block, other = self.g_snap, self.glob, None
            hidden = name in self.hidden_global
        else:
            if s.p[j].get(name) is not box:
                return False
            snap, block, other = self.p_snap[j], self.own[j], self.other[j]
            hidden = name in self.hidden_player
        i = snap.at.get(name)
        copy = None if i is None else snap.vals[i]
        if type(copy) is not list:
            return False
        node = block.nodes.get(name) or block.node(name)
        size = node.count  # (a hidden pile's shown size has the same feature)
        sized = size is not None and name not in self.rules.hidden_all
        where = self.noted.of.get(id(box))
        rec = (
            where,
            (scope, name),
            copy,
            node,
            block.vec,
            other,
            hidden,
            size,
            sized,
            snap.vals,
            i,
        )
        if where is not None:
            self.noted.recs[id(box)] = rec
        return shift_pile(rec, key)

    def _sync_all(self, s: Any, gone: Any) -> None:
        """Compare every field with its copy and walk again those that changed."""
        g: dict[str, Any] = s.g
        snap = self.g_snap
        if g is not snap.obj or len(g) != len(snap.keys):
            snap.bind(g)
        # the positions of the fields that differ from their copies, found in C (none where
        # the whole dict equals its mirror; a value compares equal to itself there, as it
        # does inside a list or a dict below: an unchanged value either way)
        if g != snap.mirror:
            keys = snap.keys
            for i in list(compress(snap.positions, map(ne, g.values(), snap.vals))):
                self._global(g, keys[i], i, gone)
        p_snap = self.p_snap
        for pl in s.p:
            j = pl["seat"]
            snap = p_snap[j]
            if pl is not snap.obj or len(pl) != len(snap.keys):
                snap.bind(pl)
            if pl == snap.mirror:
                continue  # (most seats, most steps)
            keys = snap.keys
            for i in list(compress(snap.positions, map(ne, pl.values(), snap.vals))):
                self._player(pl, j, keys[i], i, gone)

    def _global(self, g: dict[str, Any], name: str, i: int, gone: Any) -> None:
        """Global field ``name`` (position ``i``) changed: its copy and its features follow."""
        snap, glob = self.g_snap, self.glob
        vals = snap.vals
        value, was = g[name], vals[i]
        shown = not (gone and ("global", name) in gone)  # else out of the view: empty
        if type(value) is int:
            vals[i] = snap.mirror[name] = value
            if type(was) is int and shown and name not in self.hidden_global:
                at = glob.num_at[name]  # a number: its one feature moves by the change
                if at is not None:
                    add(glob.vec, at, value - was)
                return
        else:
            if shown and _refilled(snap.kinds[i], glob, name, was, value, None):
                return  # its copy changed in place (the mirror holds it)
            vals[i] = snap.mirror[name] = snap.copies[i](value)
        if shown:
            if name in self.hidden_global:
                glob.fill(name, hidden_form(self.rules, "global", name, value))
            else:
                glob.fill(name, value, was)

    def _player(self, pl: dict[str, Any], j: int, name: str, i: int, gone: Any) -> None:
        """Field ``name`` (position ``i``) of seat ``j`` changed: as :meth:`_global`, in the
        block the seat sees and the one the others see."""
        snap = self.p_snap[j]
        vals = snap.vals
        value, was = pl[name], vals[i]
        own, other = self.own[j], self.other[j]
        shown = not (gone and ("player", name) in gone)
        if type(value) is int:
            vals[i] = snap.mirror[name] = value
            if type(was) is int and shown:
                at = own.num_at[name]  # a number: its one feature moves by the change
                if at is not None:
                    add(own.vec, at, value - was)
                    if name not in self.hidden_player:  # else not shown to the others
                        add(other.vec, at, value - was)
                return
        else:
            # a field shown alike to every seat (kinds has no hidden one)
            if shown and _refilled(snap.kinds[i], own, name, was, value, other.vec):
                return  # its copy changed in place (the mirror holds it)
            vals[i] = snap.mirror[name] = snap.copies[i](value)
        if name != "seat" and shown:
            own.fill(name, value, was)
            if name in self.hidden_player:
                form = hidden_form(self.rules, "player", name, value)
                other.fill(name, _GONE if form is None else form)
            else:
                other.take(name, own)  # shown alike to every seat

    def _rescope(self, s: Any, gone: set[tuple[str, str]] | frozenset[tuple[str, str]]) -> None:
        """Fields leave the view (a phase's or a round's own fields while it does not run):
        their slices are emptied; fields back in it are filled again from their values."""
        for scope, name in self.gone ^ gone:
            if scope == "global":
                if name in s.g:
                    self.glob.fill(name, _GONE)
                    self.g_snap.forget(name)  # compared, copied and filled at once
                continue
            for pl in s.p:
                if name in pl:
                    j = pl["seat"]
                    self.own[j].fill(name, _GONE)
                    self.other[j].fill(name, _GONE)
                    self.p_snap[j].forget(name)
        self.gone = gone
