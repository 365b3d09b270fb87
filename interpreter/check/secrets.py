"""``rulebook validate --secrets N``: play N random games of each composition and, at every
decision, look for anything a seat is told that depends on what it may not see.

At each decision of a game, one seat k is checked (the seats and a spectator, seat -1, who sees
only what is public, take turns from one decision to the next; ``every_seat`` checks them all at
every decision). R states are drawn that k cannot tell from the true one
(:func:`interpreter.infoset.worlds.determinise`: what k cannot see is redrawn, consistently with
what it can), each given the true state's random generator (the future draws are unknown to k
in every world alike, so the two worlds then differ only in what k cannot see). Then what k
would be sent in the true state and in the drawn one is compared:

1. **its view** (L004). Equal by construction: a difference is a fault of the sampler, not of
   the rules, and is reported as such.
2. **whether the seat to move is asked at all** (L003). The engine takes a decision with one
   option itself and logs it "... (the only choice)"; if in the drawn world the seat to move
   would have one option (or none) where it is asked in the true one, every seat learns
   something from the words and from whose turn comes next.
3. **its options and their texts**, when k is the seat to move (L002): the option ids and the
   text the engine logs for each (an option's ``log:`` template, else its id). The texts the web
   table adds (``table/presenter.py``) are built above this stage; ``tests/serve/
   test_secret_messages.py`` runs the same differential over the server's messages.
4. **the log lines of the next step** (L001, and L003 for forced moves). The move the game
   actually makes next is made in both worlds (a world where it is not legal is skipped: the
   mover's own hidden hand differs there; for a seat other than the mover, where the options
   of the chosen option's line differ between the worlds, however the line reads what decides
   them, the drawn world also takes another option of that line, since which hidden card the
   mover chose is not the seat's to know), and both run on to their next decision, every
   forced move seen as it is taken (:func:`~interpreter.check.secrets_trace.walk`), the drawn
   world compared with the true one step for step, each log line at the moment it is written:
   k's view of both worlds is taken as the line is appended. *Where they agree there, the
   lines must agree*: a line that differs tells k something its view does not (L001, at the
   line's rule text). *Where they differ*, k is being shown what tells the worlds apart (a card
   drawn into its own hand, cards turned up into a pile k may see, even if only until the end
   of the step), the line is taken as telling that, and the next line is compared in turn. A
   line with an own text (dsl/runtime/loglines.py) is compared as k reads it: its own text where it
   is k's, its public text otherwise. At
   each stop the views are compared again: a forced move in one world where the other asks, or
   whose turn it is differing when nothing else k sees does, is L003 (at the ``choose`` step);
   views that differ after a move end the comparison of this world (its moves are no longer in
   step with the true one's). A line that says more than what is shown at the same moment is
   not caught from k's point of view (another seat, not shown it, usually catches it).

5. **whether or how much** (L001): where the views first come to differ during the move
   only in sizes and counts, with no card shown that tells the worlds apart, the seat is told
   about what it may not see, at the statement that changes it (secrets_shown.py); a card
   shown ends the comparison of the two worlds (the seat tells them apart from then on).
6. **the `remember:` claims** (L006): a remembered hidden counter agrees after the move
   wherever the views do.

A seat's information state (``state.information_state``: its views, the log lines and its own
choices, step by step) is made of exactly what 1, 3 and 4 compare at every step, so a leak into
it is one of those findings.

A drawn world in which a rule fails is skipped: it is not a state the game can reach (the
sampler cannot always tell, e.g. a hidden score that an earlier move showed is not zero).
Each finding is an error at the ``file:line:col`` of the rule text that leaks, with the two
values, the seat, and the game (composition, seed, decision) it was found in; one diagnostic per
place. :mod:`~interpreter.check.secrets_games` finds the compositions to play.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.check.secrets_explain import explain
from interpreter.check.secrets_judge import (
    OPTION_LEAK,
    SAMPLER,
    SPECTATOR,
    TURN_LEAK,
    Judge,
    seat_named,
)
from interpreter.check.secrets_trace import (
    Grab,
    Recorder,
    Stop,
    Where,
    alike,
    option_texts,
    option_where,
    reenumerate,
    walk,
    where_of,
)
from interpreter.diagnostics.errors import Diagnostic, RulebookError
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.engine.view import View, seat_view
from interpreter.infoset.worlds import determinise
from interpreter.load.locate import locate

__all__ = ["SPECTATOR", "GameRun", "SecretsFinder", "check_game"]


@dataclass
class GameRun:
    """One game to check: the compiled game, how to describe and rerun it, and the composed
    rule data (to point at a state field's declaration)."""

    game: Game
    label: str  # "2 players, overlays: none"
    rerun: str  # the command that replays the check of this composition, less --seed
    data: Any = None
    new_state: Mapping[str, Any] = field(default_factory=dict)
    explain: int | None = None  # the decision whose findings are shown side by side


@dataclass
class SecretsFinder:
    """The findings of a run, one per place in the rules (the first seen)."""

    found: dict[tuple[Any, ...], Diagnostic] = field(default_factory=dict)
    # the two worlds of a finding, side by side (secrets_explain.py), by the finding's place
    explained: dict[tuple[Any, ...], str] = field(default_factory=dict)
    games: int = 0
    decisions: int = 0
    samples: int = 0

    def add(self, code: str, where: Where, message: str, hint: str) -> bool:
        """Add a finding; whether it is the first at its place."""
        file, line, col, path = where
        key = (code, file, line, col, path if file is None else "")
        if key in self.found:
            return False
        self.found[key] = Diagnostic(code, message, file, line, col, path, hint=hint)
        return True

    def explain(self, code: str, where: Where, text: str) -> None:
        """Keep the side-by-side view of the finding at `where` (the first one's)."""
        file, line, col, path = where
        self.explained.setdefault((code, file, line, col, path if file is None else ""), text)

    def diagnostics(self) -> list[Diagnostic]:
        return sorted(self.found.values(), key=Diagnostic.sort_key)


def check_game(
    run: GameRun, seed: int, samples: int, out: SecretsFinder, every_seat: bool = False
) -> None:
    """Play one random game of `run` from `seed` and check its decisions (see the module):
    `samples` drawn worlds for each seat checked at a decision; every seat and the spectator
    at every decision with `every_seat`, else one of them at each decision, in turn (the
    check then costs some fifteen times what the game costs, times `samples`)."""
    try:
        state = run.game.new_state(seed, **run.new_state)
    except RulebookError:
        return  # a game that cannot even start is validate's and --smoke's to report
    out.games += 1
    take_forced = state.take_forced
    choose = random.Random(f"secrets-moves:{seed}")
    draw = random.Random(f"secrets-worlds:{seed}")
    seats = [*range(len(state.p)), SPECTATOR]
    turn = seed % len(seats)
    state.log = None
    while not state.is_over:
        options = state.legal_options()
        choice = choose.choice(options)
        at = _Decision(run, seed, state, choice, take_forced, out)
        if every_seat:
            checked = seats
        else:
            # the seat to move is checked at its own decisions too (its options and texts)
            checked = [seats[turn % len(seats)]]
            turn += 1
        for seat in checked:
            for _ in range(samples):
                at.sample(seat, draw)
        out.decisions += 1
        try:
            state.apply(choice)
        except RulebookError:
            return


class _Decision:
    """The checks at one decision of the true game, for every seat and drawn world."""

    def __init__(
        self,
        run: GameRun,
        seed: int,
        state: State,
        choice: str,
        take_forced: bool,
        out: SecretsFinder,
    ) -> None:
        self.run, self.seed, self.state, self.choice = run, seed, state, choice
        self.take_forced = take_forced
        self.out = out
        self.mover = state.to_move
        self.spec = next(iter((state.pending or {}).values()))[0]
        self._truth: list[Stop] | None = None
        self._walked = False
        self._texts: dict[str, tuple[str, Any, Any]] | None = None
        self._views: dict[int, View] = {}

    # -- what is found -------------------------------------------------------------------
    def where(self) -> str:
        """The game and decision, so that the finding can be replayed."""
        n = self.state.decisions + 1
        return f"{self.run.label}, seed {self.seed}, decision {n}"

    def report(
        self,
        code: str,
        where: Where,
        what: str,
        seen: tuple[int, tuple[str | None, str | None], tuple[Any, Any], str] | None = None,
    ) -> None:
        """A finding at `where`; `seen`: the seat, what each world tells it, the two worlds and
        what the told thing is, shown side by side by ``--explain`` at this decision."""
        n = self.state.decisions + 1
        hint = f"see it: {self.run.rerun} --secrets 1 --seed {self.seed} --explain {n}"
        self.out.add(code, where, f"{what} ({self.where()})", hint)
        if seen is not None and self.run.explain == n:
            seat, told, worlds, kind = seen
            self.out.explain(code, where, explain(seat, told, worlds, kind))

    # -- the checks ----------------------------------------------------------------------
    def view(self, seat: int) -> View:
        got = self._views.get(seat)
        if got is None:
            got = self._views[seat] = seat_view(self.state.game.rules, self.state, seat, True)
        return got

    def sample(self, seat: int, rng: random.Random) -> None:
        self.out.samples += 1
        drawn_from = rng.getstate()
        try:
            world = determinise(self.state, seat, rng)
        except (RulebookError, LookupError, TypeError, ValueError) as e:
            self._sampler(seat, f"the sampler failed: {e}", ())
            return
        if not alike(self.state, world, seat):
            seen = seat_view(world.game.rules, world, seat, True)
            path = _first_difference(self.view(seat), seen)
            self._sampler(seat, "the sampler drew a state this seat can tell apart", path)
            return
        world.rng = _clone(self.state.rng)
        asked = reenumerate(world, self.take_forced)
        if asked is None:
            return  # a rule fails there: not a state the game can be in
        if not asked:
            self.report(
                TURN_LEAK,
                where_of(self.spec),
                f"seat {self.mover} is asked here but would not be (one option or none) in a "
                f"state {seat_named(seat)} cannot tell from this one",
                (seat, ("asked", "not asked"), (self.state, world), "seat to move"),
            )
            return

        def again() -> State:
            # the same drawn world once more (drawn from the same generator state), for the
            # rare second look at a suspected leak
            again = determinise(self.state, seat, _restored(drawn_from))
            again.rng = _clone(self.state.rng)
            reenumerate(again, self.take_forced)
            return again

        if seat == self.mover:
            self._options(seat, world)
        else:
            other = self.other_choice(world, rng)
            if other is not None:
                # the mover might have taken another option of the same line, picked from
                # what this seat may not see (which hidden card it paid): told alike
                truth = self.truth()
                if truth is not None:
                    judge = Judge(self, truth, seat, again, other)
                    walk(world.copy(recording=False), other, judge)
        if self.choice not in (world.pending or {}):
            return  # the mover's own hidden pieces differ there: the same move is not legal
        truth = self.truth()
        if truth is not None:
            walk(world, self.choice, Judge(self, truth, seat, again))

    def other_choice(self, world: State, rng: random.Random) -> str | None:
        """Another option of the chosen option's line that the mover has in `world`, where
        which options of that line exist differs from the true state (the mover's hidden
        pieces decide them, however the line reads them: its `for`, its `if`, a function or a
        procedure): which of them the mover took is its own secret, so the line the others
        read must not tell (None where the line's options are the same: the mover could take
        the same one, and does)."""
        pending = self.state.pending or {}
        entry = pending.get(self.choice)
        if entry is None:
            return None
        line = entry[1]
        theirs = sorted(
            oid for oid, (_spec, opt, _values) in (world.pending or {}).items() if opt is line
        )
        mine = sorted(oid for oid, (_spec, opt, _values) in pending.items() if opt is line)
        if theirs == mine:
            return None
        others = [oid for oid in theirs if oid != self.choice]
        return rng.choice(others) if others else None

    def truth(self) -> list[Stop] | None:
        """The true world's next step, walked once for every seat and drawn world."""
        if not self._walked:
            self._walked = True
            rec = Recorder()
            if walk(self.state.copy(), self.choice, rec):
                self._truth = rec.stops
        return self._truth

    def line_state(self, n: int, i: int) -> State | None:
        """The true world as it was when line `i` before stop `n` of its walk was written."""
        truth = self.truth()
        if truth is None:
            return None
        line = truth[n].lines[i]
        if line.state is None:
            grab = Grab(n, i)
            walk(self.state.copy(), self.choice, grab)
            line.state = grab.state
        return line.state

    def _sampler(self, seat: int, what: str, path: Sequence[Any]) -> None:
        shown = "/" + "/".join(str(p) for p in path) if path else ""
        where = _declaration(self.run.data, path)
        self.report(
            SAMPLER,
            where,
            f"{what} ({seat_named(seat)}{', at ' + shown if shown else ''}): a fault of the "
            "engine's sampler (interpreter/infoset/worlds.py), not of the rules",
        )

    def _options(self, seat: int, again: State) -> None:
        if self._texts is None:
            self._texts = option_texts(self.state)
        mine = self._texts
        theirs = option_texts(again)
        for oid in mine.keys() | theirs.keys():
            a, b = mine.get(oid), theirs.get(oid)
            if a is not None and b is not None and a[0] == b[0]:
                continue
            _, opt, spec = a or b  # type: ignore[misc]
            where = option_where(opt, spec, self.state.game.rules.origins)
            if a is None or b is None:
                what = (
                    f"option '{oid}' of seat {seat} depends on what it may not see: "
                    f"{'offered' if a else 'not offered'}, or {'offered' if b else 'not offered'}"
                    " in a state it cannot tell from this one"
                )
            else:
                what = (
                    f"the text of option '{oid}' depends on what seat {seat} may not see: "
                    f"{a[0]!r}, or {b[0]!r} in a state it cannot tell from this one"
                )
            told = (a[0] if a else None, b[0] if b else None)
            self.report(
                OPTION_LEAK, where, what, (seat, told, (self.state, again), f"option {oid}")
            )
            return


def _restored(state: Any) -> random.Random:
    new = random.Random()
    new.setstate(state)
    return new


def _clone(rng: random.Random) -> random.Random:
    new = random.Random.__new__(random.Random)
    new.setstate(rng.getstate())
    return new


def _first_difference(a: Any, b: Any, path: tuple[Any, ...] = ()) -> tuple[Any, ...]:
    """The path of the first place two views differ (a field, or a seat's field)."""
    if type(a) is dict and type(b) is dict:
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), (*path, key))
    if type(a) is list and type(b) is list and len(a) == len(b) and path[-1:] == ("players",):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, (*path, i))
    return path


def _declaration(data: Any, path: Sequence[Any]) -> Where:
    """Where the state field a view path names is declared (``state/global/X``, ...)."""
    if data is None or len(path) < 2:
        return (None, None, None, "")
    if path[0] == "global":
        decl = ["state", "global", path[1]]
    elif path[0] == "players" and len(path) >= 3:
        decl = ["state", "player", path[2]]
    else:
        return (None, None, None, "/" + "/".join(str(p) for p in path))
    file, line, col = locate(data, decl)
    return (file, line, col, "/" + "/".join(decl))


def play_all(
    runs: Iterable[GameRun], seeds: Sequence[int], samples: int, every_seat: bool = False
) -> SecretsFinder:
    """Every game of every run, checked; the findings of them all."""
    out = SecretsFinder()
    for run in runs:
        for seed in seeds:
            check_game(run, seed, samples, out, every_seat)
    return out
