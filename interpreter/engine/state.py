"""The running game: plain data and the public methods to play it (the flow machine that
advances it to the next decision is in machine.py).

A State holds only plain values (ints, strings, None, lists, dicts) and a seeded generator,
so it copies cheaply (tree search) and serialises to JSON. Everything a rule may change lives
in `g` (global fields), `p` (one dict per seat) and `v` (flow variables).
"""

from __future__ import annotations

import random
from copy import deepcopy
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Protocol

from interpreter.diagnostics.errors import IllegalOptionError
from interpreter.dsl.compiler import Env
from interpreter.dsl.runtime.loglines import LogEntry, lines_for
from interpreter.engine.blocks import STOPS_AT
from interpreter.engine.copier import FieldCopier
from interpreter.engine.machine import RULE_FAILURES, rule_failure, run
from interpreter.engine.standings import Result
from interpreter.engine.undo import UndoWatch
from interpreter.engine.view import View, copy_tree, seat_view
from interpreter.infoset.changes import Journal, Note
from interpreter.infoset.knowledge import Recorder
from interpreter.infoset.position import started_without
from interpreter.model.rules import Rules

__all__ = ["Compiled", "Result", "State"]


class Compiled(Protocol):
    """What a state is a game of: the compiled rules (a Game; rule code reads ``env`` too)."""

    rules: Rules
    env: Env
    copy_fields: FieldCopier  # copies (g, p) by their declared shapes (copier.py)

    def view(self, s: State, seat: int) -> View: ...

    def new_state(
        self, seed: int = 0, *, take_forced: bool = True, record: bool = False
    ) -> State: ...


