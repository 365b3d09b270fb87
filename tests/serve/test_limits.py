"""Every request has a bounded cost: a chunked body (no Content-Length) over the limit is refused
with 413 while it streams; one client past its quota of new tables or uploads is answered 429
with Retry-After (other clients are not); and a table nobody watches leaves memory once idle and
comes back from the database exactly as it was."""

from __future__ import annotations

import random
import select
import signal
import socket
import time
import warnings

import pytest

from helpers.serve_api import move, new_table, state_of
from helpers.server import free_port, start_server
from interpreter.serve.app import create_app
from interpreter.serve.quotas import Limits, SlidingWindow

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CHUNK = 64 * 1024
MOST = 16 * 1024 * 1024  # far past every limit: a server still reading by then reads anything


def _endless_chunked_post(port: int, path: str) -> tuple[int, bytes, int]:
    """POST an endless chunked body until the server answers; (status, head, bytes sent)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
            "Content-Type: application/json\r\n\r\n".encode()
        )
        chunk = f"{CHUNK:x}\r\n".encode() + b" " * CHUNK + b"\r\n"
        sent = 0
        while True:
            readable, writable, _ = select.select([sock], [sock], [], 30)
            if readable:
                break
            assert writable, "the server neither read nor answered for 30 s"
            assert sent < MOST, f"the server read {sent} bytes and did not refuse them"
            sock.sendall(chunk)
            sent += CHUNK
        head = b""
        while b"\r\n\r\n" not in head:
            part = sock.recv(65536)
            assert part, "the server closed the connection without an answer"
            head += part
    return int(head.split()[1]), head, sent


@pytest.mark.parametrize(
    ("path", "limit"), [("/api/tables", 1024 * 1024), ("/api/overlays", 256 * 1024)]
)
def test_a_chunked_body_over_the_limit_is_refused_as_it_streams(tmp_path, path, limit):
    port = free_port()
    server = start_server(tmp_path / "tables.sqlite3", port)
    try:
        status, head, sent = _endless_chunked_post(port, path)
        assert status == 413, head
        assert sent > limit  # (what the kernel's buffers hold on the way is also counted here)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def test_a_sliding_window_counts_each_client_alone():
    window = SlidingWindow(2, 60.0)
    assert window.take("a", now=0.0) == 0 and window.take("a", now=10.0) == 0
    assert window.take("a", now=20.0) == pytest.approx(40.0)  # the first leaves at 60
    assert window.take("b", now=20.0) == 0
    assert window.take("a", now=60.5) == 0  # the window slid past the first


def _form(client: TestClient):
    return client.post("/new", data={"game": "san-juan", "players": "2", "seat0": "human"})


def test_a_client_past_its_quotas_gets_429_with_retry_after(db):
    app = create_app(db, Limits(tables_per_window=3, uploads_per_window=2, window_s=600))
    seats = {"game": "san-juan", "players": 2, "seats": ["human", "human"]}
    with TestClient(app, client=("203.0.113.1", 4000)) as one:
        for _ in range(2):
            assert one.post("/api/tables", json=seats).status_code == 201
        assert _form(one).status_code == 201  # the form counts as a new table too
        refused = one.post("/api/tables", json=seats)
        assert refused.status_code == 429
        assert 0 < int(refused.headers["retry-after"]) <= 600
        assert refused.json()["error"].startswith(
            "too many new tables from this address: at most 3 in 10 minutes; try again in "
        )
        assert _form(one).status_code == 429
        for _ in range(2):  # not UTF-8: refused at once, but an upload all the same
            assert one.post("/api/overlays", content=b"\xff").status_code == 400
        assert one.post("/api/overlays", content=b"\xff").status_code == 429
        # everything else goes on for this client, and other clients have their own quotas
        assert one.get("/api/games").status_code == 200
        other = TestClient(app, client=("203.0.113.2", 4000))
        assert other.post("/api/tables", json=seats).status_code == 201


def _play(client, table, moves, rng):
    for _ in range(moves):
        public = state_of(client, table, None)
        if public["over"]:
            return
        seat = public["to_move"]
        mine = state_of(client, table, seat)
        option = rng.choice(mine["options"])["id"]
        assert move(client, table, seat, option, mine["decision"]).status_code == 200


def test_an_evicted_table_comes_back_exactly(client):
    table = new_table(client, game="san-juan", players=3, seats=["human", "random", "human"])
    rng = random.Random(3)
    _play(client, table, 40, rng)
    before = {seat: state_of(client, table, seat) for seat in (None, 0, 2)}
    hub = client.app.state.hub
    live = hub.tables[table["id"]]
    assert hub.evict_idle(0.0) == [table["id"]]
    assert table["id"] not in hub.tables
    after = {seat: state_of(client, table, seat) for seat in (None, 0, 2)}
    assert hub.tables[table["id"]] is not live  # rebuilt from the database
    assert after == before and after[None]["decision"] == live.decision
    assert hub.tables[table["id"]].state.to_json() == live.state.to_json()
    _play(client, table, 10, rng)  # and it plays on


def test_a_watched_table_stays_and_an_idle_one_leaves_on_its_own(db):
    with TestClient(create_app(db, Limits(idle_table_s=0.2))) as client:
        hub = client.app.state.hub
        idle = new_table(client, game="san-juan", players=2, seats=["human", "human"])
        watched = new_table(client, game="san-juan", players=2, seats=["human", "human"])
        played = new_table(client, game="san-juan", players=2, seats=["random"] * 2, speed=0.5)
        with client.websocket_connect(f"/ws/tables/{watched['id']}") as socket_:
            socket_.receive_json()
            deadline = time.monotonic() + 30
            while idle["id"] in hub.tables and time.monotonic() < deadline:
                time.sleep(0.05)
            assert idle["id"] not in hub.tables  # nobody watched it: it left memory
            time.sleep(0.5)
            assert watched["id"] in hub.tables  # a socket listens: it stays
            assert played["id"] in hub.tables  # the server plays it: it stays
        assert state_of(client, idle, 0)["decision"] == 0  # and comes back when asked for


def test_rulebook_serve_takes_the_limits_as_flags():
    from interpreter.cli.main import build_parser
    from interpreter.serve.quotas import limits_from

    words = ["serve", "--max-tables", "5", "--max-uploads", "2", "--idle-minutes", "0.5"]
    words += ["--max-sockets", "3"]
    limits = limits_from(build_parser("serve").parse_args(words))
    assert (limits.tables_per_window, limits.uploads_per_window) == (5, 2)
    assert limits.idle_table_s == 30.0 and limits.window_s == Limits().window_s
    assert limits.sockets_per_client == 3
    assert limits_from(build_parser("serve").parse_args(["serve"])) == Limits()


def test_a_client_with_too_many_sockets_open_has_the_next_refused(db):
    from starlette.websockets import WebSocketDisconnect

    with TestClient(create_app(db, Limits(sockets_per_client=2)), client=("203.0.113.9", 1)) as one:
        table = new_table(one, game="san-juan", players=2, seats=["human", "human"])
        path = f"/ws/tables/{table['id']}"
        with one.websocket_connect(path) as first, one.websocket_connect(path) as second:
            first.receive_json()
            second.receive_json()
            with pytest.raises(WebSocketDisconnect) as refused, one.websocket_connect(path):
                pass
            assert refused.value.code == 1013
            other = TestClient(one.app, client=("203.0.113.10", 1))
            with other.websocket_connect(path) as theirs:  # another address has its own count
                assert theirs.receive_json()["type"] == "state"
        with one.websocket_connect(path) as again:  # the two closed: room again
            assert again.receive_json()["type"] == "state"
