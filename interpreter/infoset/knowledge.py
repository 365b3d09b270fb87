"""What each seat knows: its whole history of observations (perfect recall) and what it
remembers of ids that left its sight.

A :class:`Recorder` rides on a state that asks for it. ``Game.new_state(seed, record=True)``
records everything below; a ruleset that declares ``state: remember:`` records only the
memory by default, cheaply: a step notes only which ids left and entered which piles (in a
journal, changes.py, that each seat reads at its own place), and a seat's memory is worked out
from those notes when it is first asked for (the search bot's sampler asks for its own
seat's); copies for tree search drop it (``State.copy()``). For
every seat it keeps:

* an *observation*: who decided, the option the seat chose when it was its own decision (never
  another seat's option id), the log lines the step added as the seat reads them (the public
  text, or the seat's own text of a line that names its hidden cards), and a
  digest of the seat's view after the step. The seat's information state is the list of its
  observations from the first view on (:meth:`Recorder.information_state`): two histories the
  seat can tell apart give different lists, two it cannot tell apart give equal ones;
* its *memory*, where the ruleset declares one (``state: remember: [pile, ...]``): an id the
  seat saw leave one of those piles for a place it cannot see is remembered with the set of
  places it may be in now (its *region*). While the id moves among places the seat cannot see,
  every place that received something unseen in the same step joins its region (the seat does
  not know which id moved, only that something did); when the seat sees the id again, or the
  id may have left the piles (a copy of it was built in the step), the memory is dropped.
  Beside it, per place the seat cannot see, the ids that place can hold (:meth:`Recorder.known`,
  a superset of its contents): nothing for a place empty when recording starts or emptied
  since, then the remembered ids that came in and what the unseen places that sent ids could
  hold; an id the seat saw leave a place it does not remember, or one that came from outside
  the piles, may be any id it has not seen, so a place that may have taken one can hold any.
  The true state always agrees with both (tests/bots/test_sampler_memory.py).

A place is ``("g", name)`` for a global pile or ``(seat, name)`` for a seat's pile; only piles
(lists of ids) are followed (places.py names them, and which a seat cannot see). A hidden
counter named in ``remember:`` (a score whose every change all seats see, kept face down only
to spare them the counting) needs no recording: the sampler keeps its true value
(infoset/worlds.py; the leak check verifies the claim, L006). The size of a pile hidden as
``all`` is followed for every seat alike: it stays known while each change of it can be worked
out from the sizes every seat sees (:meth:`Recorder.told_sizes`).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from interpreter.dsl.runtime.loglines import line_for
from interpreter.infoset.changes import Journal
from interpreter.infoset.places import Place, kin_places, pile_places, unseen_by, untold_places
from interpreter.infoset.position import Position

__all__ = ["Memo", "Place", "Recorder", "view_digest"]


Memo = tuple[str, frozenset]  # (id, the places it may be in)
# one step's moves of ids: per place, the ids that left it, those that came in, its size before
Moves = tuple[dict[Place, Counter], dict[Place, Counter], dict[Place, int]]


def view_digest(view: Mapping[str, Any]) -> str:
    """A short canonical digest of a view (equal views, equal digests)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


