"""The builtin functions of the effect language: how many values each takes, which reduce a
collection (and so accept the `x for y in z` form), and the Python each one runs.

Reducers have no function here: generator.py writes them out as plain Python (sum, any, a
comprehension). A plain builtin runs `func(state, *values)`; generator.py writes a few of them
(len, total, keys, player) inline instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from dataclasses import dataclass
from typing import Any

from interpreter.dsl.runtime.runtime_state import RunningState
from interpreter.dsl.runtime.support import RuntimeRuleError, short


@dataclass(frozen=True)
class Builtin:
    min_args: int
    max_args: int
    func: Callable[..., Any] | None = None  # None: a reducer

    @property
    def is_reducer(self) -> bool:
        return self.func is None


def _len(s: RunningState, x: Sized) -> int:
    return len(x)


def _abs(s: RunningState, x: int) -> int:
    return abs(x)


def _total(s: RunningState, bag: dict) -> int:
    return sum(bag.values())


def _keys(s: RunningState, bag: dict) -> list:
    return [k for k, n in bag.items() if n > 0]


def _player(s: RunningState, i: int) -> int:
    n = len(s.p)
    if not 0 <= i < n:
        raise RuntimeRuleError(
            f"player({i}): no seat {i} in a {n}-player game (seats 0 to {n - 1}); "
            "to count round the table use seat-after(seat, steps)"
        )
    return i


def _seat_after(s: RunningState, seat: int, steps: int) -> int:
    return (seat + steps) % len(s.p)


def _seats_from(s: RunningState, i: int) -> list[int]:
    n = len(s.p)
    return [(i + k) % n for k in range(n)]


# A piece (a dict) moving into or out of a list may change what a seat's pieces grant: the
# seats' kept totals (engine/machine.py ability_reader) are dropped, as by place and remove.


def _draw(s: RunningState, pile: list) -> Any:
    if not pile:
        return None
    x = pile.pop()
    if s.ab and type(x) is dict:
        s.ab.clear()
    return x


def _push(s: RunningState, pile: list, x: Any) -> None:
    if s.ab and type(x) is dict:
        s.ab.clear()
    pile.append(x)


def _shuffle(s: RunningState, pile: list) -> None:
    s.rng.shuffle(pile)


def _clear(s: RunningState, x: dict[str, int] | list[Any]) -> None:
    if isinstance(x, dict):
        for k in x:
            x[k] = 0
    else:
        if s.ab and any(type(v) is dict for v in x):
            s.ab.clear()
        x.clear()


def _remove(s: RunningState, area: list, piece: Any) -> None:
    for i, x in enumerate(area):
        if x is piece or x == piece:
            if s.ab:
                s.ab.clear()
            del area[i]
            return
    raise RuntimeRuleError(f"{short(piece)} is not there to remove")


def _has(s: RunningState, area: list[dict[str, Any]], kind: str) -> bool:
    for x in area:
        if x["type"] == kind:
            return True
    return False


def _find(s: RunningState, area: list[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    for x in area:
        if x["type"] == kind:
            return x
    return None


def _place(s: RunningState, kind: str, area: list) -> dict:
    piece = {"type": kind, **s.game.env.piece_defaults[kind]}
    if s.ab:
        s.ab.clear()
    area.append(piece)
    return piece


def _range(s: RunningState, a: int, b: int | None = None) -> range:
    start, stop = (0, a) if b is None else (a, b)
    if stop - start > 100_000:
        raise RuntimeRuleError(f"range({start}, {stop}) is too long")
    return range(start, max(start, stop))


def _random(s: RunningState, n: int) -> int:
    return s.rng.randrange(n) if n > 0 else 0


BUILTINS: dict[str, Builtin] = {
    "sum": Builtin(1, 1),
    "count": Builtin(1, 1),
    "any": Builtin(1, 1),
    "all": Builtin(1, 1),
    "first": Builtin(1, 1),
    "list": Builtin(1, 1),
    "distinct": Builtin(1, 1),
    "range": Builtin(1, 2, _range),
    "min": Builtin(1, 9),
    "max": Builtin(1, 9),
    "len": Builtin(1, 1, _len),
    "abs": Builtin(1, 1, _abs),
    "total": Builtin(1, 1, _total),
    "keys": Builtin(1, 1, _keys),
    "player": Builtin(1, 1, _player),
    "seats-from": Builtin(1, 1, _seats_from),
    "seat-after": Builtin(2, 2, _seat_after),
    "draw": Builtin(1, 1, _draw),
    "push": Builtin(2, 2, _push),
    "shuffle": Builtin(1, 1, _shuffle),
    "clear": Builtin(1, 1, _clear),
    "remove": Builtin(2, 2, _remove),
    "has": Builtin(2, 2, _has),
    "find": Builtin(2, 2, _find),
    "place": Builtin(2, 2, _place),
    "random": Builtin(1, 1, _random),
}
