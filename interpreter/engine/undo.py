"""Taking back a seat's own moves within its turn (undo), for the drivers that offer it to
people: the web table and the terminal.

A seat may take back the moves it made since its turn began, while it is still the seat to
move, as long as nothing in between told anybody something new:

* no other seat decided (a move the engine took by itself, a decision's only option, is the
  rules' and does not count; a decision asked of another seat does);
* the game's generator was not drawn from (a shuffle, a random pick): the position before the
  draw would let the seat draw again and pick the future it likes;
* no value came into a seat's sight from a place hidden from it (a card drawn into a hand or
  turned up from a face-down pile, a card played from a hand the others could not see): that
  seat cannot forget it.

What a state then keeps is ``undo_run``: ``(seat, start)``, the seat whose own moves are the
choices of the history from ``start`` on, all of them takeable back; None when there is none.
It is kept up to date only on a state that watches (:func:`watch_undo`: a driver that offers
undo asks for it; a copy for search, a bot's playout, a preview does not pay for it), by
:class:`UndoWatch` at the end of every ``State.apply``.

Taking moves back replays the game from its seed with the shorter list of choices
(:func:`taken_back`): ruleset + seed + choices still make every position, so a save or a
stored table just loses the choices taken back, and replays exactly. Since no draw was made
since ``start``, the generator's future after the undo is the one it had before.

"Came into sight" is told by the ids (the strings) a seat can see: a seat learned something
when an id it can see now, and could not see before, was then somewhere hidden from it (a pile
hidden from it, another seat's hidden field). Moving an id within its sight (a card from the
row to its board), or out of its sight (a card paid face down), tells it nothing new. An id
that is also somewhere hidden from the seat counts even when it came from elsewhere (another
copy of the same card): a false alarm refuses an undo, it never lets one tell a secret.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol, Self, TypeVar

from interpreter.engine.frame import Frame, Played

__all__ = ["Moves", "UndoWatch", "taken_back", "undoable", "watch_undo"]


class _Recording(Protocol):
    observations: bool  # whether the recorder keeps each seat's observations (knowledge.py)


S_co = TypeVar("S_co", covariant=True)


class _Replays(Played, Protocol[S_co]):
    """A game that starts new states of the kind ``S_co`` (``Game.new_state``)."""

    def new_state(
        self, seed: int = 0, *, take_forced: bool = True, record: bool = False
    ) -> S_co: ...


class Watched(Frame, Protocol):
    """A state as undo reads and writes it: a :class:`Frame` with its undo watch, its
    recorder (what the replay of :func:`taken_back` records as it did) and a game that starts
    states of its own kind."""

    undo_watch: UndoWatch | None

    @property
    def rec(self) -> _Recording | None: ...

    @property
    def game(self) -> _Replays[Self]: ...


W = TypeVar("W", bound=Watched)  # a state, given back as the same kind of state


class Sight:
    """The ids of one position: those every seat sees, each seat's own hidden ones (seen by
    that seat alone), and those in fields hidden from every seat."""

    __slots__ = ("public", "own", "secret")

    def __init__(self, public: Counter[str], own: list[Counter[str]], secret: set[str]) -> None:
        self.public = public
        self.own = own
        self.secret = secret

    def hidden_from(self, seat: int) -> set[str]:
        hidden = set(self.secret)
        for other, ids in enumerate(self.own):
            if other != seat:
                hidden.update(ids)
        return hidden


def _strings(value: Any, out: list[str]) -> None:
    """Append every string inside ``value`` (its lists' items, its dicts' values) to ``out``."""
    items = value.values() if type(value) is dict else value
    for item in items:
        t = type(item)
        if t is str:
            out.append(item)
        elif t is list or t is dict:
            _strings(item, out)


def sight_of(state: Frame) -> Sight:
    """The ids of ``state`` by who may see them (the rules' hidden fields)."""
    rules = state.game.rules
    hidden_global, hidden_player = rules.hidden_global, rules.hidden_player
    public: list[str] = []
    secret: list[str] = []
    for name, value in state.g.items():
        t = type(value)
        if t is str:
            (secret if name in hidden_global else public).append(value)
        elif t is list or t is dict:
            _strings(value, secret if name in hidden_global else public)
    own = []
    for pl in state.p:
        mine: list[str] = []
        for name, value in pl.items():
            t = type(value)
            if t is str:
                (mine if name in hidden_player else public).append(value)
            elif t is list or t is dict:
                _strings(value, mine if name in hidden_player else public)
        own.append(Counter(mine))
    return Sight(Counter(public), own, set(secret))


def _gained(after: Counter[str], before: Counter[str], into: dict[str, int]) -> None:
    """Add ``after - before`` to ``into``, losses as negative counts."""
    for key, count in after.items():
        diff = count - before.get(key, 0)
        if diff:
            into[key] = into.get(key, 0) + diff
    for key, count in before.items():
        if key not in after:
            into[key] = into.get(key, 0) - count


def told_something(before: Sight, after: Sight) -> bool:
    """Whether some seat sees now an id it did not see before that was hidden from it then."""
    # most moves change counts only (compared as dicts, in C: a total holds no count of 0)
    if dict.__eq__(after.public, before.public) and all(map(dict.__eq__, after.own, before.own)):
        return False
    public: dict[str, int] = {}
    _gained(after.public, before.public, public)
    for seat in range(len(before.own)):
        change = dict(public)
        _gained(after.own[seat], before.own[seat], change)
        new = {key for key, count in change.items() if count > 0}
        if new and not before.hidden_from(seat).isdisjoint(new):
            return True
    return False


def _generator(state: Frame) -> Any:
    rng = state._rng
    return None if rng is None else rng.getstate()


class UndoWatch:
    """What a watching state saw at its last position (its ids and its generator's state), to
    tell after each move whether the move told anybody something or drew from the generator.
    :meth:`noted` replaces these, never changes them in place, so a copy may share them."""

    __slots__ = ("sight", "generator")

    def __init__(self, state: Frame) -> None:
        self.sight = sight_of(state)
        self.generator = _generator(state)

    def copy(self) -> UndoWatch:
        new = UndoWatch.__new__(UndoWatch)
        new.sight, new.generator = self.sight, self.generator
        return new

    def noted(self, state: Frame, seat: int | None) -> None:
        """``seat`` has just made the last choice of ``state.history`` (``State.apply``, after
        the machine ran on to the next decision): extend its run, start a new one, or end it."""
        sight = sight_of(state)
        generator = _generator(state)
        told = generator != self.generator or told_something(self.sight, sight)
        self.sight, self.generator = sight, generator
        run = state.undo_run
        if told or seat is None:
            state.undo_run = None
        elif run is None or run[0] != seat:
            state.undo_run = (seat, len(state.history) - 1)


def watch_undo(state: W) -> W:
    """Keep ``state.undo_run`` up to date from now on (moves made before are not takeable
    back); returns the state."""
    state.undo_watch = UndoWatch(state)
    state.undo_run = None
    return state


class Moves(Protocol):
    """A state as :func:`undoable` reads it: whether it is over, who moves, the choices made
    (and, where it has one, its run of moves: ``undo_run``)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def history(self) -> list[str]: ...


def undoable(state: Moves, seat: int | None) -> int:
    """How many of its last choices ``seat`` may take back now: 0 unless it is the seat to
    move and its run of moves is unbroken (see the module's docstring). Reads only plain
    fields, so a state restored from a snapshot (the web server's) answers as well."""
    run = getattr(state, "undo_run", None)
    if run is None or seat is None or state.is_over or state.to_move != seat or run[0] != seat:
        return 0
    return len(state.history) - run[1]


def taken_back(state: W, seat: int, moves: int) -> W:
    """The position before ``seat``'s last ``moves`` choices: the game replayed from its seed
    with the choices before them, as ``state`` decides (its save format), recording and
    logging as ``state`` does, and watching. Raises ValueError when ``seat`` may not take
    back that many (:func:`undoable`); ``state`` itself is not changed."""
    can = undoable(state, seat)
    if moves < 1 or moves > can:
        raise ValueError(
            f"seat {seat} may take back {can} move(s) now, not {moves}"
            if can
            else f"seat {seat} has no move to take back now"
        )
    again = state.game.new_state(
        state.seed, **state.policy(), record=state.rec is not None and state.rec.observations
    )
    if state.log is None:
        again.log = None
    watch_undo(again)
    for option_id in state.history[: len(state.history) - moves]:
        again.apply(option_id)
    return again
