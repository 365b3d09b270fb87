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
back, or any other field is refused with a message, and nothing changes. The checks and the
change are serve/take_back.py's, shared with the websocket's ``{"type": "undo"}`` message.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.serve.api import broadcast, error_response, hub_of, read_json
from interpreter.serve.jsonbody import JSONResponse
from interpreter.serve.messages import seat_message
from interpreter.serve.table import ServeError
from interpreter.serve.take_back import NOTHING_TO_UNDO, check_fields, check_undo, undo

__all__ = ["NOTHING_TO_UNDO", "check_undo", "undo", "undo_routes"]

_FIELDS = frozenset({"token", "decision", "moves"})


async def table_undo(request: Request) -> Response:
    hub = hub_of(request)
    try:
        hub.get(request.path_params["table_id"])  # an unknown table: 404 before the body
        data = await read_json(request)
        check_fields(data, _FIELDS, "token, decision and moves")
        table = hub.get(request.path_params["table_id"])
        seat = await undo(hub, table, data.get("token"), data.get("decision"), data.get("moves"))
    except ServeError as exc:
        return error_response(exc)
    broadcast(table, hub)
    return JSONResponse(seat_message(table, seat))


def undo_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{table_id}/undo", table_undo, methods=["POST"])]
