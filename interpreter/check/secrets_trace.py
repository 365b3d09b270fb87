"""The engine-level half of the leak check: a game stepped on from one decision with every
log line, and every move the engine takes by itself, seen as it happens.

The engine takes a decision with one legal option itself (``machine.take_only``) in the middle
of its run to the next decision, so a driver never sees it. The leak check must: a forced move
in one world where another world asks the same seat is what a seat learns from the words
"(the only choice)" and from the timing. A forced move always writes its log line first, before
its effect runs, so :class:`TracedLog` (the state's log while it is watched) sees each one as it
is taken and tells the :class:`Watcher` of a stop there, then of its line. The game runs under
its own policy for forced moves, unchanged: what the seats are told is exactly what the engine
tells them.

Where a log line comes from is read off the Python frame that appends it: an option's ``log:``
template or id (``State.apply``), a forced move (``machine.take_only``), a ``log`` statement in
an effect or a ``log:`` step (generated rule code, whose positions the compiled rules keep in
``rules.origins``). Nothing in the engine changes for it; the frames are looked at only while
checking.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any, Protocol

from interpreter.diagnostics.errors import RulebookError
from interpreter.dsl.runtime.loglines import OwnText, line_for
from interpreter.engine import machine
from interpreter.engine.state import State
from interpreter.engine.view import View, out_of_scope, seat_view

__all__ = [
    "Enough",
    "Grab",
    "Line",
    "Recorder",
    "Stop",
    "TracedLog",
    "Watcher",
    "Where",
    "alike",
    "called_from",
    "option_texts",
    "option_where",
    "reenumerate",
    "source",
    "walk",
    "where_of",
]

# file, line, column, JSON path of a rule text (any part may be unknown)
Where = tuple[str | None, int | None, int | None, str]

_NOWHERE: Where = (None, None, None, "")


class Origins(Protocol):
    """Where generated code's rule text is (model/origins.py's ``TextOrigins``; its
    ``inner``, where an inlined procedure's statement is, is asked only where it has one)."""

    def get(self, code: CodeType, python_line: int | None = None) -> Where | None: ...


# a rule failing while a world is stepped: reported by the smoke games, not as a leak
_FAILURES = (RulebookError, RecursionError, *machine.RULE_FAILURES)


class Snapshot:
    """A copy of a state at one moment, and the views of it the check asks for (built once,
    sharing the copy's values: the copy never changes)."""

    __slots__ = ("state", "_views")

    def __init__(self, state: State) -> None:
        self.state = state
        self._views: dict[int, View] = {}

    def view(self, seat: int) -> View:
        got = self._views.get(seat)
        if got is None:
            got = self._views[seat] = seat_view(self.state.game.rules, self.state, seat, True)
        return got

    def alike(self, other: Snapshot, seat: int) -> bool:
        """Whether `seat` is shown the same of both snapshots."""
        return alike(self.state, other.state, seat)


def alike(a: State, b: State, seat: int) -> bool:
    """Whether ``a.view(seat) == b.view(seat)``, found without building the views (the check
    asks it hundreds of thousands of times); mirrors :func:`~interpreter.engine.view.seat_view`
    field by field."""
    if a.round != b.round or a.to_move != b.to_move:
        return False
    rules = a.game.rules
    gone = out_of_scope(rules, a)
    if gone != out_of_scope(rules, b) or a.g.keys() != b.g.keys() or len(a.p) != len(b.p):
        return False
    hidden_all = rules.hidden_all
    hidden = rules.hidden_global
    gb = b.g
    for name, va in a.g.items():
        if ("global", name) in gone:
            continue
        vb = gb[name]
        if name in hidden:
            if _count(va, name, hidden_all) != _count(vb, name, hidden_all):
                return False
        elif va != vb:
            return False
    hidden = rules.hidden_player
    for pa, pb in zip(a.p, b.p, strict=True):
        if pa.keys() != pb.keys():
            return False
        own = pa["seat"] == seat
        for name, va in pa.items():
            if ("player", name) in gone:
                continue
            vb = pb[name]
            if own or name not in hidden:
                if va != vb:
                    return False
            elif _count(va, name, hidden_all) != _count(vb, name, hidden_all):
                return False
    return True


def _count(value: Any, name: str, hidden_all: Any) -> int | None:
    """What a view shows of a hidden field: a pile's size, or nothing."""
    return len(value) if type(value) is list and name not in hidden_all else None


class Line(Snapshot):
    """One log line, the rule text that wrote it, and the state as it was written."""

    __slots__ = ("text", "where", "forced")

    def __init__(self, text: str, where: Where, forced: bool, state: State | None) -> None:
        super().__init__(state)  # type: ignore[arg-type] # filled in when first needed
        self.text = text  # as written: an OwnLine's seat reads its own text (line_for)
        self.where = where
        self.forced = forced  # written for a move the engine took itself


