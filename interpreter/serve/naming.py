"""A person names their seat: ``POST /api/tables/ID/name`` with ``{"token": T, "name": N}``.

The seat is the one the token opens (a spectator or a bot's seat is refused); the name is
checked by :func:`names.check_name` (length, no control character, not another seat's name)
and a refused one changes nothing. The name is kept in the table's database (a reload or a
restart keeps it) and every page at the table is sent its position again, its whole log
included, so that every line names the seat as it is called now.

Answer: ``{"seat": N, "names": [every seat's name]}``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.serve.api import error_response, hub_of, read_json
from interpreter.serve.jsonbody import JSONResponse
from interpreter.serve.publish import broadcast
from interpreter.serve.tables import Hub, ServeError, Table
from interpreter.table.seat_names import NameRefused, check_name, seat_names

__all__ = ["name_routes", "set_name"]

_FIELDS = frozenset({"token", "name"})
LOG_SENT = "rulebook_log_sent"  # a socket's count of log entries sent (api.send_state)


def set_name(hub: Hub, table: Table, token: object, raw: object) -> int:
    """Name the seat ``token`` opens (checked first: a refusal changes nothing); returns it."""
    seat = table.seat_of(token)
    if seat is None:
        raise ServeError("a name belongs to a seat: open your seat's link", 403)
    if seat in table.bots:
        raise ServeError(f"seat {seat} is played by a bot, named by its kind", 403)
    try:
        name = check_name(raw, seat, seat_names(table.save.seats, table.names))
    except NameRefused as exc:
        raise ServeError(str(exc)) from None
    if not hub.store.set_name(table.id, seat, name):
        raise ServeError("this table was deleted; nothing was set", 404)
    table.names[seat] = name
    table.messages.clear()  # every kept message names the seats
    for socket, _seat in table.listeners_items():
        socket.scope[LOG_SENT] = 0  # the whole log again, every line with the new name
    return seat


async def name_seat(request: Request) -> Response:
    hub = hub_of(request)
    try:
        data = await read_json(request)
        unknown = sorted(str(k) for k in data if k not in _FIELDS)
        if unknown:
            raise ServeError(
                f"unknown field(s) {', '.join(unknown)}: send token and name only "
                "(a seat names itself, by its token)"
            )
        table = hub.get(request.path_params["table_id"])
        seat = set_name(hub, table, data.get("token"), data.get("name"))
    except ServeError as exc:
        return error_response(exc)
    broadcast(table)
    return JSONResponse({"seat": seat, "names": seat_names(table.save.seats, table.names)})


def name_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{table_id}/name", name_seat, methods=["POST"])]
