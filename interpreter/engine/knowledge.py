"""What each seat knows: its whole history of observations (perfect recall) and what it
remembers of ids that left its sight.

A :class:`Recorder` rides on a state that asks for it (``Game.new_state(seed, record=True)``,
or by default a game whose ruleset declares ``state: remember:``); copies for tree search drop
it (``State.copy()``), so search and simulation never pay for it. After every decision it
notes, for every seat:

* an *observation*: who decided, the option the seat chose when it was its own decision (never
  another seat's option id), the log lines the step added (the log goes to every seat), and a
  digest of the seat's view after the step. The seat's information state is the list of its
  observations from the first view on (:meth:`Recorder.information_state`): two histories the
  seat can tell apart give different lists, two it cannot tell apart give equal ones;
* its *memory*, where the ruleset declares one (``state: remember: [pile, ...]``): an id the
  seat saw leave one of those piles for a place it cannot see is remembered with the set of
  places it may be in now (its *region*). While the id moves among places the seat cannot see,
  every place that received something unseen in the same step joins its region (the seat does
  not know which id moved, only that something did); when the seat sees the id again, or the
  id leaves the piles for good, the memory is dropped.

A place is ``("g", name)`` for a global pile or ``(seat, name)`` for a seat's pile; only piles
(lists of ids) are followed.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.state import State

__all__ = ["Memo", "Place", "Recorder", "view_digest"]

Place = tuple[Any, str]  # ("g", field) or (seat, field)
Memo = tuple[str, frozenset]  # (id, the places it may be in)


def view_digest(view: dict[str, Any]) -> str:
    """A short canonical digest of a view (equal views, equal digests)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