class Enough(Exception):
    """Raised by a :class:`Watcher` to end a walk early (the worlds are told apart)."""


class Watcher:
    """What :func:`walk` reports to as it steps: each log line as it is written (the state as
    it is then, and the frame writing it, for :func:`source`) and each stop."""

    def line(self, s: State, text: str, frame: FrameType) -> None:  # noqa: D102
        """A log line written by the rule code running in `frame` (`text` may be an
        :class:`~interpreter.dsl.runtime.loglines.OwnLine`: its seat reads another text)."""

    def stop(self, s: State, kind: str, spec: Any) -> None:  # noqa: D102
        """The walk stopped: ``asked``, ``forced`` (the engine takes it next) or ``over``."""


class TracedLog(list):
    """A state's log that hands each line, as it is written, to a :class:`Watcher`."""

    def __init__(self, state: State, watcher: Watcher) -> None:
        super().__init__()
        self.state = state
        self.watcher = watcher

    def append(self, entry: Any) -> None:  # noqa: D102 - list.append, watched
        frame = sys._getframe(1)
        if frame.f_code is _TAKE_ONLY:  # a forced move, logged before its effect runs
            self.watcher.stop(self.state, "forced", frame.f_locals.get("spec"))
        super().append(entry)
        # the text as written: an own text (dsl/runtime/loglines.py) is compared for its seat
        self.watcher.line(self.state, entry[2], frame)


class Recorder(Watcher):
    """Keeps what a walk went through: each stop, with the lines before it, and a copy of the
    state at each stop (the true world's walk, compared with every drawn one). The state at a
    line is copied only where :class:`Grab` is asked for it (a drawn world's line differs)."""

    def __init__(self) -> None:
        self.stops: list[Stop] = []
        self.lines: list[Line] = []

    def line(self, s: State, text: str, frame: FrameType) -> None:
        where, forced = source(frame, s.game.rules.origins)
        self.lines.append(Line(text, where, forced, None))

    def stop(self, s: State, kind: str, spec: Any) -> None:
        # the walk ends at an asked decision or the end: that state is changed no more
        state = s.copy() if kind == "forced" else s
        self.stops.append(Stop(self.lines, state, kind, spec))
        self.lines = []


class Grab(Watcher):
    """Walks again to one line (line `i` before stop `n`) and keeps a copy of the state there."""

    def __init__(self, n: int, i: int) -> None:
        self.n, self.i = n, i
        self.seen = 0
        self.state: State | None = None

    def line(self, s: State, text: str, frame: FrameType) -> None:
        if self.n == 0 and self.seen == self.i:
            self.state = s.copy()
            raise Enough
        self.seen += 1

    def stop(self, s: State, kind: str, spec: Any) -> None:
        self.n -= 1
        self.seen = 0


_APPLY = State.apply.__code__
_TAKE_ONLY = machine.take_only.__code__


def source(frame: FrameType | None, origins: Origins | None) -> tuple[Where, bool]:
    """Where the rules wrote the line being appended from `frame` (and whether for a forced
    move): the first frame outwards that is rule code, a template's caller, or the engine
    logging an option."""
    while frame is not None:
        code = frame.f_code
        if code is _APPLY or code is _TAKE_ONLY:
            loc = frame.f_locals
            opt, spec = loc.get("opt"), loc.get("spec")
            return option_where(opt, spec, origins), code is _TAKE_ONLY
        found = _origin(origins, code, frame.f_lineno)
        if found is not None:
            # a line written by an inlined procedure: at the procedure's own statement
            return _inner_origin(origins, code, frame.f_lineno) or found, False
        fmt = frame.f_locals.get("fmt")  # a `log:` step: its template, compiled
        if callable(fmt):
            found = _code_origin(fmt, origins)
            if found is not None:
                return found, False
        frame = frame.f_back
    return _NOWHERE, False


def called_from(frame: FrameType | None, origins: Origins | None) -> Where | None:
    """Where the procedure that wrote the line being appended from `frame` was called (the
    statement of the call), or None where the line is not written inside a procedure."""
    while frame is not None:
        code = frame.f_code
        if code is _APPLY or code is _TAKE_ONLY:
            return None
        found = _origin(origins, code, frame.f_lineno)
        if found is not None:
            inner = _inner_origin(origins, code, frame.f_lineno)
            return found if inner is not None and inner != found else None
        frame = frame.f_back
    return None


