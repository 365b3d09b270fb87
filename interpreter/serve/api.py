"""The JSON API and the websocket of ``rulebook serve``.

Every refusal is ``{"error": "..."}`` with a fitting status (400 bad request, 403 wrong seat,
404 unknown table, 409 stale decision or not your turn, 413 too large, 422 illegal move, 429
too many tables or uploads from one address); the game is never changed by a refused request.

No request waits on another client: a change at a table only marks each of its websockets'
outboxes (``fanout.py``), each drained by its connection's own task.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from interpreter.serve.fanout import Outbox
from interpreter.serve.game_menu import games_listing_async
from interpreter.serve.gesture_moves import move_or_gesture
from interpreter.serve.jsonbody import MAX_DEPTH, JSONResponse, too_deep
from interpreter.serve.messages import seat_message
from interpreter.serve.publish import OUTBOX, broadcast
from interpreter.serve.records import full_save_allowed
from interpreter.serve.tables import Hub, ServeError, Table
from interpreter.serve.take_back import check_fields, undo
from interpreter.serve.transport import MAX_MESSAGE
from interpreter.serve.wire import SeatMessage
from interpreter.table.seat_names import seat_names

__all__ = [
    "MAX_BODY",
    "api_routes",
    "broadcast",
    "create_from",
    "creator_token",
    "read_json",
    "remember_table",
    "remembered_tables",
    "remove_table",
]

MAX_BODY = 1024 * 1024  # a JSON request (a save file with every choice fits easily)
TOO_LARGE = f"request too large (more than {MAX_BODY // 1024} KB)"
# a websocket message from a client (a move is under 100 bytes); uvicorn refuses a longer one
# from its frame header (transport.py), this check is for a server that does not
MAX_FRAME = MAX_MESSAGE
# a websocket's undo: the token is the socket's own (its link), the rest as for POST .../undo
_SOCKET_UNDO_FIELDS = frozenset({"type", "decision", "moves"})
_SOCKET_TYPES = '{"type": "move", ...} or {"type": "undo", "decision": N}'


MAX_ERROR = 4000  # characters of a refusal's message: what it quotes of a request is cut


def said(message: str) -> str:
    """A refusal's message as sent: one that quotes a stranger's megabyte back is cut in the
    middle (its start and its end, a did-you-mean included, are kept)."""
    if len(message) <= MAX_ERROR:
        return message
    cut = len(message) - MAX_ERROR
    return f"{message[: MAX_ERROR - 500]}… ({cut:,} characters cut) …{message[-500:]}"


def error_response(exc: ServeError) -> JSONResponse:
    return JSONResponse({"error": said(exc.message)}, status_code=exc.status)


async def read_body(request: Request, limit: int, too_large: str) -> bytes:
    """The request's body, read as it streams: refused with 413 (``too_large``) as soon as it
    passes ``limit`` bytes, whether or not it declared its length, so a body of any size (a
    chunked one with no Content-Length included) never costs more than ``limit`` in memory."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ServeError(too_large, 413)
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ServeError(too_large, 413)
            chunks.append(chunk)
    except ClientDisconnect:
        raise ServeError("the request was cut off before its end") from None
    return b"".join(chunks)


async def read_json(request: Request) -> dict[str, object]:
    """The request's JSON object, or a ServeError saying what is wrong with it."""
    return parse_json(await read_body(request, MAX_BODY, TOO_LARGE))