class Recorder:
    """Each seat's observations and memory, kept up to date by ``State.apply``."""

    __slots__ = ("steps", "memory", "known", "_mark", "_piles", "_places", "_unseen")

    def __init__(self, state: State) -> None:
        rules = state.game.rules
        seats = len(state.p)
        self.steps: list[list[tuple]] = [[] for _ in range(seats)]
        self.memory: list[list[Memo]] = [[] for _ in range(seats)]
        self._mark = 0
        # every pile place, and per seat the ones it cannot see (hidden globals, others' hidden)
        self._places: list[Place] = [
            ("g", n) for n, (kind, _s) in rules.global_init.items() if kind == "pile"
        ] + [
            (seat, n)
            for seat in range(seats)
            for n, (kind, _s) in rules.player_init.items()
            if kind == "pile"
        ]
        self._unseen: list[frozenset[Place]] = [
            frozenset(
                pl
                for pl in self._places
                if (pl[0] == "g" and pl[1] in rules.hidden_global)
                or (pl[0] != "g" and pl[0] != seat and pl[1] in rules.hidden_player)
            )
            for seat in range(seats)
        ]
        self._piles: dict[Place, Counter] | None = self._snapshot(state) if rules.remember else None
        # per seat, per place it cannot see: the ids that place can hold (a superset of its
        # contents), or None while it may hold any unseen id. A place empty when recording
        # starts holds nothing; one emptied and refilled only from known ids holds those.
        self.known: list[dict[Place, Counter | None]] = (
            [
                {
                    pl: (Counter() if self._piles is not None and not self._piles[pl] else None)
                    for pl in self._unseen[seat]
                }
                for seat in range(seats)
            ]
            if self._piles is not None
            else [{} for _ in range(seats)]
        )
        self._observe(state, None, None)

    def copy(self) -> Recorder:
        """An independent copy (for a recorded state's copy that goes on recording)."""
        new = Recorder.__new__(Recorder)
        new.steps = [list(x) for x in self.steps]
        new.memory = [list(x) for x in self.memory]
        new.known = [dict(x) for x in self.known]  # the Counters are replaced, never changed
        new._mark = 0  # a recording copy starts with an empty log of its own
        new._piles = dict(self._piles) if self._piles is not None else None
        new._places = self._places
        new._unseen = self._unseen
        return new

    def rebase(self, state: State) -> Recorder:
        """A copy that goes on recording on `state`, a world drawn for one seat that shares
        this history (its piles hold other ids, so the next step is compared with them)."""
        new = self.copy()
        if new._piles is not None:
            new._piles = new._snapshot(state)
        return new

    # -- reading -------------------------------------------------------------------------
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
    def observe(self, state: State, mover: int | None, option_id: str | None) -> None:
        """Note the step just taken (``mover`` chose ``option_id``) for every seat."""
        if self._piles is not None:
            after = self._snapshot(state)
            self._remember(state, self._piles, after)
            self._piles = after
        self._observe(state, mover, option_id)

    def _observe(self, state: State, mover: int | None, option_id: str | None) -> None:
        log = state.log
        lines: tuple[str, ...] = ()
        if log is not None:
            lines = tuple(text for _round, _seat, text in log[self._mark :])
            self._mark = len(log)
        view = state.game.view
        for seat, steps in enumerate(self.steps):
            steps.append(
                (mover, option_id if mover == seat else None, lines, view_digest(view(state, seat)))
            )

    def _snapshot(self, state: State) -> dict[Place, Counter]:
        g, p = state.g, state.p
        return {pl: Counter(g[pl[1]] if pl[0] == "g" else p[pl[0]][pl[1]]) for pl in self._places}

    def _remember(
        self, state: State, before: dict[Place, Counter], after: dict[Place, Counter]
    ) -> None:
        remember = state.game.rules.remember
        removed = {pl: before[pl] - after[pl] for pl in self._places}
        added = {pl: after[pl] - before[pl] for pl in self._places}
        if not any(removed.values()) and not any(added.values()):
            return
        for seat, memos in enumerate(self.memory):
            unseen = self._unseen[seat]
            known = self.known[seat]
            # what arrived where the seat can see it (it sees those ids again)
            shown: Counter = Counter()
            for pl, ids in added.items():
                if ids and pl not in unseen:
                    shown.update(ids)
            # places that received something the seat cannot see
            hidden_dest = frozenset(pl for pl in unseen if added[pl])
            kept: list[Memo] = []
            for x, region in memos:
                lost = [pl for pl in region if removed[pl]]
                if not lost:
                    kept.append((x, region))
                elif shown[x] and any(removed[pl][x] for pl in lost):
                    shown[x] -= 1  # seen again: no memory needed
                elif hidden_dest:
                    kept.append((x, region | hidden_dest))
                # else: something left its region for nowhere the piles follow: forgotten
            # ids leaving a remembered pile the seat sees, into a place it cannot see
            arrived = {dest: added[dest].copy() for dest in sorted(hidden_dest, key=repr)}
            followed: dict[Place, Counter] = {dest: Counter() for dest in arrived}
            untracked = False  # ids left a place the seat sees for one it does not, forgotten
            for pl in self._places:
                if pl in unseen or not removed[pl]:
                    continue
                if pl[1] not in remember:
                    untracked = True
                    continue
                for x, n in removed[pl].items():
                    for dest, ids in arrived.items():
                        while n and ids[x] > 0:
                            kept.append((x, frozenset((dest,))))
                            followed[dest][x] += 1
                            ids[x] -= 1
                            n -= 1
            memos[:] = kept
            self._update_known(known, unseen, before, removed, added, followed, untracked)

    @staticmethod
    def _update_known(
        known: dict[Place, Counter | None],
        unseen: frozenset[Place],
        before: dict[Place, Counter],
        removed: dict[Place, Counter],
        added: dict[Place, Counter],
        followed: dict[Place, Counter],
        untracked: bool,
    ) -> None:
        """What each unseen place can hold after the step: what stayed (a subset of what it
        could hold; nothing when it was emptied), the remembered ids that came in, and any
        other arrival from the unseen places that lost ids (what those could hold)."""
        losing = [pl for pl in unseen if removed[pl]]
        sources: Counter | None = Counter()
        for pl in losing:
            if known[pl] is None or untracked:
                sources = None
                break
            sources.update(known[pl])
        new: dict[Place, Counter | None] = {}
        for pl in unseen:
            if not removed[pl] and not added[pl]:
                continue
            stayed = before[pl].total() - removed[pl].total()
            can: Counter | None = known[pl] if stayed > 0 else Counter()
            if can is not None:
                can = can + followed.get(pl, Counter())
                if added[pl].total() > followed.get(pl, Counter()).total():
                    can = None if sources is None else can + sources
            new[pl] = can
        known.update(new)
