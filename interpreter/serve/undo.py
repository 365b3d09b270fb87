"""Undo at the web table: ``POST /api/tables/ID/undo``.

A person's seat link takes back that seat's own last moves within its turn, as the engine
allows (engine/undo.py: while it is the seat to move, and nothing since told anybody anything:
no other seat decided, no draw from the generator, no card came into sight). The seat's
message says how many it may take back now (``undo``; 0 for every other seat and a
spectator). The moves taken back leave the database too: the table replays from the choices
before them, so a save, a record and a restart know nothing of them; the generator has not
been drawn from since, so the game's future is the one it had.

Everybody at the table is sent the position taken back to, their logs sent whole again (the
lines of the moves taken back gone). What they learn is what they saw: the moves themselves
(shown as they were made) and that they were taken back; nothing hidden is shown by an undo.

``POST {"token": T, "decision": N, "moves": K}`` (``moves``: 1 if left out, at most the
message's ``undo``; ``decision``: the message's, as for a move) -> the seat's message after
the undo. A spectator, a stale decision, another seat's turn, more moves than may be taken
back, or any other field is refused with a message, and nothing changes.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from interpreter.engine.undo import undoable
from interpreter.serve.api import broadcast, error_response, hub_of, read_json
from interpreter.serve.jsonbody import JSONResponse
from interpreter.serve.messages import seat_message
from interpreter.serve.table import ServeError, Table, check_turn
from interpreter.serve.tables import Hub

__all__ = ["NOTHING_TO_UNDO", "undo", "undo_routes"]

_FIELDS = frozenset({"token", "decision", "moves"})

NOTHING_TO_UNDO = (
    "nothing to take back: only your own moves of this turn can be, until another seat "
    "moves, a card or anything hidden comes into view, or the game draws at random"
)


def check_undo(table: Table, token: Any, decision: Any, moves: Any) -> tuple[int, int]:
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


async def undo(hub: Hub, table: Table, token: Any, decision: Any, moves: Any) -> int:
    """Take back the asking seat's moves (checked first, with no move of the table being
    written: a refusal changes nothing); returns the seat."""
    await hub.settle(table)
    seat, count = check_undo(table, token, decision, moves)
    await hub.take_back_async(table, seat, count)
    return seat


async def table_undo(request: Request) -> Response:
    hub = hub_of(request)
    try:
        hub.get(request.path_params["table_id"])  # an unknown table: 404 before the body
        data = await read_json(request)
        unknown = sorted(str(k) for k in data if k not in _FIELDS)
        if unknown:
            raise ServeError(
                f"unknown field(s) {', '.join(unknown)}: send token, decision and moves only"
            )
        table = hub.get(request.path_params["table_id"])
        seat = await undo(hub, table, data.get("token"), data.get("decision"), data.get("moves"))
    except ServeError as exc:
        return error_response(exc)
    broadcast(table, hub)
    return JSONResponse(seat_message(table, seat))


def undo_routes() -> list[Any]:
    return [Route("/api/tables/{table_id}/undo", table_undo, methods=["POST"])]