def parse_json(body: bytes | str) -> dict[str, object]:
    """A JSON object from a request or a websocket message, or a ServeError saying why not
    (text nested too deeply is refused before it is parsed)."""
    if too_deep(body):
        raise ServeError(f"JSON nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ServeError(f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ServeError("expected a JSON object")
    return data


def hub_of(request: Request | WebSocket) -> Hub:
    return request.app.state.hub


async def create_from(
    hub: Hub, data: Mapping[str, object], overlays: list[str] | None = None
) -> Table:
    """A new table from a request's fields (checked one by one, with messages for people)."""
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise ServeError("'game' must name a game (see GET /api/games)")
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise ServeError("'seats' must list each seat as \"human\" or a bot name")
    players = data.get("players", len(seats))
    if isinstance(players, bool) or not isinstance(players, int):
        raise ServeError("'players' must be an integer")
    chosen = data.get("overlays", []) if overlays is None else overlays
    if not isinstance(chosen, list) or not all(isinstance(o, str) for o in chosen):
        raise ServeError("'overlays' must be a list of overlay ids")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ServeError("'options' must be an object of option names and values")
    seed = data.get("seed")
    if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 100:
        seed = int(seed)  # a browser sends a big seed as text: a JS number is exact to 2**53
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ServeError("'seed' must be an integer")
    speed = data.get("speed", 2.0)
    if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not 0 <= speed <= 100:
        raise ServeError("'speed' must be a number of moves per second from 0 to 100")
    return await hub.create_async(game, players, seats, chosen, options, seed, speed)


CREATOR_COOKIE = "rulebook_tables"  # "ID.TOKEN~ID.TOKEN": the tables this browser made
CREATOR_HEADER = "x-rulebook-creator"
MAX_REMEMBERED = 40  # tables a browser remembers making (a cookie holds about 4 KB)


def remembered_tables(request: HTTPConnection) -> dict[str, str]:
    """The creator tokens this browser keeps, by table id (from its cookie)."""
    out = {}
    for pair in request.cookies.get(CREATOR_COOKIE, "").split("~"):
        table_id, _, token = pair.partition(".")
        if table_id and token:
            out[table_id] = token
    return out


def remember_table(response: Response, request: Request, table: Table) -> None:
    """Let this browser manage the table it just made: its creator token in a cookie that only
    this server's own pages send (SameSite=Strict), no script reads (HttpOnly) and, when the
    page came over HTTPS, never travels over plain HTTP (Secure). Behind a proxy the scheme
    is the one the proxy says it was served with (``X-Forwarded-Proto``, believed from
    ``--forwarded-allow-ips`` only)."""
    known = remembered_tables(request)
    known.pop(table.id, None)
    pairs = [*(f"{i}.{t}" for i, t in known.items()), f"{table.id}.{table.creator}"]
    response.set_cookie(
        CREATOR_COOKIE,
        "~".join(pairs[-MAX_REMEMBERED:]),
        max_age=365 * 24 * 3600,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def creator_token(
    request: Request, table: Table, data: Mapping[str, object] | None = None
) -> object:
    """The creator token a request offers: the JSON field ``creator``, the
    ``X-Rulebook-Creator`` header, or this browser's cookie."""
    if data and data.get("creator") is not None:
        return data.get("creator")
    return request.headers.get(CREATOR_HEADER) or remembered_tables(request).get(table.id)


def table_summary(table: Table) -> dict[str, Any]:
    """What the creator of a table gets: the seat links and the creator token (sent to the
    creator only: when the table is made, and on asking with that token). The seed is there
    only where it is no secret: a bot-only table, or a practice table (the creator chose it);
    a creator who also plays must not know the deck."""
    seats = []
    for seat, kind in enumerate(table.save.seats):
        entry: dict[str, Any] = {"seat": seat, "kind": kind}
        if kind == "human":
            entry["token"] = table.tokens[seat]
            entry["url"] = f"/t/{table.id}?token={table.tokens[seat]}"
        seats.append(entry)
    summary: dict[str, Any] = {
        "id": table.id,
        "seats": seats,
        "watch": f"/t/{table.id}",
        "practice": table.practice,
        "creator": table.creator,
    }
    if table.bot_only or table.practice:
        # as text: a JSON number past 2**53 loses digits in a browser
        summary["seed"] = str(table.save.seed)
    return summary


async def games(request: Request) -> Response:
    return JSONResponse(await games_listing_async())


async def new_table(request: Request) -> Response:
    try:
        data = await read_json(request)
        overlays = data.get("overlays", [])
        uploads = request.app.state.uploads
        if isinstance(overlays, list):
            overlays = [uploads.resolve(o) if isinstance(o, str) else o for o in overlays]
        table = await create_from(
            hub_of(request), data, overlays if isinstance(overlays, list) else None
        )
    except ServeError as exc:
        return error_response(exc)
    await start_table(request.app, table)
    return JSONResponse(table_summary(table), status_code=201)


async def start_table(app: Starlette, table: Table) -> None:
    """Bots at a people's table move now; a bot-only table gets its watch task."""
    hub: Hub = app.state.hub
    if table.bot_only:
        app.state.watchers.start(table)
    else:
        await hub.run_bots_async(table)


async def upload_overlay(request: Request) -> Response:
    from interpreter.serve.house_rules import MAX_UPLOAD

    try:
        body = await read_body(
            request, MAX_UPLOAD, f"an overlay may be at most {MAX_UPLOAD // 1024} KB"
        )
        name = request.query_params.get("name", "overlay.yaml")
        overlay_id = await request.app.state.uploads.add_async(name, body)
    except ServeError as exc:
        return error_response(exc)
    return JSONResponse({"overlay": overlay_id}, status_code=201)


def _log_from(request: Request) -> int:
    text = request.query_params.get("log_from", "0")
    if not text.isdigit():
        raise ServeError("'log_from' must be a log entry number (0 or more)")
    return int(text)


async def table_state(request: Request) -> Response:
    try:
        table = hub_of(request).get(request.path_params["table_id"])
        seat = table.seat_of(request.query_params.get("token"))
        log_from = _log_from(request)
    except ServeError as exc:
        return error_response(exc)
    return JSONResponse(seat_message(table, seat, log_from))


async def move(request: Request) -> Response:
    """``POST /api/tables/ID/move``: the mover's answer is its own seat's message; the other
    sockets at the table are only marked to be sent theirs (nobody's reading is waited for)."""
    hub = hub_of(request)
    try:
        hub.get(request.path_params["table_id"])  # an unknown table: 404 before the body
        log_from = _log_from(request)
        data = await read_json(request)
        # looked up again once the body is in: the table may have been deleted meanwhile, and
        # from here to the answer nothing waits, so the move goes to the table as it is now
        table = hub.get(request.path_params["table_id"])
        seat = await move_or_gesture(hub, table, data.get("token"), data)
        await hub.run_bots_async(table)
    except ServeError as exc:
        return error_response(exc)
    broadcast(table, hub)
    return JSONResponse(seat_message(table, seat, log_from))


async def set_speed(request: Request) -> Response:
    hub = hub_of(request)
    try:
        table = hub.get(request.path_params["table_id"])
        data = await read_json(request)
        hub.set_speed(table, data.get("speed"), creator_token(request, table, data))
    except ServeError as exc:
        return error_response(exc)
    request.app.state.watchers.wake(table)
    return JSONResponse({"speed": table.speed})


async def seat_links(request: Request) -> Response:
    """``GET /api/tables/ID/links``: the seat links again, for the table's creator only."""
    try:
        table = hub_of(request).get(request.path_params["table_id"])
        table.check_creator(creator_token(request, table), "see its seat links")
    except ServeError as exc:
        return error_response(exc)
    return JSONResponse(table_summary(table))


async def delete_table(request: Request) -> Response:
    """``DELETE /api/tables/ID``: the creator removes the table (a refusal changes nothing)."""
    try:
        hub_of(request).get(request.path_params["table_id"])  # an unknown table: 404 at once
        body = await read_body(request, MAX_BODY, TOO_LARGE)
        data = parse_json(body) if body else {}
        table = hub_of(request).get(request.path_params["table_id"])
        await remove_table(request.app, table, creator_token(request, table, data))
    except ServeError as exc:
        return error_response(exc)
    return JSONResponse({"deleted": table.id})


async def remove_table(app: Starlette, table: Table, creator: object) -> None:
    """Delete a table (its creator only): stop its bots, tell and close its sockets (each by
    its own sender: a socket that reads nothing delays nobody)."""
    hub: Hub = app.state.hub
    hub.delete(table, creator)
    await app.state.watchers.cancel(table)
    for socket, _seat in table.listeners_items():
        outbox: Outbox | None = socket.scope.get(OUTBOX)
        if outbox is not None:
            outbox.push({"type": "error", "error": "the table's creator deleted it"})
            outbox.close(4410, "the table was deleted")
        table.forget(socket)


async def download_save(request: Request) -> Response:
    """``GET /api/tables/ID/save[?token=T]``: the save file once the game is over or at a
    bot-only table; while people play, only the asking seat's own record (no token: the
    public record), never the seed nor another seat's choices."""
    try:
        table = hub_of(request).get(request.path_params["table_id"])
        seat = table.seat_of(request.query_params.get("token"))
    except ServeError as exc:
        return error_response(exc)
    data: Mapping[str, object]
    if full_save_allowed(table):
        data = table.to_save().to_json()
        name = f"{table.game.name}-{table.id}.json"
    else:
        try:
            record = await hub_of(request).record(table, seat)
        except ServeError as exc:
            return error_response(exc)
        # each seat's name, as the table's pages show it (its log keeps the engine's "seat N")
        record["names"] = seat_names(table.save.seats, table.names)
        data = record
        who = "public" if seat is None else f"seat{seat}"
        name = f"{table.game.name}-{table.id}-{who}.json"
    return Response(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def send_state(socket: WebSocket, table: Table, seat: int | None) -> SeatMessage:
    """The seat's message for this socket now, with only the log entries it has not had yet
    (built when the socket can take it: a slow reader misses no log entry)."""
    sent = table.log_sent(socket.scope)
    message = seat_message(table, seat, sent)
    socket.scope["rulebook_log_sent"] = sent + len(message["log"])
    return message


async def table_socket(websocket: WebSocket) -> None:
    """Live play: the server pushes the seat's message on every change; the client sends
    ``{"type": "move", "option": ID, "decision": N}`` or ``{"type": "undo", "decision": N,
    "moves": K}`` (checked and answered as ``POST .../undo``: serve/take_back.py) and gets an
    error message if refused.

    Two tasks serve a connection: this one reads the client's messages, its outbox's task
    sends (``fanout.py``); when either ends (the client left, or it read too slowly and was
    dropped) the other is stopped."""
    hub = hub_of(websocket)
    await websocket.accept()
    try:
        table = hub.get(websocket.path_params["table_id"])
        seat = table.seat_of(websocket.query_params.get("token"))
    except ServeError as exc:
        await websocket.send_json({"type": "error", "error": exc.message})
        await websocket.close(code=4000 + exc.status)
        return
    limits = websocket.app.state.limits
    outbox = Outbox(
        websocket,
        lambda: send_state(websocket, table, seat),
        deadline=limits.send_deadline_s,
        limit=limits.send_queue,
    )
    websocket.scope[OUTBOX] = outbox
    table.listen(websocket, seat)
    outbox.notify()  # the position as it is now
    sender = asyncio.create_task(outbox.run())
    reader = asyncio.create_task(_read_moves(websocket, hub, table, seat, outbox))
    try:
        await asyncio.wait({sender, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        table.forget(websocket)
        for task in (reader, sender):
            task.cancel()
        for task in (reader, sender):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _read_moves(
    websocket: WebSocket, hub: Hub, table: Table, seat: int | None, outbox: Outbox
) -> None:
    """Apply the moves a client sends until it leaves; a refusal (a bad frame included) is
    answered with an error message and the seat's position, through the outbox."""
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        try:
            if text is None:
                raise ServeError(f"send text frames holding JSON ({_SOCKET_TYPES})")
            if len(text) > MAX_FRAME:
                raise ServeError(f"message too large (more than {MAX_FRAME // 1024} KB)", 413)
            data = parse_json(text)
            kind = data.get("type", "move")
            token = websocket.query_params.get("token")
            if kind == "undo":
                check_fields(data, _SOCKET_UNDO_FIELDS, "type, decision and moves")
                await undo(hub, table, token, data.get("decision"), data.get("moves"))
            elif kind == "move":
                await move_or_gesture(hub, table, token, data)
                await hub.run_bots_async(table)
            else:
                raise ServeError(f"unknown message type (send {_SOCKET_TYPES})")
        except ServeError as exc:
            outbox.push({"type": "error", "error": said(exc.message)})
            outbox.notify()
            continue
        broadcast(table, hub)


def api_routes() -> list[BaseRoute]:
    return [
        Route("/api/games", games),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/overlays", upload_overlay, methods=["POST"]),
        Route("/api/tables/{table_id}/state", table_state),
        Route("/api/tables/{table_id}/move", move, methods=["POST"]),
        Route("/api/tables/{table_id}", delete_table, methods=["DELETE"]),
        Route("/api/tables/{table_id}/links", seat_links),
        Route("/api/tables/{table_id}/speed", set_speed, methods=["POST"]),
        Route("/api/tables/{table_id}/save", download_save),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
    ]
