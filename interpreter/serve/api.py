"""The JSON API and the websocket of ``rulebook serve``.

Every refusal is ``{"error": "..."}`` with a fitting status (400 bad request, 403 wrong seat,
404 unknown table, 409 stale decision or not your turn, 413 too large, 422 illegal move); the
game is never changed by a refused request.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.engine.savefile import validate_save
from interpreter.serve.catalog import games_listing
from interpreter.serve.messages import seat_message
from interpreter.serve.tables import Hub, ServeError, Table

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


def error_response(exc: ServeError) -> JSONResponse:
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a ServeError saying what is wrong with it."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY:
        raise ServeError(f"request too large (more than {MAX_BODY // 1024} KB)", 413)
    try:
        body = await request.body()
    except ClientDisconnect:
        raise ServeError("the request was cut off before its end") from None
    if len(body) > MAX_BODY:
        raise ServeError(f"request too large (more than {MAX_BODY // 1024} KB)", 413)
    return parse_json(body)


def parse_json(body: bytes | str) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ServeError(f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ServeError("expected a JSON object")
    return data


def hub_of(request: Request | WebSocket) -> Hub:
    return request.app.state.hub


def create_from(hub: Hub, data: dict[str, Any], overlays: list[str] | None = None) -> Table:
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
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ServeError("'seed' must be an integer")
    speed = data.get("speed", 2.0)
    if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not 0 <= speed <= 100:
        raise ServeError("'speed' must be a number of moves per second from 0 to 100")
    return hub.create(game, players, seats, chosen, options, seed, speed)


CREATOR_COOKIE = "rulebook_tables"  # "ID.TOKEN~ID.TOKEN": the tables this browser made
CREATOR_HEADER = "x-rulebook-creator"
MAX_REMEMBERED = 40  # tables a browser remembers making (a cookie holds about 4 KB)


def remembered_tables(request: Request | WebSocket) -> dict[str, str]:
    """The creator tokens this browser keeps, by table id (from its cookie)."""
    out = {}
    for pair in request.cookies.get(CREATOR_COOKIE, "").split("~"):
        table_id, _, token = pair.partition(".")
        if table_id and token:
            out[table_id] = token
    return out


def remember_table(response: Response, request: Request, table: Table) -> None:
    """Let this browser manage the table it just made: its creator token in a cookie that only
    this server's own pages send (SameSite=Strict) and no script reads (HttpOnly)."""
    known = remembered_tables(request)
    known.pop(table.id, None)
    pairs = [*(f"{i}.{t}" for i, t in known.items()), f"{table.id}.{table.creator}"]
    response.set_cookie(
        CREATOR_COOKIE,
        "~".join(pairs[-MAX_REMEMBERED:]),
        max_age=365 * 24 * 3600,
        httponly=True,
        samesite="strict",
    )


def creator_token(request: Request, table: Table, data: dict[str, Any] | None = None) -> Any:
    """The creator token a request offers: the JSON field ``creator``, the
    ``X-Rulebook-Creator`` header, or this browser's cookie."""
    if data and data.get("creator") is not None:
        return data.get("creator")
    return request.headers.get(CREATOR_HEADER) or remembered_tables(request).get(table.id)


def table_summary(table: Table) -> dict[str, Any]:
    """What the creator of a table gets: the seat links and the creator token (sent to the
    creator only: when the table is made, and on asking with that token)."""
    seats = []
    for seat, kind in enumerate(table.save.seats):
        entry: dict[str, Any] = {"seat": seat, "kind": kind}
        if kind == "human":
            entry["token"] = table.tokens[seat]
            entry["url"] = f"/t/{table.id}?token={table.tokens[seat]}"
        seats.append(entry)
    return {
        "id": table.id,
        "seats": seats,
        "watch": f"/t/{table.id}",
        "seed": table.save.seed,
        "creator": table.creator,
    }


async def games(request: Request) -> Response:
    return JSONResponse(games_listing())


async def new_table(request: Request) -> Response:
    try:
        data = await read_json(request)
        overlays = data.get("overlays", [])
        uploads = request.app.state.uploads
        if isinstance(overlays, list):
            overlays = [uploads.resolve(o) if isinstance(o, str) else o for o in overlays]
        table = create_from(hub_of(request), data, overlays if isinstance(overlays, list) else None)
    except ServeError as exc:
        return error_response(exc)
    start_table(request.app, table)
    return JSONResponse(table_summary(table), status_code=201)


def start_table(app: Any, table: Table) -> None:
    """Bots at a people's table move now; a bot-only table gets its watch task."""
    hub: Hub = app.state.hub
    if table.bot_only:
        app.state.watchers.start(table)
    else:
        hub.run_bots(table)


