"""The worker that plays a move draws the boards of the seat that moved and of the person to
move now (serve/boards_ahead.py): the server's event loop takes them as they are and draws
none of its own for those two; a board it draws itself is the same to the character; any
other viewer (a spectator) and any change of the seats' names are drawn by the server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from pathlib import Path

from interpreter.serve.messages import seat_message
from interpreter.serve.offloop import WorkerHub
from interpreter.serve.store import TableStore
from tests.serve.test_undo import InProcessPool


def _in_a_thread(play: object) -> None:
    # a thread of its own: a browser test on this worker may hold a running event loop here
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, play).result()


def test_the_mover_and_the_next_person_are_sent_boards_the_worker_drew(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "tables.sqlite3")
    hub = WorkerHub(store, InProcessPool())

    async def play() -> None:
        table = await hub.create_async("puerto-rico", 3, ["human"] * 3, seed=11)
        rng = random.Random(11)
        for _ in range(12):
            mover = table.state.to_move
            option = rng.choice(table.state.legal_options())
            await hub.move_async(table, table.tokens[mover], option, table.decision)
            drawn_here = table.board_parts.made
            answer = seat_message(table, mover)
            asked = seat_message(table, table.state.to_move)
            assert table.board_parts.made == drawn_here  # both boards came from the worker
            # the server's own drawing of the same position is the same, to the character
            table.built_boards = None
            table.messages.clear()
            assert seat_message(table, mover)["board"] == answer["board"]
            assert seat_message(table, table.state.to_move)["board"] == asked["board"]
        # a spectator's board is drawn here (the worker draws only the two seats' boards)
        mover = table.state.to_move
        await hub.move_async(
            table, table.tokens[mover], table.state.legal_options()[0], table.decision
        )
        drawn_here = table.board_parts.made
        assert "(you)" not in seat_message(table, None)["board"]
        assert table.board_parts.made > drawn_here
        # a seat named after the move: its board says the new name, not the worker's old one
        table.names[mover] = "Ana"
        table.messages.clear()
        assert "Ana" in seat_message(table, mover)["board"]

    try:
        _in_a_thread(play())
    finally:
        store.close()
