"""A gesture sent by a seat (``{"options": [ID, ...], "decision": N}``, table/gestures.py):
checked whole on a copy, then played as the seat's moves one by one, each committed like a
clicked option.

The copy is tried where the table's rules run (``Hub.plan_gesture``): in the server's process
for a :class:`Hub`, in the table's worker for a ``WorkerHub`` (its ``plan`` request), never on
the event loop of a server with workers.
"""

from __future__ import annotations

from collections.abc import Mapping

from interpreter.serve.tables import Hub, ServeError, Table
from interpreter.table.gestures import MAX_PICKS, pending_step

__all__ = ["gesture_move", "move_or_gesture"]


def _picks(value: object) -> list[str]:
    if (
        not isinstance(value, list)
        or not value
        or len(value) > MAX_PICKS
        or not all(isinstance(p, str) and p for p in value)
    ):
        raise ServeError(f"'options' must be a list of 1 to {MAX_PICKS} option ids (strings)")
    return value


async def gesture_move(
    hub: Hub, table: Table, token: object, picks: object, decision: object
) -> int:
    """A person's gesture: every check of a move, the whole list tried on a copy (refused whole,
    nothing changed, when a pick is illegal where it comes), then its moves committed one by
    one; returns the mover's seat. The list is the seat's last run at the step (an assignment
    starts from it next time)."""
    await hub.settle(table)
    if table.error is not None:
        raise ServeError(f"this table has stopped: {table.error}", 409)
    picks = _picks(picks)
    legal = table.state.legal_options()
    first = next((p for p in picks if p in legal), picks[0])
    seat = hub.check_move(table, token, first, decision)
    step = pending_step(table.state)
    moves = await hub.plan_gesture(table, seat, picks)
    for move in moves:
        await hub.move_async(table, token, move, table.decision)
    table.last_gestures[(seat, step)] = list(picks)
    return seat


async def move_or_gesture(hub: Hub, table: Table, token: object, data: Mapping[str, object]) -> int:
    """A move request's ``option``, or its gesture's list of them (``options``)."""
    if "options" in data:
        return await gesture_move(hub, table, token, data["options"], data.get("decision"))
    return await hub.move_async(table, token, data.get("option"), data.get("decision"))