class Recorder:
    """Each seat's observations (with ``observations=True``) and memory (where the ruleset
    declares one), kept up to date by ``State.apply``."""

    __slots__ = (
        "steps",
        "observations",
        "_memory",
        "_known",
        "_moves",
        "_readers",
        "_mark",
        "_piles",
        "_places",
        "_unseen",
        "_everywhere",
        "_remember",
        "_untold",
        "_told",
    )

    def __init__(self, state: Position, *, observations: bool = True) -> None:
        rules = state.game.rules
        seats = len(state.p)
        self.observations = observations
        self.steps: list[list[tuple]] = [[] for _ in range(seats)]
        self._mark = 0
        self._remember = rules.remember
        # every pile place, and per seat the ones it cannot see (hidden globals, others' hidden)
        self._places: list[Place] = pile_places(rules, seats)
        self._unseen: list[frozenset[Place]] = [
            unseen_by(rules, self._places, seat) for seat in range(seats)
        ]
        # per seat and place: the unseen places of the same collection (an id remembered in
        # all of them is not remembered anywhere in particular: the memory is dropped)
        collections = rules.collections
        self._everywhere: list[dict[Place, frozenset[Place]]] = [
            kin_places(collections, unseen) for unseen in self._unseen
        ]
        follows = any(name in rules.remember for _holder, name in self._places)
        self._piles: dict[Place, tuple] | None = self._snapshot(state) if follows else None
        # the steps' moves of ids not yet worked into every seat's memory (changes.py), and
        # each seat's place in them
        self._moves: Journal[Moves] = Journal()
        self._readers = [self._moves.reader() for _ in range(seats)]
        self._memory: list[list[Memo]] = [[] for _ in range(seats)]
        # per seat, per place it cannot see: the ids that place can hold (a superset of its
        # contents), or None while it may hold any unseen id. A place empty when recording
        # starts holds nothing; one emptied and refilled only from known ids holds those.
        piles = self._piles
        self._known: list[dict[Place, Counter | None]] = [
            {pl: (None if piles[pl] else Counter()) for pl in unseen} if piles is not None else {}
            for unseen in self._unseen
        ]
        # per collection with places no seat but their owner is told the size of (`hidden:
        # all`): those places, and every place of the collection; and the places whose size the
        # public history fixes (every id that entered or left them was seen go: _tell_sizes)
        self._untold = untold_places(rules, self._places)
        self._told: frozenset[Place] = frozenset(
            pl
            for untold, _kin in self._untold.values()
            for pl in untold
            if piles is not None and not piles[pl]
        )
        if observations:
            self._observe(state, None, None)

    def copy(self) -> Recorder:
        """An independent copy (for a recorded state's copy that goes on recording)."""
        for seat in range(len(self._readers)):
            self._catch_up(seat)
        new = Recorder.__new__(Recorder)
        new.observations = self.observations
        new.steps = [list(x) for x in self.steps]
        new._memory = [list(x) for x in self._memory]
        new._known = [dict(x) for x in self._known]  # the Counters are replaced, never changed
        new._moves = Journal()
        new._readers = [new._moves.reader() for _ in self._readers]
        new._mark = 0  # a recording copy starts with an empty log of its own
        new._piles = self._piles  # the tuples are replaced, never changed
        new._places = self._places
        new._unseen = self._unseen
        new._everywhere = self._everywhere
        new._remember = self._remember
        new._untold = self._untold
        new._told = self._told
        return new

    def rebase(self, state: Position) -> Recorder:
        """A copy that goes on recording on `state`, a world drawn for one seat that shares
        this history (its piles hold other ids, so the next step is compared with them)."""
        new = self.copy()
        if new._piles is not None:
            new._piles = new._snapshot(state)
        return new

    # -- reading -------------------------------------------------------------------------
    def memory(self, seat: int) -> list[Memo]:
        """The ids `seat` remembers, each with the places it may be in now."""
        self._catch_up(seat)
        return self._memory[seat]

    def known(self, seat: int) -> dict[Place, Counter | None]:
        """Per place `seat` cannot see: the ids it can hold (None: any unseen id)."""
        self._catch_up(seat)
        return self._known[seat]

    def told_sizes(self) -> frozenset[Place]:
        """The places hidden as ``all`` whose size every seat can work out from what it was
        shown (empty when recording started, and changed since only as _tell_sizes says)."""
        return self._told

    def information_state(self, seat: int) -> list[dict[str, Any]]:
        """The seat's observations, oldest first, as JSON-able dicts."""
        return [
            {"mover": m, "chose": o, "log": list(log), "view": v}
            for m, o, log, v in self.steps[seat]
        ]

    def information_string(self, seat: int) -> str:
        """The same history as one compact string (OpenSpiel's information state string)."""
        return "\n".join(
            f"{'-' if m is None else m}|{o or ''}|{' / '.join(log)}|{v}"
            for m, o, log, v in self.steps[seat]
        )

    # -- recording ------------------------------------------------------------------------
    def observe(self, state: Position, mover: int | None, option_id: str | None) -> None:
        """Note the step just taken (``mover`` chose ``option_id``) for every seat."""
        before = self._piles
        if before is not None:
            after = self._snapshot(state)
            removed: dict[Place, Counter] = {}
            added: dict[Place, Counter] = {}
            sizes: dict[Place, int] = {}
            for pl in self._places:
                old, new = before[pl], after[pl]
                if old != new:
                    gone, came = _moved(old, new)
                    if gone or came:  # a pile only reordered moved nothing
                        removed[pl] = gone
                        added[pl] = came
                        sizes[pl] = len(old)
            if removed:
                self._moves.append((removed, added, sizes))
            if self._told:
                self._tell_sizes(before, after, mover)
            self._piles = after
        if self.observations:
            self._observe(state, mover, option_id)

    def _observe(self, state: Position, mover: int | None, option_id: str | None) -> None:
        log = state.log
        lines: tuple[str, ...] = ()
        if log is not None:
            lines = tuple(text for _round, _seat, text in log[self._mark :])
            self._mark = len(log)
        view = state.game.view
        for seat, steps in enumerate(self.steps):
            # each line as this seat reads it: its own text where the line is its own
            shown = tuple(line_for(text, seat) for text in lines)
            steps.append(
                (mover, option_id if mover == seat else None, shown, view_digest(view(state, seat)))
            )

    def _snapshot(self, state: Position) -> dict[Place, tuple]:
        g, p = state.g, state.p
        return {
            pl: tuple(p[pl[0]][pl[1]] if isinstance(pl[0], int) else g[pl[1]])
            for pl in self._places
        }

    def _catch_up(self, seat: int) -> None:
        """Work the steps `seat` has not yet taken in into its memory."""
        for moves in self._readers[seat].take():
            self._step(seat, *moves)

    def _step(
        self,
        seat: int,
        removed: dict[Place, Counter],
        added: dict[Place, Counter],
        sizes: dict[Place, int],
    ) -> None:
        """One step's moves of ids, as `seat` saw them, worked into its memory."""
        remember = self._remember
        unseen = self._unseen[seat]
        if unseen.isdisjoint(removed) and not any(
            pl[1] in remember for pl, gone in removed.items() if gone
        ):
            return  # nothing the seat cannot see changed, nothing left a remembered pile
        memos = self._memory[seat]
        # what arrived where the seat can see it (it sees those ids again)
        shown: Counter = Counter()
        for pl, ids in added.items():
            if ids and pl not in unseen:
                shown.update(ids)
        back = shown.copy()  # (the loop below takes from `shown`)
        # places that received something the seat cannot see
        hidden_dest = frozenset(pl for pl, ids in added.items() if ids and pl in unseen)
        kept = self._kept(seat, memos, removed, shown, _left_the_piles(removed, added), hidden_dest)
        followed, untracked = _follow(unseen, remember, removed, added, back, hidden_dest, kept)
        memos[:] = kept
        self._update_known(self._known[seat], unseen, sizes, removed, added, followed, untracked)

    def _kept(
        self,
        seat: int,
        memos: list[Memo],
        removed: dict[Place, Counter],
        shown: Counter,
        died: Counter,
        hidden_dest: frozenset[Place],
    ) -> list[Memo]:
        """The seat's memories after a step: each kept, widened to the hidden places ids went
        to, or forgotten (seen again, or possibly the id that left the piles)."""
        kept: list[Memo] = []
        regions: dict[frozenset, list[Place]] = {}  # many memos share one region
        for x, region in memos:
            lost = regions.get(region)
            if lost is None:
                lost = regions[region] = [pl for pl in region if removed.get(pl)]
            if not lost:
                kept.append((x, region))
            elif shown[x] and any(removed[pl][x] for pl in lost):
                shown[x] -= 1  # seen again: no memory needed
            elif died[x] and any(removed[pl][x] for pl in lost):
                pass  # it may be the one that left the piles (built, say): forgotten
            elif hidden_dest:
                everywhere = self._everywhere[seat][lost[0]]
                wider = region | (hidden_dest & everywhere)
                if wider != everywhere:
                    kept.append((x, wider))
                # else: it may be in any place it could be: nothing left to remember
            # else: something left its region for nowhere the piles follow: forgotten
        return kept

    def _tell_sizes(
        self, before: dict[Place, tuple], after: dict[Place, tuple], mover: int | None
    ) -> None:
        """Keep a told place's size told where a seat can work its change out: in this step it
        is the only place of its collection of untold size whose size changed, every other
        place of the collection shows its size (so the ids the place gained or lost are those
        the others lost or gained: their count is kept), and it is the mover's own or the only
        such place of the collection (whose place changed is then no secret either)."""
        told = set(self._told)
        for untold, kin in self._untold.values():
            changed = [pl for pl in untold if len(before[pl]) != len(after[pl])]
            if not changed:
                continue
            kept = len(changed) == 1 and (len(untold) == 1 or changed[0][0] == mover)
            if not kept or sum(len(after[pl]) - len(before[pl]) for pl in kin) != 0:
                told.difference_update(changed)
        self._told = frozenset(told)

    @staticmethod
    def _update_known(
        known: dict[Place, Counter | None],
        unseen: frozenset[Place],
        sizes: dict[Place, int],
        removed: dict[Place, Counter],
        added: dict[Place, Counter],
        followed: dict[Place, Counter],
        untracked: bool,
    ) -> None:
        """What each unseen place can hold after the step: what stayed (a subset of what it
        could hold; nothing when it was emptied), the remembered ids that came in, and any
        other arrival (a *stray*: an id that came in unfollowed), which can be any id that
        left a place in the step without the seat following it.

        Strays are traced to the unseen places that lost ids (what those could hold) only when
        nothing else can have sent one: an id the seat saw leave a place it does not remember
        (``untracked``) may have gone into any unseen place that received something, and ids
        that entered the piles from outside them (more came into places than left places) may
        be any id. Either way each place that took a stray may hold any unseen id (None), even
        in a step where no unseen place lost an id: the seat saw the cards go, but did not
        keep which they were."""
        sources: Counter | None = None
        traced = False  # the strays' sources, worked out at the first stray
        new: dict[Place, Counter | None] = {}
        nothing: Counter = Counter()
        for pl, gone in removed.items():
            if pl not in unseen:
                continue
            came = added[pl]
            stayed = sizes[pl] - gone.total()
            can: Counter | None = known[pl] if stayed > 0 else Counter()
            if can is not None:
                came_followed = followed.get(pl, nothing)
                can = can + came_followed
                if came.total() > came_followed.total():
                    if not traced:
                        sources = _stray_sources(known, unseen, removed, added, untracked)
                        traced = True
                    can = None if sources is None else can + sources
            new[pl] = can
        known.update(new)


