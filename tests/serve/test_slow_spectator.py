"""No client can slow another down: a spectator websocket that never reads (a tiny receive
buffer, nothing ever read after the handshake) stays open while 500 moves are made at its table
through the HTTP API of a real `rulebook serve`; every move is acknowledged within a bounded
time, another table goes on alike, and the server drops the stuck spectator (it would reconnect
and resync from the state endpoint)."""

from __future__ import annotations

import random
import select
import signal
import socket
import time

import httpx

from helpers.raw_ws import connect
from helpers.serve_api import ask_everything
from helpers.server import free_port, start_server
from interpreter.serve.fanout import SEND_DEADLINE_S

MOVES = 500
MAX_ACK_S = 2.0  # a move here takes milliseconds; a frozen table never answers


def stuck_spectator(port: int, table_id: str) -> socket.socket:
    """A websocket at the table that completes its handshake and then never reads again."""
    return connect(port, f"/ws/tables/{table_id}", small_window=True)


def people_table(client: httpx.Client) -> tuple[str, list[str]]:
    # five players: a game of some 700 decisions, so one table gets all 500 moves (far more
    # than the kernel's buffers hold for a reader that takes nothing)
    response = client.post(
        "/api/tables", json={"game": "puerto-rico", "players": 5, "seats": ["human"] * 5}
    )
    assert response.status_code == 201, response.text
    table = response.json()
    ask_everything(client, table)  # every move is the test's own
    return table["id"], [s["token"] for s in table["seats"]]


def timed_move(client: httpx.Client, table_id: str, tokens: list[str], rng: random.Random):
    """One random legal move by the seat to move; (seconds to acknowledge, the answer)."""
    public = client.get(f"/api/tables/{table_id}/state").json()
    seat = public["to_move"]
    mine = client.get(f"/api/tables/{table_id}/state", params={"token": tokens[seat]}).json()
    option = rng.choice(mine["options"])["id"]
    started = time.monotonic()
    try:
        response = client.post(
            f"/api/tables/{table_id}/move",
            json={"token": tokens[seat], "option": option, "decision": mine["decision"]},
        )
    except httpx.TimeoutException:
        raise AssertionError(f"a move at {table_id} was not acknowledged in 10 s") from None
    elapsed = time.monotonic() - started
    assert response.status_code == 200, response.text
    return elapsed, response.json()


def connection_ended(sock: socket.socket, within: float) -> bool:
    """Whether the server ended this connection (EOF or reset) within ``within`` seconds,
    reading and dropping everything it had queued."""
    deadline = time.monotonic() + within
    sock.settimeout(1)
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sock], [], [], 1)
        if not ready:
            continue
        try:
            if not sock.recv(1 << 16):
                return True
        except (ConnectionResetError, TimeoutError):
            return True
    return False


def test_a_spectator_that_never_reads_slows_no_move(tmp_path):
    port = free_port()
    server = start_server(tmp_path / "tables.sqlite3", port)
    spectators: list[socket.socket] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            rng = random.Random(26)
            other_id, other_tokens = people_table(client)
            table_id, tokens = people_table(client)
            spectators.append(stuck_spectator(port, table_id))
            slowest = other_slowest = 0.0
            for n in range(MOVES):
                elapsed, message = timed_move(client, table_id, tokens, rng)
                slowest = max(slowest, elapsed)
                assert elapsed < MAX_ACK_S, f"move {n} took {elapsed:.2f} s to acknowledge"
                if message["over"]:  # a game ended: go on at a new table, watched the same way
                    table_id, tokens = people_table(client)
                    spectators.append(stuck_spectator(port, table_id))
                if n % 10 == 0:  # the other table goes on too
                    elapsed, message = timed_move(client, other_id, other_tokens, rng)
                    other_slowest = max(other_slowest, elapsed)
                    if message["over"]:
                        other_id, other_tokens = people_table(client)
            assert other_slowest < MAX_ACK_S
        # the server lets go of the first stuck spectator (it was sent far more than it read):
        # its send waits out the deadline, then the server resets the connection at once
        # (reading before then would let the waiting send through)
        time.sleep(SEND_DEADLINE_S + 1)
        assert connection_ended(spectators[0], within=30)
    finally:
        for sock in spectators:
            sock.close()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