# origins -> {(code, line, kind): where}: per origins object, as the same code object (kept by
# dsl/emit/emitter.py) runs in every build of the same rules, each with its own positions
_ORIGINS: weakref.WeakKeyDictionary[Origins, dict[tuple[Any, ...], Where | None]] = (
    weakref.WeakKeyDictionary()
)


def _remembered(
    origins: Origins, key: tuple[Any, ...], find: Callable[[], Where | None]
) -> Where | None:
    try:
        memo = _ORIGINS.setdefault(origins, {})
    except TypeError:  # origins that take no weak reference: found each time
        memo = {}
    if key not in memo:
        found = find()
        memo[key] = found
    return memo[key]


def _origin(origins: Origins | None, code: CodeType, line: int | None = None) -> Where | None:
    """``origins.get(code, line)``, remembered: finding a position reads the rule file."""
    if origins is None:
        return None
    return _remembered(origins, (code, line), lambda: origins.get(code, line))


def _inner_origin(origins: Origins | None, code: CodeType, line: int | None) -> Where | None:
    """``origins.inner(code, line)``, remembered like :func:`_origin`."""
    inner = getattr(origins, "inner", None)
    if origins is None or inner is None:
        return None
    return _remembered(origins, (code, line, "inner"), lambda: inner(code, line))


def _code_origin(fn: object, origins: Origins | None) -> Where | None:
    fn = fn.public if isinstance(fn, OwnText) else fn  # a line with an own text: its public
    code = getattr(fn, "__code__", None)
    return None if code is None else _origin(origins, code)


def option_where(opt: Any, spec: Any, origins: Origins | None) -> Where:
    """Where an option's text comes from: its ``log:`` template, else its id, else its step."""
    texts = (opt.log, opt.template.fn) if opt is not None else ()  # (a frame without one)
    for fn in texts:
        found = _code_origin(fn, origins) if fn is not None else None
        if found is not None:
            return found
    return where_of(spec)


def where_of(spec: Any) -> Where:
    """The position of a ``choose`` step (``ChooseSpec.where``: ``file:line:col``)."""
    text = str(getattr(spec, "where", "") or "")
    parts = text.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return (parts[0], int(parts[1]), int(parts[2]), "")
    return (None, None, None, text) if text.startswith("/") else _NOWHERE


def option_texts(s: State) -> dict[str, tuple[str, Any, Any]]:
    """Each pending option of `s`: the text the engine logs for it, its option line and step
    (:func:`option_where` tells where that text comes from)."""
    out: dict[str, tuple[str, Any, Any]] = {}
    t = s.t  # scratch slots: every option sets its own before its texts or effect run
    for oid, (spec, opt, values) in (s.pending or {}).items():
        text = oid
        if opt.log is not None:
            for key, value in zip(opt.slots, values, strict=True):
                t[key] = value
            line = opt.log(s)
            # what the seat deciding is shown: its own text, where the line has one
            text = line_for(line, s.who)
        out[oid] = (text, opt, spec)
    return out


def reenumerate(s: State, take_forced: bool) -> bool | None:
    """Run `s` (a drawn state, which keeps the true state's list of options) again from the
    decision it stands at, its options listed afresh; whether the engine asks there. None when
    a rule fails on the way: the drawn state is not one the rules can reach (the sampler cannot
    always tell, e.g. a seat's hidden score that an earlier move showed was not zero)."""
    pc = s.pc
    s.take_forced = take_forced
    s.pending = None
    s.log = []
    try:
        s.game.advance(s)  # type: ignore[attr-defined]
    except _FAILURES:
        return None
    return s.pending is not None and s.pc == pc and not s.log


class Stop(Snapshot):
    """Where stepping stopped: the lines written on the way, a copy of the state, and why it
    stopped (``asked``: a decision; ``forced``: one the engine takes, its line next; ``over``)."""

    __slots__ = ("lines", "kind", "spec")

    def __init__(self, lines: list[Line], state: State, kind: str, spec: Any = None) -> None:
        super().__init__(state)
        self.lines = lines
        self.kind = kind
        self.spec = spec


def walk(s: State, choice: str, watcher: Watcher) -> bool:
    """Apply `choice` to `s` (changed in place), which runs on to the next decision that is
    asked or the end, telling `watcher` each line, each forced move and where it stops. False
    when a rule fails on the way (a fault the smoke games report, not a leak); True when the
    walk ended or the watcher ended it."""
    s.log = TracedLog(s, watcher)
    try:
        s.apply(choice)
        spec = next(iter((s.pending or {}).values()), (None,))[0]
        watcher.stop(s, "over" if s.over else "asked", spec)
    except Enough:
        return True
    except _FAILURES:
        return False
    return True
