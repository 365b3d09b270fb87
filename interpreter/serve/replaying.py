"""A table as everybody saw it after a chosen number of decisions: the message of a replay
step, built where the rules run (the server's process with ``--workers 0``, else a worker
process, within the CPU budget of one move per decision replayed)."""

from __future__ import annotations

from typing import Any

from interpreter.diagnostics.suggest import echo
from interpreter.engine.savefile import SaveGame, replay_error
from interpreter.serve.messages import seat_message
from interpreter.serve.presentation import Presentation
from interpreter.serve.tables import Table

__all__ = ["held_step", "replay_message"]


def replay_message(
    game: Any, pres: Presentation, save: SaveGame, step: int | None
) -> dict[str, Any]:
    """The spectator's message after ``step`` decisions of ``save`` (None: at its end)."""
    state = save.new_state(game)
    step = len(save.choices) if step is None else min(step, len(save.choices))
    for n, choice in enumerate(save.choices[:step], 1):
        if choice not in state.legal_options():
            raise replay_error(f"step {n}: {echo(choice)} is not a legal option there", "the save")
        state.apply(choice)
    table = Table("replay", save, [], 0.0, game, pres, state)
    table.save = SaveGame(**{**save.__dict__, "choices": save.choices[:step]})
    # a game that has ended keeps no secret: its replay shows every hand at every step (the
    # server writes a table's result only once it is over; a save file carries its seed)
    return _as_step(table, step, len(save.choices), save.result is not None)


def held_step(table: Table) -> dict[str, Any]:
    """The replay step at a table's present position: the position it holds, no replay (the
    spectators' message, built once per position and shared)."""
    return _as_step(table, table.decision, table.decision, table.state.is_over)


def _as_step(table: Table, step: int, steps: int, ended: bool) -> dict[str, Any]:
    message = seat_message(table, None, every_seat=ended)
    message["table"] = "replay"
    message["error"] = None
    message["steps"] = steps
    message["step"] = step
    message["hands_shown"] = ended
    message["type"] = "replay"
    return message