@dataclass(eq=False)
class State:
    """One game in progress. Create with Game.new_state(seed)."""

    game: Compiled
    g: dict[str, Any]
    p: list[dict[str, Any]]
    v: dict[str, Any]
    _rng: random.Random | None  # read and set through `rng` (made or cloned on first use)
    seed: int
    pc: int = 0
    calls: list[int] = field(default_factory=list)
    pending: dict[str, tuple] | None = None
    who: int | None = None
    round: int = 0
    decisions: int = 0
    history: list[str] = field(default_factory=list)
    # the public log; a line whose text is an OwnLine (dsl/runtime/loglines.py) has another text for
    # one seat, which only log_for(that seat) gives
    log: list[LogEntry] | None = field(default_factory=list)
    over: bool = False
    t: dict[str, Any] = field(default_factory=dict)
    # what active pieces grant, per seat and ability; emptied whenever a piece changes and at
    # every decision (the caller may have edited pieces directly)
    ab: dict[int, dict[str, int]] = field(default_factory=dict)  # seat -> what its pieces grant
    _result: Result | None = None
    # `_rng` may be shared with copies of this state: whoever draws first clones it first
    _rng_shared: bool = False
    _rng_seed: int | None = None  # with `_rng` None: the seed it is made from when first used
    # each seat's observations and memory (infoset/knowledge.py), only on a state that records them
    # (Game.new_state(record=...)); copies for search drop it
    rec: Recorder | None = None
    # a journal build's notes of what its rules wrote (dsl/emit/journal.py), kept while a reader
    # follows them (infoset/changes.py: the agents' encoder); None where none is kept (a new
    # state, a copy, a state no one follows)
    tj: Journal[Note] | None = None
    # the moves the engine took itself (a decision's only option: machine.take_only), as
    # (seat, option id), kept only where a caller asks for them (a scenario run checks them by
    # id); None elsewhere, and in a copy
    only_choices: list[tuple[int | None, str]] | None = None
    # (seat, start): the choices from `start` on are that seat's own moves, all takeable back
    # (engine/undo.py); kept only on a state that watches (`undo_watch`), None elsewhere
    undo_run: tuple[int, int] | None = None
    undo_watch: UndoWatch | None = None

    @property
    def rng(self) -> random.Random:
        """The game's one seeded generator (the only source of randomness)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._rng_seed)
        elif self._rng_shared:
            # Random() would seed itself from the OS first; a bare instance takes the state
            shared = rng
            rng = random.Random.__new__(random.Random)
            rng.setstate(shared.getstate())
            self._rng = rng
            self._rng_shared = False
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        self._rng_shared = False

    def reseed(self, seed: int) -> None:
        """Restart the generator as ``random.Random(seed)``, made only when first drawn from
        (seeding costs more than a copy; a search playout often ends before any draw)."""
        self._rng = None
        self._rng_seed = seed
        self._rng_shared = False

    # a decision with one legal option is taken by the engine (see machine.take_only; one
    # whose options may depend on a hidden field is asked where what every seat sees does not
    # decide them: machine.asks_alone); False asks every decision (previews, scenarios, the
    # leak check, the old-save converter)
    take_forced: bool = True

    # -- the public surface ------------------------------------------------------------------
    # asked at every step of every driver's loop: a getter written in C runs no Python frame
    is_over = property(attrgetter("over"), doc="Whether the game has ended.")

    # the seat that must decide now, or None when the game is over (the end of a game sets
    # `who` to None: scoring.finish); read at every step of a driver's loop, so read in C
    to_move = property(attrgetter("who"), doc="The seat that must decide now (None: over).")

    def legal_options(self) -> list[str]:
        """Every legal option id at this point, in a stable order."""
        return [] if self.pending is None else list(self.pending)

    def apply(self, option_id: str) -> None:
        """Take one option; an unknown or illegal id raises and leaves the state unchanged."""
        pending = self.pending
        if pending is None or self.over:
            raise IllegalOptionError(option_id, [])
        entry = pending.get(option_id)
        if entry is None:
            raise IllegalOptionError(option_id, list(pending))
        spec, opt, values = entry
        rules = self.game.rules
        if self.decisions >= rules.limits.decisions:
            raise rules.limits.error("decisions", self.round, self.decisions)
        ab = self.ab
        if ab:  # the caller may have edited pieces directly since the last decision
            ab.clear()
        if values:  # one value for each slot (the listing made them together)
            if len(values) == 1:  # most: one `for` part, bound without a zip
                self.t[opt.slots[0]] = values[0]
            else:
                self.t.update(zip(opt.slots, values))  # noqa: B905 - no keyword to parse
        seat = self.who
        log = self.log
        mark = -1
        if log is not None:
            if opt.log is not None:
                text = opt.log(self)
                if text:  # an empty `log: ""`: a line written later tells the move
                    log.append((self.round, seat, text))
            else:
                mark = len(log)
        if spec.idle_flags:
            v = self.v
            for flag in spec.idle_flags:
                v[flag] = 1
        self.pending = self.who = None
        self.history.append(option_id)
        self.decisions += 1
        # the effect, then the machine on to the next decision: a rule failing in either is
        # the same diagnostic (this decision, this seat)
        try:
            opt.effect(self)
            if mark >= 0 and log is not None and len(log) == mark:
                # the option's effect said nothing itself: the log shows the choice as taken,
                # in its family's words
                # a declining option (`pass`) also says what it declined: the step's label
                declined = spec.label if option_id == spec.decline else ""
                log.append((self.round, seat, rules.words.choice(option_id, declined)))
            # the machine's loop (machine.run) written out for its most common case: the
            # function written for the next position runs on to the next decision to ask
            pc = self.pc + 1
            block = rules.program.blocks.get(pc)
            if block is None or block is STOPS_AT:
                run(rules, self, pc)
            else:
                self.pc = pc  # where a rule failing in the block leaves it, as run does
                pc = block(self)
                if pc < 0:  # a decision to ask (its options and seat are set)
                    self.pc = -1 - pc
                else:
                    run(rules, self, pc)
        except RULE_FAILURES as e:
            raise rule_failure(e, rules, self, seat, option_id) from None
        if self.rec is not None:
            self.rec.observe(self, seat, option_id)
        if self.undo_watch is not None:
            self.undo_watch.noted(self, seat)

    def copy(self, *, recording: bool = False) -> State:
        """An independent copy (the generator included); the log is not copied.

        A copy does not record observations (infoset/knowledge.py) unless ``recording`` asks it to
        (it then goes on from this state's records, with an empty log of its own); nor does it
        watch for moves to take back (undo.py) unless ``recording`` asks it to.

        The fields are copied by their declared shapes (copier.py); the generator is shared
        copy-on-write: both states clone it when they first draw (tree search often replaces
        a copy's generator before it draws at all).
        """
        g, p = self.game.copy_fields(self.g, self.p)
        shared = self._rng is not None
        self._rng_shared = shared
        # the scalars (and the game, the generator, the result) are taken over as they are in
        # one dict copy, then every mutable field is replaced by its own copy: cheaper than
        # naming all twenty fields in a call
        fields = self.__dict__.copy()
        pending = self.pending
        fields.update(
            started_without(),
            g=g,
            p=p,
            v=self.v.copy(),
            calls=self.calls.copy(),
            pending=pending.copy() if pending is not None else None,
            history=self.history.copy(),
        )
        if recording and self.rec is not None:
            fields["rec"] = self.rec.copy()
            fields["log"] = []
        if recording and self.undo_watch is not None:
            fields["undo_watch"] = self.undo_watch.copy()
            fields["undo_run"] = self.undo_run
        new = State.__new__(State)
        new.__dict__ = fields
        return new

    # copy.copy and copy.deepcopy copy the fields as they always did (pickling replays instead)
    def __copy__(self) -> State:
        new = State.__new__(State)
        new.__dict__ = self.__dict__.copy()
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        new = State.__new__(State)
        memo[id(self)] = new
        new.__dict__ = deepcopy(self.__dict__, memo)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """A state pickles as a save file is made: its game (loaded again, Game.__reduce__),
        seed, settings and choices, replayed when unpickled (rule code and the options'
        compiled entries do not pickle), with its fields to check the replay against."""
        return (
            _replayed_state,
            (
                self.game,
                self.seed,
                self.policy(),
                list(self.history),
                self.rec is not None,
                self.log is not None,
                copy_tree(self.g),
                copy_tree(self.p),
            ),
        )

    def policy(self) -> dict[str, bool]:
        """How this state decides a decision with one legal option, as ``Game.new_state``'s
        settings (what a replay of its choices needs: its save format)."""
        return {"take_forced": self.take_forced}

    def log_for(self, seat: int | None) -> list[LogEntry]:
        """The log as `seat` reads it: ``state.log``'s lines, each with the text its seat
        reads instead where a line has one (the names of its own hidden cards:
        dsl/runtime/loglines.py); None, a spectator or any other seat, gets the public texts. Every
        driver that shows one seat the log asks this, never ``log`` itself."""
        return lines_for(self.log or (), seat)

    def view(self, seat: int, *, every_seat: bool = False) -> View:
        """What `seat` may see: hidden fields of others and hidden piles show only counts
        (``every_seat``: each seat's own hidden fields are shown, for a game that has ended)."""
        return seat_view(self.game.rules, self, seat, every_seat=every_seat)

    def record(self, *, observations: bool = True) -> None:
        """Start recording every seat's observations and memory from this state on (what
        ``Game.new_state(record=True)`` does; a test that edits a fresh state calls it after).
        ``observations=False`` keeps only what seats remember (``state: remember:``)."""
        self.rec = Recorder(self, observations=observations)

    def remembered(self) -> Recorder | None:
        """The recorder of what seats remember (infoset/knowledge.py), for a ruleset that declares
        ``state: remember:`` (None for one that does not). On a state that records nothing it
        is made now, by replaying the game from its seed and choices, and kept: it goes on
        recording from here. A state edited by hand, which the replay does not reproduce,
        remembers from now on."""
        if self.rec is not None or not self.game.rules.remember:
            return self.rec
        again = self._replayed(record=False, memory=True)
        if again.g == self.g and again.p == self.p and again.rec is not None:
            self.rec = again.rec
        else:
            self.record(observations=False)
        return self.rec

    def _replayed(self, *, record: bool, memory: bool = False) -> State:
        """This game played again from its seed with its choices."""
        again = self.game.new_state(self.seed, **self.policy(), record=record)
        if memory and again.rec is None:
            again.record(observations=False)
        for option_id in self.history:
            again.apply(option_id)
        return again

    def information_state(self, seat: int) -> list[dict[str, Any]]:
        """What `seat` knows (perfect recall): every view it was shown, as a digest, the log
        lines it was shown, who decided at each step and the options it chose itself, oldest
        first (infoset/knowledge.py). A state that does not record replays its game from the
        seed and the choices (the same game with recording on)."""
        rec = self.rec
        if rec is None or not rec.observations:
            rec = self._replayed(record=True).rec
            assert rec is not None
        return rec.information_state(seat)

    def result(self) -> Result:
        if not self.over or self._result is None:
            raise ValueError("the game is not over")
        return self._result

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (for inspection and golden files)."""
        return {
            "round": self.round,
            "to_move": self.to_move,
            "options": self.legal_options(),
            "global": copy_tree(self.g),
            "players": copy_tree(self.p),
            "flow": {k: v for k, v in self.v.items() if not k.startswith("_")},
            "over": self.over,
        }


def _replayed_state(
    game: Compiled,
    seed: int,
    policy: dict[str, bool],
    history: list[str],
    recording: bool,
    logging: bool,
    g: dict[str, Any],
    p: list[dict[str, Any]],
) -> State:
    """A pickled state again (State.__reduce__): its game replayed from the seed and choices."""
    state = game.new_state(seed, **policy, record=recording)
    for option_id in history:
        state.apply(option_id)
    if state.g != g or state.p != p:
        raise ValueError(
            "this state was changed by hand after its game was set up, so its seed and choices "
            "do not make it again; only a state played through new_state and apply unpickles"
        )
    if not logging:
        state.log = None
    return state
