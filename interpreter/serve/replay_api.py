"""``POST /api/replay``: a table, or a save file, as everybody saw it after a chosen number of
decisions (the replay page's slider asks for one step after another).

A step of a live table at its present position is the position it holds: no replay. Any other
step is played again where the rules run, from the nearest position kept of the same save
(``replaying.ReplayCache``): a slider's next step plays a few decisions, not the game. A step
that plays more than :data:`~interpreter.serve.replaying.CHECKPOINT_EVERY` decisions again
counts against its client's quota of new tables (``--max-tables``); once that is spent, only
steps near a kept position are answered, others are a 429.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.engine.savefile import SaveGame, validate_save
from interpreter.serve.api import error_response, hub_of, read_json
from interpreter.serve.jsonbody import JSONResponse
from interpreter.serve.replaying import CHECKPOINT_EVERY, NotCached, held_step
from interpreter.serve.tables import ServeError
from interpreter.serve.wire import ReplayStep
from interpreter.table.seat_names import seat_names

__all__ = ["replay_routes"]


async def replay_step(request: Request) -> Response:
    """``{"save": {...}, "step": k}`` or ``{"table": ID, "step": k}``: the table as everybody
    saw it after k decisions (a spectator's message; ``"step": "end"``: after the last one). A
    table is replayed here, from its own save, so the browser never holds the seed or the
    choices of a game people still play."""
    try:
        data = await read_json(request)
        step = data.get("step", 0)
        if step == "end":
            step = None
        elif isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ServeError("'step' must be a decision number (0 or more) or \"end\"")
        if data.get("table") is not None:
            table_id = data["table"]
            if not isinstance(table_id, str):
                raise ServeError("'table' must be a table id (a string)")
            table = await hub_of(request).get_async(table_id)
            if step is None or step >= table.decision:  # the position it holds: no replay
                return JSONResponse(held_step(table))
            save = table.to_save()
            key = f"table:{table.id}"
            named = seat_names(table.save.seats, table.names)
        else:
            named = None
            save = validate_save(data.get("save"), "the save file")
            digest = hashlib.sha256(json.dumps(save.to_json(), sort_keys=True).encode())
            key = f"save:{digest.hexdigest()}"
        message = await _replayed(request, save, step, key)
        if named is not None:
            message = _renamed(message, named)
    except ServeError as exc:
        return error_response(exc)
    except Exception as exc:  # noqa: BLE001 - a replay error names the save and the step
        from interpreter.diagnostics.errors import RulebookError

        if not isinstance(exc, RulebookError):
            raise
        return error_response(ServeError(str(exc), 422))
    return JSONResponse(message)


def _renamed(message: ReplayStep, names: list[str]) -> ReplayStep:
    """A table's replay step with the names its people gave their seats: the step is played
    where the rules run, from the save alone, which names each person "Player N"."""
    plain = message["names"]
    swaps = [(old, new) for old, new in zip(plain, names, strict=False) if old != new]
    if not swaps:
        return message
    message = {**message, "names": list(names)}

    def text(value: str, escape: bool) -> str:
        for old, new in swaps:
            found, put = (html.escape(old), html.escape(new)) if escape else (old, new)
            parts = re.split(rf"(?<![\w-]){re.escape(found)}(?![\w-])", value)
            value = put.join(parts)
        return value

    message["log"] = [
        [entry[0], text(str(entry[1]), False), *entry[2:]] for entry in message["log"]
    ]
    message["board"] = text(message["board"], True)
    return message


async def _replayed(request: Request, save: SaveGame, step: int | None, key: str) -> ReplayStep:
    """The replay step's message. A step near a position kept of the same save (a slider's
    next step: at most CHECKPOINT_EVERY decisions played again) is free; one that plays more
    counts against its client's quota, as a new table does, and past the quota is a 429."""
    client = request.client.host if request.client else "unknown"
    quota = request.app.state.replay_quota
    wait = quota.peek(client)
    most = CHECKPOINT_EVERY if wait else None
    try:
        message, played = await request.app.state.replays.message_async(save, step, key, most)
    except NotCached:
        limits = request.app.state.limits
        raise ServeError(
            f"too many replays from this address: at most {limits.tables_per_window} in "
            f"{limits.window_s / 60:g} minutes; try again in {math.ceil(wait)} s",
            429,
        ) from None
    if played > CHECKPOINT_EVERY:
        quota.take(client)
    return message


def replay_routes() -> list[BaseRoute]:
    return [Route("/api/replay", replay_step, methods=["POST"])]
