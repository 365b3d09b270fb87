"""A table as everybody saw it after a chosen number of decisions: the message of a replay
step, built where the rules run (the server's process with ``--workers 0``, else a worker
process, within the CPU budget of one move per decision replayed).

A replay page asks for one step after another (a slider), so :class:`ReplayCache` keeps the
positions of a replayed save every :data:`CHECKPOINT_EVERY` decisions: a step near one played
before plays at most that many decisions again, not the whole game.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from interpreter.diagnostics.suggest import echo
from interpreter.engine.game import Game
from interpreter.engine.savefile import SaveGame, replay_error
from interpreter.engine.state import State
from interpreter.serve.messages import seat_message
from interpreter.serve.tables import Table
from interpreter.serve.wire import ReplayStep
from interpreter.table.presenter import Presentation

__all__ = [
    "CHECKPOINT_EVERY",
    "NotCached",
    "ReplayCache",
    "held_step",
    "replay_message",
]

CHECKPOINT_EVERY = 32  # decisions between kept positions: a cached step plays at most these
MAX_KEPT = 8  # saves whose positions are kept (a few MB of states at most)


def replay_message(game: Game, pres: Presentation, save: SaveGame, step: int | None) -> ReplayStep:
    """The spectator's message after ``step`` decisions of ``save`` (None: at its end)."""
    return ReplayCache().message("", game, pres, save, step)[0]


class NotCached(Exception):  # noqa: N818 - a verdict: the step is not near a kept position
    """The step would play more decisions again than the caller allows (no kept position is
    near enough)."""


@dataclass
class _Kept:
    """The positions kept of one replayed save: decision number -> the state there."""

    game: Game
    choices: list[str]
    positions: dict[int, State] = field(default_factory=dict)


def _copy(state: State) -> State:
    kept = state.copy(recording=True)
    kept.log = None if state.log is None else list(state.log)
    return kept


class ReplayCache:
    """Positions of the saves replayed last (by a key the caller chooses: a table's id, a save
    file's digest), every :data:`CHECKPOINT_EVERY` decisions."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, _Kept] = OrderedDict()

    def message(
        self,
        key: str,
        game: Game,
        pres: Presentation,
        save: SaveGame,
        step: int | None,
        most: int | None = None,
    ) -> tuple[ReplayStep, int]:
        """The spectator's message after ``step`` decisions of ``save`` (None: at its end)
        and how many decisions were played again for it; from the nearest kept position at or
        before the step. Raises :class:`NotCached` when that would play more than ``most``."""
        save.upgrade(game)  # an older format's choices, in this format's terms
        step = len(save.choices) if step is None else min(step, len(save.choices))
        kept = self._kept.pop(key, None) if key else None
        if kept is None or kept.game is not game:
            kept = _Kept(game, list(save.choices))
        start = max((n for n in kept.positions if n <= step), default=0)
        if start and kept.choices[:start] != save.choices[:start]:  # another game by that key
            kept = _Kept(game, list(save.choices))
            start = 0
        if most is not None and step - start > most:
            raise NotCached(f"step {step} is {step - start} decisions from a kept position")
        if len(save.choices) > len(kept.choices):  # a live table has played on meanwhile
            kept.choices = list(save.choices)
        state = _copy(kept.positions[start]) if start else save.new_state(game)
        for n in range(start + 1, step + 1):
            choice = save.choices[n - 1]
            if choice not in state.legal_options():
                raise replay_error(
                    f"step {n}: {echo(choice)} is not a legal option there", "the save"
                )
            state.apply(choice)
            if n % CHECKPOINT_EVERY == 0 and n not in kept.positions:
                kept.positions[n] = _copy(state)
        if key:
            self._kept[key] = kept
            while len(self._kept) > MAX_KEPT:
                self._kept.popitem(last=False)
        return self._step(game, pres, save, state, step), step - start

    @staticmethod
    def _step(
        game: Game, pres: Presentation, save: SaveGame, state: State, step: int
    ) -> ReplayStep:
        table = Table("replay", save, [], 0.0, game, pres, state)
        table.save = SaveGame(**{**save.__dict__, "choices": save.choices[:step]})
        # a game that has ended keeps no secret: its replay shows every hand at every step
        # (the server writes a table's result only once it is over; a save file has its seed)
        return _as_step(table, step, len(save.choices), save.result is not None)


def held_step(table: Table) -> ReplayStep:
    """The replay step at a table's present position: the position it holds, no replay (the
    spectators' message, built once per position and shared)."""
    return _as_step(table, table.decision, table.decision, table.state.is_over)


def _as_step(table: Table, step: int, steps: int, ended: bool) -> ReplayStep:
    message = seat_message(table, None, every_seat=ended)
    return {
        **message,
        "table": "replay",
        "error": None,
        "steps": steps,
        "step": step,
        "hands_shown": ended,
        "type": "replay",
    }
