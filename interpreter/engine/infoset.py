"""A seat's information set: its view of a state, and full states drawn consistently with it.

Tree search over a game with hidden information plays on *determinisations*: full states that
agree with everything one seat has seen, the rest drawn at random. The engine makes them, so
hidden information still never leaves it: :func:`determinise` reads the true state only where
the seat may look (its own fields, the public ones, the sizes of piles whose size is shown) and
the ruleset's declarations of what is hidden (``hidden: true|all`` on state fields):

* every hidden pile the seat cannot see (another seat's hand, a deck, a face-down stack) is
  refilled from the pool of ids the seat has not seen, collection by collection (the pool is
  the sorted contents of those piles together: which unseen pile holds which id does not
  matter), keeping each pile's size where the seat is shown it; piles hidden as ``all`` share
  what is left evenly;
* another seat's hidden counter or value (a score kept face down) is guessed as the seat's own;
* the random generator is reseeded, so shuffles and draws to come are unknown too.

So two states that differ only in what this seat cannot see give the same determinisations
for the same generator (tests/bots/test_search.py checks it).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.state import State

__all__ = ["SeatView", "determinise"]


def determinise(state: State, seat: int, rng: random.Random) -> State:
    """A full copy of `state` whose hidden parts `seat` cannot see are drawn with `rng`."""
    rules = state.game.rules
    d = state.copy()
    d.reseed(rng.getrandbits(64))
    collections = rules.collections
    hidden_all = rules.hidden_all
    # (container, field, size or None when the seat is not told the size), per collection
    holes: dict[str, list[tuple[dict[str, Any], str, int | None]]] = {}
    pools: dict[str, list[Any]] = {}

    def unseen(box: dict[str, Any], name: str, value: list[Any]) -> None:
        key = collections.get(name, name)
        holes.setdefault(key, []).append((box, name, None if name in hidden_all else len(value)))
        pools.setdefault(key, []).extend(value)

    for name in sorted(rules.hidden_global):
        value = d.g.get(name)
        if type(value) is list:
            unseen(d.g, name, value)
    own = d.p[seat]
    for pl in d.p:
        if pl is own:
            continue
        for name in sorted(rules.hidden_player):
            value = pl.get(name)
            if type(value) is list:
                unseen(pl, name, value)
            elif name in own:
                pl[name] = _copy_plain(own[name])
    for key in sorted(pools):
        pool = sorted(pools[key], key=repr)
        rng.shuffle(pool)
        boxes = holes[key]
        for box, name, size in boxes:
            if size is not None:
                box[name] = pool[:size]
                del pool[:size]
        untold = [(box, name) for box, name, size in boxes if size is None]
        for i, (box, name) in enumerate(untold):
            share = len(pool) // (len(untold) - i)
            box[name] = pool[:share]
            del pool[:share]
    return d


def _copy_plain(value: Any) -> Any:
    if type(value) is list:
        return list(value)
    if type(value) is dict:
        return dict(value)
    return value


class SeatView(Mapping):
    """What a bot is handed: the seat's view (built only when first read) and, for bots that
    search, :meth:`determinise`. Reading it as a mapping gives exactly ``state.view(seat)``.
    """

    __slots__ = ("_state", "_seat", "_view")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self._seat = seat
        self._view: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
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

    def determinise(self, rng: random.Random) -> State:
        """A full state consistent with this seat's view (see :func:`determinise`)."""
        return determinise(self._state, self._seat, rng)
