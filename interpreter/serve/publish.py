"""A table's new position, sent to everybody at it, and the answers set in advance that wait
for it.

:func:`broadcast` marks every socket at a table to be sent its seat's newest message (each by
its own sender, ``fanout.py``: nothing here waits on a socket) and records that position as
shown. A seat's answer set in advance (``turns.answered_choice``) is applied only at a
position that has been shown, by a task of its own started here: so the others are sent the
position that asks the seat, then its move, exactly as when the seat is asked and clicks.
Answered together with the move before it, the position would never be sent, and its absence
would tell everybody that the seat had an answer ready (with "always": that it had exactly one
thing to take). What still tells is the time: an answer set in advance comes at once.
"""

from __future__ import annotations

import asyncio

from interpreter.serve.fanout import Outbox
from interpreter.serve.tables import Hub, Table
from interpreter.serve.turns import answered_choice

__all__ = ["OUTBOX", "broadcast"]

OUTBOX = "rulebook_outbox"  # where a websocket's scope keeps its Outbox

# the answering tasks running (the event loop keeps only weak references to tasks)
_answering: set[asyncio.Task[None]] = set()


def broadcast(table: Table, hub: Hub | None = None) -> None:
    """Mark every socket at the table to be sent its seat's newest message (never waits), and
    with ``hub``, start the task that applies the answer set in advance of the seat asked now,
    if it has one. The position is built for each socket before that task moves the table:
    their senders were woken first, and the answer waits for its commit."""
    for socket, _seat in table.listeners_items():
        outbox: Outbox | None = socket.scope.get(OUTBOX)
        if outbox is not None:
            outbox.notify()
    table.shown = table.decision
    if hub is not None and answered_choice(table) is not None:
        task = asyncio.get_running_loop().create_task(_answer(hub, table))
        _answering.add(task)
        task.add_done_callback(_answering.discard)


async def _answer(hub: Hub, table: Table) -> None:
    """Apply the answer set in advance of the seat asked at the position just shown (and the
    bots' moves that follow, up to the next seat to ask), then show where the table is."""
    moved = await hub.run_bots_async(table)  # a move that fails stops the table
    if moved or table.error is not None:  # (none when the seat clicked first: nothing new)
        broadcast(table, hub)
