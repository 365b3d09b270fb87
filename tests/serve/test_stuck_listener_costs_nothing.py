"""A websocket that takes nothing costs its table nothing: while its send is stuck, the moves at
its table are made and acknowledged one after another, its outbox builds no message for them
(each change only marks it), and once its send passes the deadline it is dropped as too slow."""

from __future__ import annotations

import asyncio

from helpers.loops import run_apart
from interpreter.serve.api import OUTBOX, broadcast
from interpreter.serve.fanout import TOO_SLOW, Outbox
from interpreter.serve.messages import seat_message


class StuckSocket:
    """A socket whose reader never reads: every send waits forever."""

    def __init__(self) -> None:
        self.scope: dict = {}
        self.sends = 0
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sends += 1
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_moves_go_on_while_a_listener_is_stuck_and_it_is_dropped(hub):
    table = hub.create("san-juan", 2, ["human", "human"], seed=3)
    socket = StuckSocket()
    builds = []

    def build() -> dict:
        builds.append(table.decision)
        return seat_message(table, None)

    async def play() -> str | None:
        outbox = Outbox(socket, build, deadline=0.5)
        socket.scope[OUTBOX] = outbox
        table.listen(socket, None)
        sender = asyncio.create_task(outbox.run())
        outbox.notify()
        await asyncio.sleep(0)
        for _ in range(40):
            seat = table.state.to_move
            option = table.state.legal_options()[0]
            await hub.move_async(table, table.tokens[seat], option, table.decision)
            broadcast(table)
        moved = table.decision
        await asyncio.wait_for(sender, timeout=30)  # returns once the socket is dropped
        assert moved == 40
        return outbox.dropped

    dropped = run_apart(play())
    # one message was built (the one stuck in the send); the 40 moves only marked the outbox
    assert builds == [0] and socket.sends == 1
    assert dropped is not None and "not taken" in dropped
    assert socket.closed is not None and socket.closed[0] == TOO_SLOW