def _follow(
    unseen: frozenset[Place],
    remember: tuple[str, ...],
    removed: dict[Place, Counter],
    added: dict[Place, Counter],
    back: Counter,
    hidden_dest: frozenset[Place],
    kept: list[Memo],
) -> tuple[dict[Place, Counter], bool]:
    """Ids leaving a remembered pile the seat sees, into a place it cannot see, added to
    ``kept``; per such place the ids followed into it, and whether ids left a place the seat
    sees for one it does not unfollowed (forgotten).

    A copy that came into sight in the same step (``back``, even one taken for a memory seen
    again) may be the one that left: it is not followed, or the seat would "remember" another
    copy the step moved unseen (one drawn by another seat while its own went into its hand),
    which it never saw."""
    arrived = {dest: added[dest].copy() for dest in sorted(hidden_dest, key=repr)}
    followed: dict[Place, Counter] = {dest: Counter() for dest in arrived}
    untracked = False
    for pl, gone in removed.items():
        if pl in unseen or not gone:
            continue
        if pl[1] not in remember:
            untracked = True
            continue
        for x, n in gone.items():
            seen = min(n, back[x])
            if seen:
                n -= seen
                back[x] -= seen
            for dest, ids in arrived.items():
                while n and ids[x] > 0:
                    kept.append((x, frozenset((dest,))))
                    followed[dest][x] += 1
                    ids[x] -= 1
                    n -= 1
    return followed, untracked


