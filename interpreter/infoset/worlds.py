"""A seat's information set: its view of a state, and full states drawn consistently with it.

Tree search over a game with hidden information plays on *determinisations*: full states that
agree with everything one seat knows, the rest drawn at random. The engine makes them, so
hidden information still never leaves it: :func:`determinise` reads the true state only where
the seat may look (its own fields, the public ones, the sizes of piles whose size is shown),
the ruleset's declarations of what is hidden (``hidden: true|all`` on state fields) and, on a
state that records them, what the seat remembers (infoset/knowledge.py):

* every hidden pile the seat cannot see (another seat's hand, a deck, a face-down stack) is
  refilled from the pool of ids the seat has not seen, collection by collection (the pool is
  the sorted contents of those piles together: which unseen pile holds which id does not
  matter), keeping each pile's size where the seat is shown it; piles hidden as ``all`` share
  what is left evenly;
* first, though, each id the seat remembers goes to a place it may be in (a passed card to
  the hand it was passed to), and each place whose possible contents the seat knows (a hand
  refilled only from cards it passed) is filled from those; a remembered id has a place, not
  a position: the pile is shuffled;
* another seat's hidden counter or value (a score kept face down) is guessed as the seat's
  own (for a spectator, drawn as a hidden global is), unless the ruleset names it in
  ``remember:`` (every change of it is seen, so a seat with perfect recall knows it: it keeps
  its true value); a hidden global counter or value is drawn from what the ruleset lets it
  be (a counter declaring ``min`` and ``max``: uniformly between them; otherwise its start
  value);
* places whose size the seat is not told (``hidden: all``) share the ids the sized places
  leave (one the seat knows can hold only some ids takes only those), except those whose
  size the public history fixes (every id that entered or left them was seen go:
  infoset/knowledge.py, ``Recorder.told_sizes``), which keep their size;
* the random generator is reseeded, so shuffles and draws to come are unknown too.

So two states that differ only in what this seat cannot see give the same determinisations
for the same generator (tests/bots/test_search.py checks it), and every determinisation of the
toy secret draft is a world the seat's history cannot rule out
(tests/bots/test_sampler_consistency.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, Generic, Protocol, TypeVar, cast

from interpreter.dsl.runtime.support import initial_value
from interpreter.infoset.knowledge import Memo, Place, Recorder
from interpreter.infoset.position import Position, SecretRules

__all__ = ["SeatView", "World", "determinise"]


class World(Position, Protocol):
    """A game in progress as a determinisation reads and redraws it (the engine's ``State``):
    a copy of it to redraw, reseeded, what its seats remember, what one seat sees."""

    def copy(self: W, *, recording: bool = False) -> W: ...

    def reseed(self, seed: int) -> None: ...

    def remembered(self) -> Recorder | None: ...

    def view(self, seat: int, *, every_seat: bool = False) -> Mapping[str, Any]: ...


W = TypeVar("W", bound=World)  # a state: a world drawn from it is of its own class


def determinise(state: W, seat: int, rng: random.Random) -> W:
    """A full copy of `state` whose hidden parts `seat` cannot see are drawn with `rng`
    (a `seat` that is none of the game's, such as -1, is a spectator: every seat's hidden
    fields are drawn)."""
    return _draw(state, _Plan(state, seat), rng)


# a container of a state: "g" for the globals, else a seat's index
Owner = str | int


class _Plan:
    """What :func:`determinise` redraws for one seat at one state, worked out once (it draws
    nothing, so every determinisation of a decision can share it): the hidden values to guess,
    in the order they are drawn, and per collection the sorted pool of unseen ids, the places
    they refill and what the seat remembers of them."""

    __slots__ = ("decisions", "scalars", "pools", "known", "own")

    def __init__(self, state: World, seat: int) -> None:
        rules = state.game.rules
        self.decisions = state.decisions
        collections = rules.collections
        hidden_all = rules.hidden_all
        # each hidden value guessed: (owner, field, "prior" | "own" | "prior-player")
        self.scalars: list[tuple[Owner, str, str]] = []
        # (owner, field, size or None when the seat is not told the size, place), per collection
        holes: dict[str, list[tuple[Owner, str, int | None, Place]]] = {}
        pools: dict[str, list[Any]] = {}

        # places hidden as `all` whose size the public history fixes (infoset/knowledge.py)
        history = state.remembered()
        told = history.told_sizes() if history is not None else frozenset()

        def unseen(owner: Owner, name: str, value: list[Any], place: Place) -> None:
            key = collections.get(name, name)
            size = None if name in hidden_all and place not in told else len(value)
            holes.setdefault(key, []).append((owner, name, size, place))
            pools.setdefault(key, []).extend(value)

        g = state.g
        for name in sorted(rules.hidden_global):
            value = g.get(name)
            if type(value) is list:
                unseen("g", name, value, ("g", name))
            elif name in g:
                self.scalars.append(("g", name, "prior"))
        # a seat out of range is a spectator: no seat's hidden fields are its own
        own = state.p[seat] if 0 <= seat < len(state.p) else None
        remembered = rules.remember
        for i, pl in enumerate(state.p):
            if pl is own:
                continue
            for name in sorted(rules.hidden_player):
                value = pl.get(name)
                if type(value) is list:
                    unseen(i, name, value, (pl["seat"], name))
                elif name in remembered or name not in pl:
                    continue
                else:
                    self.scalars.append((i, name, "prior-player" if own is None else "own"))
        memos: dict[str, list[Memo]] = {}
        known: dict[Place, Counter | None] = {}
        rec = state.remembered() if own is not None else None  # a spectator's is not kept
        if rec is not None:
            for x, region in rec.memory(seat):
                name = next(iter(region))[1]
                memos.setdefault(collections.get(name, name), []).append((x, region))
            known = rec.known(seat)
            for place, can in known.items():
                if can is not None:
                    memos.setdefault(collections.get(place[1], place[1]), [])
        self.known = known
        # per collection: its sorted pool, its places and, where the seat remembers ids of it,
        # the memos and how the places may be filled (the same at every draw: _fitting)
        self.pools = []
        for key in sorted(pools):
            pool = sorted(pools[key], key=repr)
            memo = memos.get(key)
            fitting = _fitting(holes[key], known, len(pool)) if memo is not None else None
            self.pools.append((pool, holes[key], memo, fitting))
        self.own = seat if own is not None else None


def _fitting(
    holes: list[tuple[Owner, str, int | None, Place]], known: dict[Place, Counter | None], n: int
) -> tuple[dict[Place, int | None], list[Place], int]:
    """What :func:`_place_known` reads of a collection's places, worked out once a plan: each
    place's room (None: the seat is not told its size), the sized places whose possible
    contents are known (fewest first), and how many of the pool's ``n`` ids the places of
    untold size share."""
    room = {place: size for _owner, _name, size, place in holes}
    limited = sorted(
        (place for place in room if known.get(place) is not None and room[place] is not None),
        key=lambda place: (cast(Counter, known[place]).total(), repr(place)),
    )
    return room, limited, n - sum(size for size in room.values() if size is not None)


def _draw(state: W, plan: _Plan, rng: random.Random) -> W:
    """One determinisation of `state` by `plan` (see :func:`determinise`)."""
    rules = state.game.rules
    d = state.copy()
    d.reseed(rng.getrandbits(64))
    g, players = d.g, d.p
    for owner, name, how in plan.scalars:
        if how == "prior":
            g[name] = _prior(rules, name, rng)
        elif how == "own":
            players[cast(int, owner)][name] = _copy_plain(players[cast(int, plan.own)][name])
        else:
            players[cast(int, owner)][name] = _prior(rules, name, rng, "player")
    known = plan.known
    for sorted_pool, holes, memos, fitting in plan.pools:
        pool = list(sorted_pool)
        _shuffle(rng, pool)
        boxes = [
            (g if owner == "g" else players[cast(int, owner)], name, size, place)
            for owner, name, size, place in holes
        ]
        placed = (
            _place_known(memos, known, fitting, pool, rng)
            if memos is not None and fitting is not None
            else None
        )
        for box, name, size, place in boxes:
            if size is not None:
                kept = placed.pop(place, []) if placed else []
                box[name] = kept + pool[: size - len(kept)]
                del pool[: size - len(kept)]
                if kept:
                    _shuffle(rng, box[name])  # a place is remembered, never a position in it
        # places of untold size share what is left evenly, but one the seat knows can hold
        # only some ids (cards under a building never built: none) takes only those, first
        untold = [(box, name, place) for box, name, size, place in boxes if size is None]
        untold.sort(key=lambda u: known.get(u[2]) is None)
        for i, (box, name, place) in enumerate(untold):
            kept = placed.pop(place, []) if placed else []
            share = len(pool) // (len(untold) - i)
            can = known.get(place)
            if can is None or i == len(untold) - 1:  # the last one takes what is left
                box[name] = kept + pool[:share]
                del pool[:share]
            else:
                box[name] = kept + _take(pool, can - Counter(kept), share)
            if kept:
                _shuffle(rng, box[name])
    return d


def _take(pool: list[Any], can: Counter, n: int) -> list[Any]:
    """Up to `n` ids of `pool` that `can` allows (as many of each as it counts), in the
    pool's order, taken out of it."""
    taken: list[Any] = []
    left: list[Any] = []
    for x in pool:
        if len(taken) < n and can[x] > 0:
            can[x] -= 1
            taken.append(x)
        else:
            left.append(x)
    pool[:] = left
    return taken


def _place_known(
    memos: Any,
    known: dict[Place, Counter | None],
    fitting: tuple[dict[Place, int | None], list[Place], int],
    pool: list[Any],
    rng: random.Random,
) -> dict[Place, list[Any]]:
    """What the seat's memory puts where (infoset/knowledge.py): each id remembered in one
    place there, then each place whose possible contents are known filled from those, then
    each id remembered in one of several places in one with room (unless one already holds
    it). Each id placed leaves `pool`. A few random tries; when none fits everything, the one
    that missed least (what does not fit is drawn with the rest: the fallback docs/bots.md
    describes; ``fitting``: the places' room, the limited ones, the spare, by
    :func:`_fitting`)."""
    room, limited, spare = fitting
    best: _Placing | None = None
    for attempt in range(4):
        left = list(pool)
        if attempt:
            _shuffle(rng, left)
        order = list(memos)
        _shuffle(rng, order)
        order.sort(key=lambda m: len(m[1]))
        placing = _Placing(room, known, left, spare)
        placing.run(order, limited, rng)
        if best is None or placing.misses < best.misses:
            best = placing
        if not placing.misses:
            break
    assert best is not None
    pool[:] = best.left
    return best.placed


_NONE: dict[Any, int] = {}  # no id used yet in a place


class _Placing:
    """One try of :func:`_place_known`: what went where, what is left, how much did not fit."""

    def __init__(
        self, room: dict[Place, int | None], known: Any, left: list[Any], spare: int
    ) -> None:
        self.room = room
        self.known = known
        self.left = left
        self.spare = spare  # ids the places of untold size may still take together
        self.placed: dict[Place, list[Any]] = {}
        self.used: dict[Place, dict[Any, int]] = {}  # place -> id -> how many placed there
        self.misses = 0

    def fits(self, place: Place, x: Any) -> bool:
        size = self.room.get(place, 0)
        if size is None:
            if self.spare <= 0:
                return False
        elif len(self.placed.get(place, ())) >= size:
            return False
        can = self.known.get(place)
        if can is None:
            return True
        used = self.used.get(place)
        return (used.get(x, 0) if used else 0) < can.get(x, 0)

    def put(self, place: Place, x: Any) -> None:
        placed = self.placed.get(place)
        if placed is None:
            self.placed[place] = [x]
            self.used[place] = {x: 1}
        else:
            placed.append(x)
            used = self.used[place]
            used[x] = used.get(x, 0) + 1
        self.left.remove(x)
        if self.room.get(place, 0) is None:
            self.spare -= 1

    def run(self, order: list[Memo], limited: list[Place], rng: random.Random) -> None:
        claimed: Counter = Counter()  # (place, id) -> how many placed ids memos account for
        later = []
        for x, region in order:  # ids remembered in one place first
            if len(region) > 1:
                later.append((x, region))
                continue
            (place,) = region
            if x in self.left and place in self.room and self.fits(place, x):
                self.put(place, x)
                claimed[place, x] += 1
            else:
                self.misses += 1
        for place in limited:  # then places that can hold only known ids
            can = self.known[place]
            for x in list(filter(can.get, self.left)):  # (in C: about half the time)
                if x in self.left and self.fits(place, x):
                    self.put(place, x)
            self.misses += cast(int, self.room[place]) - len(self.placed.get(place, ()))
        for x, region in later:  # then ids remembered in one of several places
            places = sorted(region, key=repr)
            held = [pl for pl in places if self.used.get(pl, _NONE).get(x, 0) > claimed[pl, x]]
            if held:
                claimed[held[0], x] += 1
                continue
            free = [pl for pl in places if pl in self.room and self.fits(pl, x)]
            if x not in self.left or not free:
                self.misses += 1
                continue
            place = free[rng.randrange(len(free))]
            self.put(place, x)
            claimed[place, x] += 1


def _shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``, the same permutation from the same draws, at about twice its speed
    for the generator the engine uses (the method's bounded draw written inline: shuffles are a
    third of a determinisation); any other generator shuffles itself.
    tests/engine/test_infoset_shuffle.py checks the two agree."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _prior(rules: SecretRules, name: str, rng: random.Random, where: str = "global") -> Any:
    """A hidden scalar the seat cannot see (global, or a seat's for a spectator), drawn from
    what the ruleset lets it be: a counter declaring both `min` and `max` uniformly between
    them, any other its start value (a bag: its start counts). The true value never enters
    the draw."""
    kind, start = (rules.global_init if where == "global" else rules.player_init)[name]
    if kind == "counter":
        lo, hi = rules.env.ranges.get((where, name), (0, None))
        if lo is not None and hi is not None and hi >= lo:
            return rng.randint(lo, hi)
    return initial_value(kind, start)


def _copy_plain(value: Any) -> Any:
    if type(value) is list:
        return list(value)
    if type(value) is dict:
        return dict(value)
    return value


class SeatView(Mapping, Generic[W]):
    """What a bot is handed: the seat's view (built only when first read) and, for bots that
    search, :meth:`determinise`. Reading it as a mapping gives exactly ``state.view(seat)``.
    """

    __slots__ = ("_state", "_seat", "_view", "_plan")

    def __init__(self, state: W, seat: int) -> None:
        self._state = state
        self._seat = seat
        self._view: Mapping[str, Any] | None = None
        self._plan: _Plan | None = None

    def _get(self) -> Mapping[str, Any]:
        if self._view is None:
            self._view = self._state.view(self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    @property
    def seat(self) -> int:
        return self._seat

    def determinise(self, rng: random.Random) -> W:
        """A full state consistent with this seat's view (see :func:`determinise`). What to
        redraw is worked out on the first call and kept while the state has not moved on (a
        search draws many determinisations of one decision); the draws are the same as
        :func:`determinise`'s."""
        plan = self._plan
        if plan is None or plan.decisions != self._state.decisions:
            plan = self._plan = _Plan(self._state, self._seat)
        return _draw(self._state, plan, rng)

    @property
    def game(self) -> Any:
        """The compiled game being played (its rules, which every seat knows)."""
        return self._state.game

    def pending(self) -> dict[str, Any]:
        """The decision in front of this seat: each legal option id with the family and
        arguments that made it (what the legal list already says, nothing hidden), so that a
        learned bot can map an id to its place in a fixed action space."""
        return dict(self._state.pending or {})
