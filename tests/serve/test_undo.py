"""Undo at the web table (serve/undo_api.py): a seat takes back its own moves of this turn, the
others' pages lose them too, a refusal (after a card came into view, another seat's turn, a
spectator, a stale page) changes nothing, and the database forgets the moves taken back (a
restart, and a server whose rules run in a worker process, agree). The real San Juan ruleset
through the HTTP API and the websocket."""

from __future__ import annotations

import asyncio
import concurrent.futures
import warnings

import pytest

from helpers.serve_api import move, new_table, state_of, token_of
from interpreter.engine.undo import undoable
from interpreter.serve.app import create_app
from interpreter.serve.caps import Caps
from interpreter.serve.offloop import WorkerHub
from interpreter.serve.player import Player
from interpreter.serve.store import TableStore
from interpreter.serve.table import ServeError
from interpreter.serve.undo_api import NOTHING_TO_UNDO, undo as undo_move

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SEED = 5  # a practice table: the seat to move first, and its options, are the same each run
# a building of that deal whose payment the seat is asked for (the seat stays to move)
PAID_BUILD = "build:prefecture"


@pytest.fixture
def table(client):
    return new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=SEED)


def undo(client, table, seat, decision, **more):
    body = {"token": token_of(table, seat), "decision": decision, **more}
    return client.post(f"/api/tables/{table['id']}/undo", json=body)


def builder(client, table):
    """The seat to move takes the builder: its message after, and the one before."""
    start = state_of(client, table, None)
    seat = start["to_move"]
    before = state_of(client, table, seat)
    after = move(client, table, seat, "role:builder", before["decision"])
    assert after.status_code == 200, after.text
    return seat, before, after.json()


def test_a_seat_takes_back_its_move_and_every_page_loses_it(client, table):
    seat, before, after = builder(client, table)
    other = 1 - seat
    assert after["undo"] == 1 and state_of(client, table, other)["undo"] == 0
    assert state_of(client, table, None)["undo"] == 0
    socket = f"/ws/tables/{table['id']}?token={token_of(table, other)}"
    with client.websocket_connect(socket) as ws:
        seen = ws.receive_json()
        assert seen["decision"] == after["decision"] and seen["log"] == after["log"]
        answer = undo(client, table, seat, after["decision"])
        assert answer.status_code == 200, answer.text
        back = answer.json()
        # the other seat's page is sent the position taken back to, its log whole again
        told = ws.receive_json()
    assert (back["decision"], back["options"], back["log"]) == (
        before["decision"],
        before["options"],
        before["log"],
    )
    assert back["undo"] == 0 and back["board"] == before["board"]
    assert told["decision"] == before["decision"] and told["log_from"] == 0
    assert told["log"] == state_of(client, table, other)["log"]
    assert len(told["log"]) < len(seen["log"])  # the builder's line is gone


def test_a_refused_undo_changes_nothing(client, table):
    seat, _before, after = builder(client, table)
    decision = after["decision"]
    cases = [
        (undo(client, table, 1 - seat, decision), 409, "not your turn"),
        (client.post(f"/api/tables/{table['id']}/undo", json={"decision": decision}), 403, ""),
        (undo(client, table, seat, decision - 1), 409, "stale decision"),
        (undo(client, table, seat, decision, moves=2), 409, "take back 1 move(s) now, not 2"),
        (undo(client, table, seat, decision, moves=0), 400, "'moves'"),
        (undo(client, table, seat, decision, option="x"), 400, "unknown field"),
    ]
    for response, status, said in cases:
        assert response.status_code == status, response.text
        assert said in response.json()["error"]
    assert state_of(client, table, seat) == after
    # the building chosen from the hand is seen by the other seat: no undo from there on
    build = PAID_BUILD
    assert build in [o["id"] for o in after["options"]]
    built = move(client, table, seat, build, decision).json()
    assert built["to_move"] == seat and built["undo"] == 0
    refused = undo(client, table, seat, built["decision"])
    assert refused.status_code == 409 and refused.json()["error"] == NOTHING_TO_UNDO
    assert state_of(client, table, seat) == built


def test_the_database_forgets_the_moves_taken_back(db):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db)) as client:
            table = new_table(
                client, game="san-juan", players=2, seats=["human", "human"], seed=SEED
            )
            seat, before, after = builder(client, table)
            assert undo(client, table, seat, after["decision"]).status_code == 200
        with TestClient(create_app(db)) as client:
            again = state_of(client, table, seat)
            assert (again["decision"], again["options"]) == (before["decision"], before["options"])
            # and the same move can be made again
            assert move(client, table, seat, "role:builder", again["decision"]).json() == after


class InProcessPool:
    """A :class:`WorkerPool`'s interface with its :class:`Player` in this process (the worker
    side of the server without a process to start)."""

    def __init__(self) -> None:
        self.caps = Caps()
        self.player = Player(self.caps, budget=False)
        self.opened: set[str] = set()

    def fresh(self, table_id: str, stranger: bool) -> bool:
        new = table_id not in self.opened
        self.opened.add(table_id)
        return new

    async def call(self, table_id, stranger, request, moves=1):
        return self.player.handle(request)

    def forget(self, table_id: str) -> None:
        self.opened.discard(table_id)
        self.player.tables.pop(table_id, None)


def test_undo_where_the_rules_run_in_a_worker(tmp_path):
    """The worker opens the table again from the choices kept, the server holds its position,
    and play goes on from there; a refusal leaves the worker's table as it was."""
    store = TableStore(tmp_path / "tables.sqlite3")
    pool = InProcessPool()
    hub = WorkerHub(store, pool)

    async def play() -> None:
        table = await hub.create_async("san-juan", 2, ["human", "human"], seed=SEED)
        seat = table.state.to_move
        token = table.tokens[seat]
        start = (table.decision, list(table.state.legal_options()))
        await hub.move_async(table, token, "role:builder", 0)
        builder = list(table.state.legal_options())
        assert undoable(table.state, seat) == 1
        await undo_move(hub, table, token, 1, None)
        assert (table.decision, list(table.state.legal_options())) == start
        assert pool.player.tables[table.id].state.history == []
        assert store.load(table.id).save.choices == []
        await hub.move_async(table, token, "role:builder", 0)
        assert list(table.state.legal_options()) == builder
        build = PAID_BUILD
        await hub.move_async(table, token, build, 1)
        with pytest.raises(ServeError, match="nothing to take back"):
            await undo_move(hub, table, token, 2, None)
        assert pool.player.tables[table.id].state.history == ["role:builder", build]

    try:
        # a thread of its own: a browser test on this worker may hold a running event loop here
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, play()).result()
    finally:
        store.close()
