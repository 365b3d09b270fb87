"""Group commit (interpreter/serve/writer.py): the moves of many tables share one transaction,
each is refused or written on its own, a move changes its table only once it is on disk, and a
server killed right after acknowledging moves at many tables at once loses none of them."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import threading

import httpx
import pytest

from helpers.loops import run_apart
from helpers.server import free_port, start_server
from interpreter.serve.store import MoveRefused
from interpreter.serve.tables import ServeError


def _moves(db, table_id: str) -> list[str]:
    with sqlite3.connect(db) as con:
        return [
            c
            for (c,) in con.execute(
                "SELECT choice FROM moves WHERE table_id = ? ORDER BY n", (table_id,)
            )
        ]


class WriteLock:
    """Another connection holding the database's write lock: the writer thread waits on it, so
    every move submitted meanwhile is queued, deterministically."""

    def __init__(self, path) -> None:
        self.con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.con.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.con.execute("COMMIT")
        self.con.close()


def test_moves_of_many_tables_share_one_transaction_and_all_reach_the_disk(hub):
    tables = [hub.create("san-juan", 2, ["human", "human"], seed=i) for i in range(30)]
    lock = WriteLock(hub.store.path)
    futures = [hub.store.submit_move(t.id, 0, t.state.legal_options()[0]) for t in tables]
    assert not any(f.done() for f in futures)  # nothing is acknowledged before it is on disk
    lock.release()
    for future in futures:
        future.result(timeout=30)
    # the first move may have gone alone; all the others waited and went together
    assert hub.store._writer.transactions <= 2
    for t in tables:
        assert _moves(hub.store.path, t.id) == [t.state.legal_options()[0]]


def test_each_move_of_a_shared_transaction_is_refused_or_written_on_its_own(hub):
    kept, gone, ahead = (hub.create("san-juan", 2, ["human", "human"]) for _ in range(3))
    hub.store.delete(gone.id)
    lock = WriteLock(hub.store.path)
    ok = hub.store.submit_move(kept.id, 0, "a")
    deleted = hub.store.submit_move(gone.id, 0, "b")
    skipped = hub.store.submit_move(ahead.id, 3, "c")  # not the next decision
    also_ok = hub.store.submit_move(kept.id, 1, "d")  # follows "a" in the same transaction
    lock.release()
    assert ok.result(timeout=30) is None and also_ok.result(timeout=30) is None
    with pytest.raises(MoveRefused) as refused:
        deleted.result(timeout=30)
    assert refused.value.gone
    with pytest.raises(MoveRefused, match="decision 3 was not the next one") as refused:
        skipped.result(timeout=30)
    assert not refused.value.gone
    assert _moves(hub.store.path, kept.id) == ["a", "d"]
    assert _moves(hub.store.path, gone.id) == [] and _moves(hub.store.path, ahead.id) == []


def test_a_move_changes_its_table_only_once_on_disk_and_a_rival_move_waits(hub):
    table = hub.create("san-juan", 2, ["human", "human"])
    seat = table.state.to_move
    first, second = table.state.legal_options()[:2]

    async def play() -> tuple[object, object]:
        lock = WriteLock(hub.store.path)
        mover = asyncio.create_task(hub.move_async(table, table.tokens[seat], first, 0))
        rival = asyncio.create_task(hub.move_async(table, table.tokens[seat], second, 0))
        for _ in range(20):
            await asyncio.sleep(0.01)
        # the first move is with the writer, held back: the table has not moved yet, nobody
        # has been told, and the rival move for the same decision is waiting, not refused
        assert table.decision == 0 and not mover.done() and not rival.done()
        await asyncio.get_running_loop().run_in_executor(None, lock.release)
        return await asyncio.gather(mover, rival, return_exceptions=True)

    moved, refused = run_apart(play())
    assert moved == seat
    assert isinstance(refused, ServeError) and refused.status == 409
    assert table.decision == 1 and table.save.choices == [first]
    assert _moves(hub.store.path, table.id) == [first]


def test_a_move_whose_waiter_is_cancelled_is_still_applied_once_written(hub):
    table = hub.create("san-juan", 2, ["human", "human"])
    seat = table.state.to_move
    option = table.state.legal_options()[0]

    async def play() -> None:
        lock = WriteLock(hub.store.path)
        mover = asyncio.create_task(hub.move_async(table, table.tokens[seat], option, 0))
        await asyncio.sleep(0.05)
        mover.cancel()  # the client went away while its move was being written
        await asyncio.get_running_loop().run_in_executor(None, lock.release)
        await hub.settle(table)

    run_apart(play())
    # the table and the disk agree: the move was written, so the table has it too
    assert _moves(hub.store.path, table.id) == [option]
    assert table.decision == 1 and hub.get(table.id) is table


def test_moves_acknowledged_at_many_tables_at_once_survive_a_kill(tmp_path):
    db, port = tmp_path / "tables.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port)
    acknowledged: dict[str, list[str]] = {}
    try:
        tables = [
            httpx.post(
                f"{base}/api/tables",
                json={"game": "san-juan", "players": 2, "seats": ["human", "human"], "seed": i},
            ).json()
            for i in range(8)
        ]

        def play(table: dict, rng: random.Random) -> None:
            tokens = [s["token"] for s in table["seats"]]
            made = acknowledged.setdefault(table["id"], [])
            with httpx.Client(base_url=base) as client:
                for _ in range(15):
                    public = client.get(f"/api/tables/{table['id']}/state").json()
                    seat = public["to_move"]
                    mine = client.get(
                        f"/api/tables/{table['id']}/state", params={"token": tokens[seat]}
                    ).json()
                    option = rng.choice(mine["options"])["id"]
                    answer = client.post(
                        f"/api/tables/{table['id']}/move",
                        json={
                            "token": tokens[seat],
                            "option": option,
                            "decision": mine["decision"],
                        },
                    )
                    assert answer.status_code == 200, answer.text
                    made.append(option)

        threads = [
            threading.Thread(target=play, args=(t, random.Random(i))) for i, t in enumerate(tables)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.send_signal(signal.SIGKILL)  # at once after the last acknowledgement
        server.wait()
    assert sum(len(m) for m in acknowledged.values()) == 8 * 15
    for table_id, made in acknowledged.items():
        assert _moves(db, table_id) == made
