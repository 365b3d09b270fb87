"""Answers set in advance at the web table: ``GET`` and ``POST /api/tables/ID/answers``.

A person's seat link (its token) reads and sets that seat's standing answers to the game's
optional questions (what an answer does: table/answers.py). They are that seat's own: kept
in the table's database (a reload or a restart keeps them), sent to that seat's link only,
never in a spectator's or another seat's message, and applied only at that seat's own
decisions, by :meth:`Hub.run_bots_async` (``turns.answered_choice``), through the same
commit as a clicked move (logged and saved as an ordinary option id), once the position that
asks it has been sent to everybody at the table (``publish.py``: the others are sent the same
messages as for an asked question). An answer that fits the decision the seat is asked now
answers it at once.

``GET ?token=T`` -> ``{"seat": N, "questions": [{"key", "text", "take"}, ...], "answers":
{KEY: "take" | "decline"}}``; ``POST {"token": T, "question": KEY, "answer": "take" |
"decline" | "ask"}`` sets one and returns the same. A spectator, a bot's seat, an unknown
question or answer, or any other field is refused with a message, and nothing changes.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.serve.api import broadcast, error_response, hub_of, read_json
from interpreter.serve.jsonbody import JSONResponse
from interpreter.serve.tables import Hub, ServeError, Table
from interpreter.table.answers import check_answer, questions

__all__ = ["answer_routes", "answers_message", "set_answer"]

_FIELDS = frozenset({"token", "question", "answer"})


def _seat(table: Table, token: object) -> int:
    """The person's seat a token opens; a spectator or a bot's seat is refused."""
    seat = table.seat_of(token)
    if seat is None:
        raise ServeError("answers set in advance belong to a seat: open your seat's link", 403)
    if seat in table.bots:
        raise ServeError(f"seat {seat} is played by a bot, which answers for itself", 403)
    return seat


def answers_message(table: Table, seat: int) -> dict[str, Any]:
    """The game's optional questions and ``seat``'s own answers to them (nobody else's)."""
    return {
        "seat": seat,
        "questions": [q.to_json() for q in questions(table.game.rules)],
        "answers": dict(table.answers.get(seat, {})),
    }


async def set_answer(hub: Hub, table: Table, token: object, key: object, how: object) -> int:
    """Set the standing answer of the seat ``token`` opens (checked first: a refusal changes
    nothing), then let it answer the decision asked now if it fits, and the bots move on.
    Returns the seat."""
    seat = _seat(table, token)
    try:
        key, how = check_answer(questions(table.game.rules), key, how)
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    if not hub.store.set_answer(table.id, seat, key, how):
        raise ServeError("this table was deleted; nothing was set", 404)
    table.answers.setdefault(seat, {})[key] = how
    await hub.run_bots_async(table)
    return seat


async def table_answers(request: Request) -> Response:
    """``GET``: the asking seat's answers; ``POST``: set one of them."""
    hub = hub_of(request)
    try:
        table = hub.get(request.path_params["table_id"])
        if request.method == "GET":
            seat = _seat(table, request.query_params.get("token"))
            return JSONResponse(answers_message(table, seat))
        data = await read_json(request)
        unknown = sorted(str(k) for k in data if k not in _FIELDS)
        if unknown:
            raise ServeError(
                f"unknown field(s) {', '.join(unknown)}: send token, question and answer only "
                "(a seat sets its own answers, named by its token)"
            )
        table = hub.get(request.path_params["table_id"])
        seat = await set_answer(
            hub, table, data.get("token"), data.get("question"), data.get("answer")
        )
    except ServeError as exc:
        return error_response(exc)
    broadcast(table, hub)
    return JSONResponse(answers_message(table, seat))


def answer_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{table_id}/answers", table_answers, methods=["GET", "POST"])]
