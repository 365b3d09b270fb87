"""What one seat may download of a live table: its own record, never the save.

A save (seed and every choice) tells every hidden value of the game, past and future, so while
people play it goes to nobody. A seat's record holds, for every decision of the game so far,
what that seat was shown (its view of the table and the new log lines, exactly as its messages
carried them) and, at its own decisions, the options it had and the one it chose. A
spectator's record (no token) is the public history: the view of no seat and the log, and no
choice at all, since a choice itself may be secret (which hidden card a seat gave up). The
record is rebuilt by replaying the table from its seed on the server; only views leave it.
"""

from __future__ import annotations

from typing import Protocol

from interpreter.dsl.runtime.loglines import lines_for
from interpreter.engine.game import Game
from interpreter.engine.savefile import SaveGame
from interpreter.serve.messages import SPECTATOR
from interpreter.serve.render import log_lines
from interpreter.serve.table import Table
from interpreter.serve.wire import Record, RecordStep

__all__ = ["RECORD_FORMAT", "full_save_allowed", "seat_record"]

RECORD_FORMAT = "rulebook-record/1"


class Recorded(Protocol):
    """What a seat's record is made from: a live table, or (in a worker process) its header."""

    @property
    def id(self) -> str: ...
    @property
    def save(self) -> SaveGame: ...
    @property
    def game(self) -> Game: ...
    @property
    def practice(self) -> bool: ...


def full_save_allowed(table: Table) -> bool:
    """The save (seed and every choice) is anybody's once the game is over, or at a table
    where no person plays (bots only: nothing to keep from anyone)."""
    return bool(table.state.is_over or table.bot_only)


def seat_record(table: Recorded, seat: int | None) -> Record:
    """The record of ``seat`` (None: a spectator) at ``table`` up to its current decision."""
    save = table.save
    viewer = SPECTATOR if seat is None else seat
    state = save.new_state(table.game)
    steps: list[RecordStep] = []
    shown = 0  # log entries already in an earlier step
    for number, choice in enumerate([*save.choices, None]):
        view = state.view(viewer)
        to_move = None if state.is_over else state.to_move
        entries = (state.log or [])[shown:]
        shown += len(entries)
        step: RecordStep = {
            "decision": number,
            "round": view["round"],
            "to_move": to_move,
            "view": view,  # the state's values copied (seat_view): later moves leave it be
            # as the seat's messages carried it: its own texts, the others' public ones
            "log": log_lines(lines_for(entries, seat, keep_seat=False)),
        }
        if to_move is not None and to_move == seat:
            step["options"] = list(state.legal_options())
            if choice is not None:
                step["chose"] = choice
        steps.append(step)
        if choice is not None:
            state.apply(choice)
    return {
        "format": RECORD_FORMAT,
        "table": table.id,
        "game": save.game,
        "players": save.players,
        "overlays": [_overlay_name(o) for o in save.overlays],
        "options": dict(save.options),
        "seats": list(save.seats),
        "seat": seat,
        "practice": table.practice,
        "decisions": len(save.choices),
        "steps": steps,
    }


def _overlay_name(overlay: str) -> str:
    """An overlay as the record names it: a catalog id, or an uploaded file's name (never a
    path of the server's machine)."""
    if "/" in overlay or "\\" in overlay:
        return overlay.replace("\\", "/").rsplit("/", 1)[-1]
    return overlay
