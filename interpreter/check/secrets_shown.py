"""What a seat is shown that tells two worlds apart, and whether the rules meant to show it.

When a seat's views of the true world and of a drawn one (a world it cannot tell from the
true one before the move) come to differ during a move, the seat is shown something. The
rules mean to show it when the move *turns a card up*: in both worlds a card is shown where
the other world shows another (a public pile's contents, a bag holding as many pieces of other
kinds, a value naming a card, the seat's own hand): the same thing happens with other cards.
They do not mean it when what is shown is *whether* something happened or *how much*: a
public pile that holds a card in one world and none in the other (a card turned up only when
a hidden hand lacks something), a public count that differs (a counter set from a hidden
hand), while no card shown tells the worlds apart. The first is a reveal; the second tells
the seat about the hidden hand itself, a leak.

:func:`apart` sorts a difference of two views into those kinds. Since the difference first
met in the leak check's lockstep walk may follow a card turned up earlier in the same move
(a reveal, after which the seat tells the worlds apart anyway), :func:`first_apart` walks both
worlds again, the state copied at each line and stop, and finds the first moment the views
differ; :func:`writer` finds the rule text that wrote what differs there, by tracing the walk.
Both run only where a leak is suspected. :func:`unseen_change` checks a ruleset's
``remember:`` claims the same way: a remembered counter must not tell two such worlds apart.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from interpreter.check.secrets_trace import Watcher, Where, source, walk
from interpreter.engine.state import State
from interpreter.engine.view import seat_view

__all__ = [
    "CONTENT",
    "SHAPE",
    "apart",
    "changes",
    "first_apart",
    "shape_leak",
    "unseen_change",
    "writer",
]

CONTENT, SHAPE, TURN = "content", "shape", "turn"

Path = tuple[Any, ...]


def apart(a: State, b: State, seat: int) -> tuple[str, Path]:
    """How `seat`'s views of `a` and `b` differ: ``content`` where a card (a pile's contents,
    a value) is shown that the other shows otherwise, ``shape`` where only sizes and counts
    differ (with the path of the first), ``turn`` where only whose turn it is (or the round)
    differs; ``("", ())`` where they agree."""
    va = seat_view(a.game.rules, a, seat, True)
    vb = seat_view(b.game.rules, b, seat, True)
    found: list[tuple[str, Path]] = []
    for key in ("global", "players"):
        _differences(va.get(key), vb.get(key), (key,), found)
    if any(kind == CONTENT for kind, _ in found):
        return CONTENT, next(p for kind, p in found if kind == CONTENT)
    if found:
        return found[0]
    if va.get("to_move") != vb.get("to_move") or va.get("round") != vb.get("round"):
        return TURN, ()
    return "", ()


def _differences(x: Any, y: Any, path: Path, out: list[tuple[str, Path]]) -> None:
    if x == y:
        return
    if _bag(x) and _bag(y) and sum(x.values()) == sum(y.values()):
        out.append((CONTENT, path))  # as many pieces, of other kinds: which ones moved
    elif type(x) is dict and type(y) is dict:
        for key in list(x) + [k for k in y if k not in x]:
            _differences(x.get(key), y.get(key), (*path, key), out)
    elif type(x) is list and type(y) is list and path[-1:] == ("players",) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y, strict=True)):
            _differences(p, q, (*path, i), out)
    elif type(x) is list and type(y) is list:
        out.append((CONTENT if len(x) == len(y) else SHAPE, path))
    elif _number(x) and _number(y) or x is None or y is None:
        out.append((SHAPE, path))  # a count, or a value set in one world only
    else:
        out.append((CONTENT, path))  # a value naming what was shown


def _bag(x: object) -> bool:
    """A count per kind (a bag of pieces): a pile whose ids are kinds."""
    return type(x) is dict and bool(x) and all(_number(v) for v in x.values())


def _number(x: object) -> bool:
    return type(x) in (int, float, bool)


class _Moments(Watcher):
    """A copy of the state at each line and each stop of a walk, in order, each with the rule
    text that wrote the line (stops: their number)."""

    def __init__(self) -> None:
        self.states: list[tuple[Any, State]] = []
        self.stops = 0

    def line(self, s: State, text: str, frame: FrameType) -> None:
        self.states.append((source(frame, s.game.rules.origins)[0], s.copy()))

    def stop(self, s: State, kind: str, spec: Any) -> None:
        self.stops += 1
        self.states.append((("stop", self.stops), s.copy()))


def first_apart(a: State, a_choice: str, b: State, b_choice: str, seat: int) -> tuple[str, Path]:
    """Walk `a` with `a_choice` and `b` with `b_choice` (both changed in place), and say how
    `seat`'s views first differ at the same moment: :func:`apart`'s answer there (``("",
    ())`` where they never do). Moments are matched by what wrote them: a line written in one
    world only (under a condition the other does not meet) has no moment to match in the
    other, and is passed over (a line's existence is the judge's to weigh)."""
    ma, mb = _Moments(), _Moments()
    walk(a, a_choice, ma)
    walk(b, b_choice, mb)
    for x, y in _matched(ma.states, mb.states):
        kind, path = apart(x, y, seat)
        if kind:
            return kind, path
    return "", ()


def _matched(xs: list[tuple[Any, State]], ys: list[tuple[Any, State]]) -> list[tuple[State, State]]:
    """The moments of two walks paired in order where the same rule text (or stop) wrote them,
    or where each writes a line the other never writes; a moment of one walk whose writer comes
    later in the other is passed over (a line written in that walk only)."""
    out: list[tuple[State, State]] = []
    i = j = 0
    while i < len(xs) and j < len(ys):
        (kx, x), (ky, y) = xs[i], ys[j]
        if kx == ky:
            out.append((x, y))
            i, j = i + 1, j + 1
        elif any(k == kx for k, _ in ys[j + 1 :]):
            j += 1  # ys wrote a line here that xs did not
        elif any(k == ky for k, _ in xs[i + 1 :]):
            i += 1
        else:
            # each wrote its own line here (`keeps it` in one world, `discards it` in the
            # other): the same moment of the two walks, told in other words
            out.append((x, y))
            i, j = i + 1, j + 1
    return out


def _shown_at(s: State, seat: int, path: Path) -> Any:
    value: Any = seat_view(s.game.rules, s, seat, True)
    for key in path:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def changes(s: State, choice: str, seat: int, path: Path) -> list[tuple[Any, Where | None]]:
    """Each change of what `seat` is shown at `path` while `s` takes `choice` (changed in
    place): the value after it, and the rule text that made it (the statement of rule code
    that ran last before the change was seen; None where no rule code ran before it)."""
    origins = s.game.rules.origins
    seen = [_shown_at(s, seat, path)]
    last: list[Any] = [None]  # the (code, line) of rule code that ran last
    out: list[tuple[Any, Where | None]] = []

    def note() -> None:
        now = _shown_at(s, seat, path)
        if now != seen[0]:
            seen[0] = now
            where = origins.get(*last[0]) if last[0] is not None and origins is not None else None
            out.append((now, tuple(where) if where is not None else None))  # type: ignore

    def look(frame: FrameType, event: str, _arg: Any) -> Callable[..., Any] | None:
        note()
        if event == "line":
            last[0] = (frame.f_code, frame.f_lineno)
        return look

    def start(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if origins is None or origins.get(frame.f_code) is None:
            return None  # not rule code: not traced line by line
        return look(frame, event, arg)

    old = sys.gettrace()
    sys.settrace(start)
    try:
        walk(s, choice, Watcher())
    finally:
        sys.settrace(old)
    note()
    return out


def writer(
    a: State, a_choice: str, b: Callable[[], State], b_choice: str, seat: int, path: Path
) -> Where | None:
    """The rule text at which what `seat` is shown at `path` first changes otherwise in the
    two worlds (`a` taking `a_choice`; `b()` taking `b_choice`): where one world changes it
    and the other does not, or changes it to another value (None where no rule text is
    found)."""
    ours = changes(a, a_choice, seat, path)
    theirs = changes(b(), b_choice, seat, path)
    for i in range(max(len(ours), len(theirs))):
        x = ours[i] if i < len(ours) else None
        y = theirs[i] if i < len(theirs) else None
        if x is None or y is None or x[0] != y[0]:
            for found in (x, y):
                if found is not None and found[1] is not None:
                    return found[1]
            return None
    return None


def shape_leak(
    truth: State, choice: str, again: Callable[[], State], other: str, seat: int
) -> tuple[Path, Where | None] | None:
    """Where `seat`'s views of the true world (`truth`, taking `choice`) and a drawn one
    (`again()`, taking `other`) first differ, during the move, only in whether or how much:
    the path of what differs and the rule text that first changes it otherwise (None where a
    card shown tells them apart first). Neither state given is changed."""
    kind, path = first_apart(truth.copy(), choice, again(), other, seat)
    if kind != SHAPE:
        return None
    return path, writer(truth.copy(), choice, again, other, seat, path)


def unseen_change(a: State, b: State, seat: int) -> tuple[str, int, Any, Any] | None:
    """A hidden per-seat counter or value the ruleset says every seat remembers
    (``remember:``: each change of it seen, so the sampler keeps its true value) that differs
    between `a` and `b`, two worlds `seat`'s views agree on after the same move: its change
    was not seen. (field, owner seat, its value in `a`, in `b`), or None."""
    rules = a.game.rules
    for name in rules.remember:
        if name not in rules.hidden_player or rules.player_init[name][0] == "pile":
            continue
        for pa, pb in zip(a.p, b.p, strict=True):
            if pa["seat"] != seat and pa.get(name) != pb.get(name):
                return name, pa["seat"], pa.get(name), pb.get(name)
    return None
