"""Taking back a seat's own moves of its turn: the checks and the change, shared by ``POST
/api/tables/ID/undo`` (serve/undo_api.py) and the websocket's ``{"type": "undo"}`` message
(serve/api.py), so both refuse the same requests with the same words.

What may be taken back is the engine's to say (engine/undo.py: while it is the seat to move,
and nothing since told anybody anything: no other seat decided, no draw from the generator, no
card came into sight)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from interpreter.engine.undo import undoable
from interpreter.serve.table import ServeError, Table, check_turn
from interpreter.serve.tables import Hub

__all__ = ["NOTHING_TO_UNDO", "check_fields", "check_undo", "undo"]

NOTHING_TO_UNDO = (
    "nothing to take back: only your own moves of this turn can be, until another seat "
    "moves, a card or anything hidden comes into view, or the game draws at random"
)


def check_fields(data: Mapping[str, object], allowed: Iterable[str], say: str) -> None:
    """Refuse a request with a field it does not take (``say``: what to send instead)."""
    known = frozenset(allowed)
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise ServeError(f"unknown field(s) {', '.join(unknown)}: send {say} only")


def check_undo(table: Table, token: object, decision: object, moves: object) -> tuple[int, int]:
    """The seat asking and how many moves it takes back, once every check has passed."""
    seat = table.seat_of(token)
    if seat is None:
        raise ServeError("a spectator cannot undo: open your seat's link", 403)
    if moves is None:
        moves = 1
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 1:
        raise ServeError("'moves' must be how many of your moves to take back (1 or more)")
    if table.error is not None:
        raise ServeError(f"this table has stopped: {table.error}", 409)
    check_turn(table, seat, decision)
    state = table.state
    can = undoable(state, seat)
    if can == 0:
        raise ServeError(NOTHING_TO_UNDO, 409)
    if moves > can:
        raise ServeError(f"you may take back {can} move(s) now, not {moves}", 409)
    return seat, moves


async def undo(hub: Hub, table: Table, token: object, decision: object, moves: object) -> int:
    """Take back the asking seat's moves (checked first, with no move of the table being
    written: a refusal changes nothing); returns the seat."""
    await hub.settle(table)
    seat, count = check_undo(table, token, decision, moves)
    await hub.take_back_async(table, seat, count)
    return seat
