"""The judge of a drawn world (:class:`Judge`): walked in lockstep with the true world's
recorded walk, as one seat is told them, it reports a log line, a stop or a shown difference
that depends on what the seat may not see (L001, L003), and a ``remember:`` claim the two
worlds break (L006). :mod:`~interpreter.check.secrets` draws the worlds and holds the rules of
the comparison in its docstring."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import FrameType
from typing import Any, NoReturn, Protocol

from interpreter.check.secrets_shown import (
    CONTENT,
    SHAPE,
    first_apart,
    shape_leak,
    unseen_change,
)
from interpreter.check.secrets_trace import (
    Enough,
    Line,
    Stop,
    Watcher,
    Where,
    alike,
    called_from,
    source,
    where_of,
)
from interpreter.dsl.runtime.loglines import line_for
from interpreter.engine.state import State
from interpreter.engine.view import seat_view
from interpreter.load.locate import locate

__all__ = [
    "LOG_LEAK",
    "OPTION_LEAK",
    "REMEMBERED",
    "SAMPLER",
    "SPECTATOR",
    "TURN_LEAK",
    "Judge",
    "seat_named",
]

SPECTATOR = -1  # the view of no seat: only what is public
LOG_LEAK, OPTION_LEAK, TURN_LEAK, SAMPLER, REMEMBERED = "L001", "L002", "L003", "L004", "L006"


class Decision(Protocol):
    """What a judge reads of the decision whose move it follows (secrets._Decision)."""

    run: Any  # the game's run: its rule data (`run.data`) for a claim's line
    state: State  # the true state at the decision
    choice: str  # the option the true game takes there

    def line_state(self, n: int, i: int) -> State | None: ...

    def report(
        self,
        code: str,
        where: Where,
        what: str,
        seen: tuple[int, tuple[str | None, str | None], tuple[Any, Any], str] | None = None,
    ) -> None: ...


class Judge(Watcher):
    """Walks a drawn world in lockstep with the true one's recorded walk, as `seat` is told
    them: each log line must agree where the seat's views agree as it is written, and each stop
    must be of the same kind (see the module's rule). Ends the walk once the worlds are told
    apart at a stop."""

    def __init__(
        self,
        at: Decision,
        truth: list[Stop],
        seat: int,
        again: Callable[[], State],
        other: str = "",
    ) -> None:
        self.at, self.truth, self.seat = at, truth, seat
        self.again = again  # the drawn world as it was before the move, drawn anew
        self.other = other  # the option this world takes instead of the true one ("": the same)
        self.n = 0  # the stop of the true walk this segment leads to
        self.i = 0  # lines of this segment seen so far

    def line(self, s: State, text: str, frame: FrameType) -> None:
        stop = self.truth[self.n]
        mine = stop.lines[self.i] if self.i < len(stop.lines) else None
        self.i += 1
        seat = self.seat
        shown = line_for(text, seat)  # its own text, where the line is the seat's own
        if mine is not None and line_for(mine.text, seat) == shown:
            return
        if mine is not None:
            here, forced_here = source(frame, s.game.rules.origins)
            if mine.where != here:
                self._one_sided(s, stop, mine, (here, forced_here, shown), frame)
        then = self.at.line_state(self.n, self.i - 1) if mine is not None else stop.state
        if then is None:
            raise Enough  # the true world cannot be rebuilt at that line: nothing to compare
        if not alike(then, s, self.seat):
            # the seat is shown, as the line is written, something that tells the worlds
            # apart: the line tells that, and the seat tells these two worlds apart from now on
            # (what a later line of the move says, it knows), unless what it is shown is only
            # whether or how much (secrets_shown.py)
            self.shown(mine.where if mine is not None else source(frame, s.game.rules.origins)[0])
        where, forced = source(frame, s.game.rules.origins)
        if mine is not None:
            where, forced = mine.where, mine.forced
        theirs = line_for(mine.text, seat) if mine is not None else None
        call = called_from(frame, s.game.rules.origins)
        self._leak(where, forced, theirs, shown, (then, s), call)

    def _one_sided(
        self, s: State, stop: Stop, mine: Line, drawn: tuple[Where, bool, str], frame: FrameType
    ) -> NoReturn:
        """The two worlds write their next lines from different rule texts: a line written in
        one world only (under a condition the other world does not meet). No leak where a card
        shown tells the two worlds apart first; where a size or a count does, that is the leak
        (:meth:`shown`); else the line written in one world only is, at its own rule text
        (the true world's, where it writes this world's line later)."""
        here, forced, shown = drawn
        then = self.at.line_state(self.n, self.i - 1)
        if then is None:
            raise Enough  # the true world cannot be rebuilt at that line: nothing to compare
        mine_choice = self.other or self.at.choice
        kind, _path = first_apart(
            self.at.state.copy(), self.at.choice, self.again(), mine_choice, self.seat
        )
        if kind == CONTENT:
            raise Enough
        if kind == SHAPE:
            self.shown(here)
        if any(line.where == here for line in stop.lines[self.i :]):
            theirs = line_for(mine.text, self.seat)
            self._leak(mine.where, mine.forced, theirs, None, (then, s))
        self._leak(here, forced, None, shown, (then, s), called_from(frame, s.game.rules.origins))

    def stop(self, s: State, kind: str, spec: Any) -> None:
        seat = self.seat
        truth = self.truth[self.n]
        if self.i < len(truth.lines):  # the true world wrote lines this one did not
            mine = truth.lines[self.i]
            then = self.at.line_state(self.n, self.i)
            if then is None:
                raise Enough
            if not alike(then, s, seat):
                self.shown(mine.where)
            self._leak(mine.where, mine.forced, line_for(mine.text, seat), None, (then, s))
        if not alike(truth.state, s, seat):
            va, vb = truth.view(seat), seat_view(s.game.rules, s, seat, True)
            if _only_the_turn(va, vb):
                self.at.report(
                    TURN_LEAK,
                    where_of(truth.spec if truth.spec is not None else spec),
                    f"who moves next depends on what {seat_named(seat)} may not see: "
                    f"{_turn(va)}, or {_turn(vb)} in a state it cannot tell from this one "
                    f"({self.after()})",
                    (seat, (_turn(va), _turn(vb)), (truth.state, s), "who moves next"),
                )
                raise Enough
            self.shown(where_of(truth.spec if truth.spec is not None else spec))
        self._claims(truth.state, s)
        if truth.kind != kind:
            forced_spec = truth.spec if truth.kind == "forced" else spec
            who = truth.state.who if truth.kind == "forced" else s.who
            other = kind if truth.kind == "forced" else truth.kind
            self.at.report(
                TURN_LEAK,
                where_of(forced_spec),
                f"seat {who}'s only option is taken without asking ('(the only choice)'), "
                f"but in a state {seat_named(seat)} cannot tell from this one the engine would "
                f"{'end the game' if other == 'over' else 'ask'} ({self.after()})",
                (seat, (truth.kind, kind), (truth.state, s), "the engine next"),
            )
            raise Enough
        if kind != "forced":
            raise Enough
        self.n += 1
        self.i = 0

    def _claims(self, a: State, b: State) -> None:
        """A `remember:` claim the two worlds break after the same move (L006, at it)."""
        broken = unseen_change(a, b, self.seat)
        if broken is None:
            return
        name, owner, x, y = broken
        data = self.at.run.data
        i = list(data["state"]["remember"]).index(name) if data is not None else 0
        file, line, col = locate(data, ["state", "remember", i]) if data else (None,) * 3
        self.at.report(
            REMEMBERED,
            (file, line, col, f"/state/remember/{i}"),
            f"'{name}' is declared remembered (every change of it seen by every seat), but "
            f"seat {owner}'s changes otherwise in a state {seat_named(self.seat)} cannot tell from "
            f"this one: {x!r}, or {y!r} ({self.after()}); the sampler keeps a remembered "
            "value, so a leak of it would go unseen",
        )
        raise Enough

    def shown(self, near: Where) -> NoReturn:
        """The seat's views of the two worlds differ: a card turned up tells them apart (the
        walk ends), or, where what first differs is only whether or how much (a pile's size, a
        count) while no card shown tells them apart, the seat learns about what it may not see
        (L001, at the rule text that changes what differs; `near`: where the walk noticed)."""
        if _ends_the_game(self.truth):
            raise Enough  # the game ends: its scoring shows what was hidden, by the rules
        mine = self.other or self.at.choice
        found = shape_leak(self.at.state, self.at.choice, self.again, mine, self.seat)
        if found is None:
            raise Enough
        path, where = found
        shown = "/" + "/".join(str(p) for p in path)
        self.at.report(
            LOG_LEAK,
            where or near,
            f"what {seat_named(self.seat)} is shown depends on what it may not see: {shown} "
            "differs in a state it cannot tell from this one, while no card shown tells the two "
            "apart "
            f"({self.after()})",
        )
        raise Enough

    def _leak(
        self,
        where: Where,
        forced: bool,
        mine: str | None,
        theirs: str | None,
        worlds: tuple[Any, Any],
        call: Where | None = None,
    ) -> NoReturn:
        words = "a forced move's log line" if forced else "a log line"
        called = f"; written in a procedure called at {_at(call)}" if call is not None else ""
        self.at.report(
            LOG_LEAK,
            where,
            f"{words} depends on what {seat_named(self.seat)} may not see: {_shown(mine)}, or "
            f"{_shown(theirs)} in a state it cannot tell from this one ({self.after()}{called})",
            (self.seat, (mine, theirs), worlds, "log line"),
        )
        raise Enough

    def after(self) -> str:
        """The move (or the two moves) the lines follow."""
        if self.other:
            return f"after '{self.at.choice}', or '{self.other}' there"
        return f"after '{self.at.choice}'"


def seat_named(seat: int) -> str:
    return "a spectator" if seat == SPECTATOR else f"seat {seat}"


def _at(where: Where) -> str:
    """A rule text's position as ``file:line:col`` (its JSON path where no line is known)."""
    file, line, col, path = where
    if line is None:
        return str(path or "an unknown place")
    return ":".join(str(x) for x in (file, line, col) if x is not None)


def _shown(text: str | None) -> str:
    return "no line" if text is None else repr(text)


def _turn(view: Mapping[str, Any]) -> str:
    if view.get("to_move") is None:
        return "the game over"
    return f"seat {view['to_move']} to move in round {view.get('round')}"


def _only_the_turn(va: Mapping[str, Any], vb: Mapping[str, Any]) -> bool:
    """Whether two views differ in whose turn it is (or the round) and nothing else."""
    keys = (va.keys() | vb.keys()) - {"to_move", "round"}
    return all(va.get(k) == vb.get(k) for k in keys)


def _ends_the_game(truth: list[Stop]) -> bool:
    """Whether the true walk ends the game (its last stop)."""
    return bool(truth) and truth[-1].kind == "over"