async def upload_overlay(request: Request) -> Response:
    from interpreter.serve.overlays import MAX_UPLOAD

    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_UPLOAD:
        return error_response(ServeError(f"an overlay may be at most {MAX_UPLOAD // 1024} KB", 413))
    body = await request.body()
    try:
        name = request.query_params.get("name", "overlay.yaml")
        overlay_id = request.app.state.uploads.add(name, body)
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
    hub = hub_of(request)
    try:
        table = hub.get(request.path_params["table_id"])
        log_from = _log_from(request)
        data = await read_json(request)
        hub.move(table, data.get("token"), data.get("option"), data.get("decision"))
        seat = table.seat_of(data.get("token"))
        hub.run_bots(table)
    except ServeError as exc:
        return error_response(exc)
    await broadcast(table)
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
        table = hub_of(request).get(request.path_params["table_id"])
        data = await read_json(request) if await request.body() else {}
        await remove_table(request.app, table, creator_token(request, table, data))
    except ServeError as exc:
        return error_response(exc)
    return JSONResponse({"deleted": table.id})


async def remove_table(app: Any, table: Table, creator: Any) -> None:
    """Delete a table (its creator only): stop its bots, tell and close its sockets."""
    hub: Hub = app.state.hub
    hub.delete(table, creator)
    await app.state.watchers.cancel(table)
    for socket, _seat in table.listeners_items():
        try:
            await socket.send_json({"type": "error", "error": "the table's creator deleted it"})
            await socket.close(code=4410)
        except Exception:  # noqa: BLE001 - a socket already gone
            pass
        table.forget(socket)


async def download_save(request: Request) -> Response:
    try:
        table = hub_of(request).get(request.path_params["table_id"])
    except ServeError as exc:
        return error_response(exc)
    text = json.dumps(table.to_save().to_json(), indent=2, ensure_ascii=False) + "\n"
    name = f"{table.game.name}-{table.id}.json"
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def replay_step(request: Request) -> Response:
    """``{"save": {...}, "step": k}``: the table as everybody saw it after k decisions."""
    try:
        data = await read_json(request)
        save = validate_save(data.get("save"), "the save file")
        step = data.get("step", 0)
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ServeError("'step' must be a decision number (0 or more)")
        message = request.app.state.replays.message(save, step)
    except ServeError as exc:
        return error_response(exc)
    except Exception as exc:  # noqa: BLE001 - a replay error names the save and the step
        from interpreter.diagnostics.errors import RulebookError

        if not isinstance(exc, RulebookError):
            raise
        return error_response(ServeError(str(exc), 422))
    return JSONResponse(message)


async def send_state(socket: WebSocket, table: Table, seat: int | None) -> None:
    """The seat's message, with only the log entries this socket has not had yet."""
    sent = socket.scope.setdefault("rulebook_log_sent", 0)
    message = seat_message(table, seat, sent)
    socket.scope["rulebook_log_sent"] = sent + len(message["log"])
    await socket.send_json(message)


async def broadcast(table: Table) -> None:
    """Send every socket at the table its own seat's message."""
    for socket, seat in list(table.listeners_items()):
        try:
            await send_state(socket, table, seat)
        except Exception:  # noqa: BLE001 - a closed socket: forget it
            table.forget(socket)


async def table_socket(websocket: WebSocket) -> None:
    """Live play: the server pushes the seat's message on every change; the client sends
    ``{"type": "move", "option": ID, "decision": N}`` and gets an error message if refused."""
    hub = hub_of(websocket)
    await websocket.accept()
    try:
        table = hub.get(websocket.path_params["table_id"])
        seat = table.seat_of(websocket.query_params.get("token"))
    except ServeError as exc:
        await websocket.send_json({"type": "error", "error": exc.message})
        await websocket.close(code=4000 + exc.status)
        return
    table.listen(websocket, seat)
    try:
        await send_state(websocket, table, seat)
        while True:
            text = await websocket.receive_text()
            try:
                data = parse_json(text)
                if data.get("type", "move") != "move":
                    raise ServeError('unknown message type (send {"type": "move", ...})')
                token = websocket.query_params.get("token")
                hub.move(table, token, data.get("option"), data.get("decision"))
                hub.run_bots(table)
            except ServeError as exc:
                await websocket.send_json({"type": "error", "error": exc.message})
                await send_state(websocket, table, seat)
                continue
            await broadcast(table)
            await asyncio.sleep(0)
    except WebSocketDisconnect:
        pass
    finally:
        table.forget(websocket)


def api_routes() -> list[Any]:
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
        Route("/api/replay", replay_step, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
    ]