def _stray_sources(
    known: dict[Place, Counter | None],
    unseen: frozenset[Place],
    removed: dict[Place, Counter],
    added: dict[Place, Counter],
    untracked: bool,
) -> Counter | None:
    """The ids a stray of this step may be (see ``Recorder._update_known``): what the unseen
    places that lost ids could hold, or None (any id) when an id the seat stopped following
    or one from outside the piles may have come in."""
    if untracked:
        return None
    if sum(c.total() for c in added.values()) > sum(c.total() for c in removed.values()):
        return None  # ids came into the piles from outside them
    sources: Counter = Counter()
    for pl, gone in removed.items():
        if gone and pl in unseen:
            can = known[pl]
            if can is None:
                return None
            sources.update(can)
    return sources


def _left_the_piles(removed: dict[Place, Counter], added: dict[Place, Counter]) -> Counter:
    """The ids that left the piles in a step (built into an area, say: somewhere the recorder
    does not follow), each with how many copies."""
    out: Counter = Counter()
    for gone in removed.values():
        out.update(gone)
    for came in added.values():
        out.subtract(came)
    return +out


_NONE: Counter = Counter()  # shared: the notes of a step are read, never changed


def _moved(old: tuple, new: tuple) -> tuple[Counter, Counter]:
    """The ids that left a pile and those that came in, between two of its contents. Most
    steps draw from or put onto one end, which needs no count of the whole pile."""
    n, m = len(old), len(new)
    if m < n:
        if old[:m] == new:
            return Counter(old[m:]), _NONE
        if old[n - m :] == new:
            return Counter(old[: n - m]), _NONE
    elif m > n:
        if new[:n] == old:
            return _NONE, Counter(new[n:])
        if new[m - n :] == old:
            return _NONE, Counter(new[: m - n])
    was, now = Counter(old), Counter(new)
    return was - now, now - was
