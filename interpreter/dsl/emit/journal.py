"""A journal build's notes: what the generated code of a game built with ``journal=True``
wrote to its state, so that a reader of the state (the agent environment's encoder) looks at
what changed instead of comparing every field.

Every write a rule makes goes through assignments.py or one of the builtins that change a
collection in place (draw, push, shuffle, clear, remove, place). In a journal build each one
also appends ``(container, key)`` to the state's journal ``s.tj`` (a list; None on a state
that keeps none, such as a copy): the dict or list written and the key written in it (None
where the write may have changed any of its entries); an assignment that leaves the entry
holding the very object it held (a counter set to the value it had) changed nothing and
notes nothing. A field of a seat is
noted as ``(seat, name)`` and a global field as ``(-1, name)``; any other container is a value
held in a field (a bag, a list, a piece), so a reader that knows which field holds which
container finds each changed field; one it does not know means "compare everything". A draw, a
push or a removal notes the item too, as the key ``(-1, item)`` (taken from the end), ``(1,
item)`` (put on the end) or ``(0, item)`` (the first equal item taken out), so that a reader
may follow a pile item by item. Plain builds write no notes and pay nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.dsl.runtime import builtins
from interpreter.dsl.runtime.runtime_state import RunningState
from interpreter.dsl.runtime.support import set_field, set_field_in_range

__all__ = ["JOURNAL_BUILTINS", "journal_line", "noted_set_field", "noted_set_field_in_range"]


def journal_line(container: str, key: str, unless: str | None = None) -> str:
    """The generated line that notes a write of ``container[key]`` (Python expressions; the
    container a seat's number, or -1, for a field of that seat, or a global field), unless
    the expression ``unless`` holds (the write changed nothing)."""
    if unless is None:
        return f"if J is not None: J.append(({container}, {key}))"
    return f"if J is not None and not {unless}: J.append(({container}, {key}))"


def noted_set_field(s: RunningState, o: Any, name: str, value: Any, op: str | None) -> None:
    set_field(s, o, name, value, op)
    if s.tj is not None:
        s.tj.append((o, name))


def noted_set_field_in_range(
    s: RunningState, o: Any, name: str, value: Any, op: str | None, lo: int | None, hi: int | None
) -> None:
    try:
        set_field_in_range(s, o, name, value, op, lo, hi)
    finally:  # written before the range check raised: noted all the same
        if s.tj is not None:
            s.tj.append((o, name))


def _plain(name: str) -> Callable[..., Any]:
    func = builtins.BUILTINS[name].func
    assert func is not None  # (a reducer has none; these are functions)
    return func


_draw, _push, _shuffle, _clear, _remove, _place = (
    _plain(name) for name in ("draw", "push", "shuffle", "clear", "remove", "place")
)

# The builtins that change a collection in place, as a journal build calls them: each notes
# the collection it is given, then runs the plain builtin (one call each, no argument packing:
# a draw or a push is a few of a decision's steps)


def _noted_draw(s: RunningState, pile: list) -> Any:
    if s.tj is not None and pile:  # (an empty pile: nothing drawn, nothing written)
        s.tj.append((pile, (-1, pile[-1])))
    return _draw(s, pile)


def _noted_push(s: RunningState, pile: list, x: Any) -> None:
    if s.tj is not None:
        s.tj.append((pile, (1, x)))
    _push(s, pile, x)


def _noted_shuffle(s: RunningState, pile: list) -> None:
    if s.tj is not None:
        s.tj.append((pile, None))
    _shuffle(s, pile)


def _noted_clear(s: RunningState, x: Any) -> None:
    if s.tj is not None:
        s.tj.append((x, None))
    _clear(s, x)


def _noted_remove(s: RunningState, area: list, piece: Any) -> None:
    if s.tj is not None:
        s.tj.append((area, (0, piece)))
    _remove(s, area, piece)


def _noted_place(s: RunningState, kind: str, area: list) -> dict:
    if s.tj is not None:
        s.tj.append((area, None))
    return _place(s, kind, area)


JOURNAL_BUILTINS = {
    "draw": _noted_draw,
    "push": _noted_push,
    "shuffle": _noted_shuffle,
    "clear": _noted_clear,
    "remove": _noted_remove,
    "place": _noted_place,
}
