"""An answer set in advance is not seen by the others: a seat's standing answer is applied
only once the position that asks it has been sent to everybody at the table, so another seat's
messages are the same, one by one, whether the question was answered in advance or asked and
clicked. (Answered at once, without that position, it would tell everybody that the seat had
an answer ready, and with "always", that it had exactly one thing to take.)

Two tables with the same chosen seed on one real server: seat 0 takes the mayor and is then
asked the mayor's privilege, answered in advance at one table and clicked at the other; seat 1
watches through a websocket and moves over HTTP."""

from __future__ import annotations

import json
import signal
from typing import Any

import httpx
from websockets.sync.client import connect

from helpers.server import free_port, start_server

PRIVILEGE = "mayor's privilege: a colonist from the supply?"
SEATS = ["human", "human", "random"]
UNTIL = 3  # decisions: the privilege is decision 1, seat 1 decides at 2


def _seat_one_sees(base: str, answered: bool) -> list[dict[str, Any]]:
    """Every message seat 1 is sent (its socket and its own moves' answers) until decision
    ``UNTIL``, at a table where seat 0's mayor's privilege is answered in advance or asked."""
    made = httpx.post(
        f"{base}/api/tables",
        json={"game": "puerto-rico", "players": 3, "seats": SEATS, "seed": 1},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    table = made.json()
    url = f"{base}/api/tables/{table['id']}"
    tokens = [seat.get("token") for seat in table["seats"]]
    if answered:
        body = {"token": tokens[0], "question": PRIVILEGE, "answer": "take"}
        assert httpx.post(f"{url}/answers", json=body, timeout=30).status_code == 200
    seen: list[dict[str, Any]] = []
    ws_url = base.replace("http", "ws") + f"/ws/tables/{table['id']}?token={tokens[1]}"
    with connect(ws_url, open_timeout=30) as seat_one:
        message = json.loads(seat_one.recv(timeout=30))
        seen.append(message)
        while message["decision"] < UNTIL:
            decision, seat = message["decision"], message["to_move"]
            if seat in (0, 1):
                mine = httpx.get(f"{url}/state", params={"token": tokens[seat]}, timeout=30).json()
                waits = answered and seat == 0 and mine["prompt"] == PRIVILEGE
                if mine["decision"] == decision and not waits:  # else: its answer is on its way
                    ids = [option["id"] for option in mine["options"]]
                    choice = "role:mayor" if decision == 0 else ids[0]
                    if mine["prompt"] == PRIVILEGE:
                        choice = "privilege-colonist"
                    answer = httpx.post(
                        f"{url}/move",
                        json={"token": tokens[seat], "option": choice, "decision": decision},
                        timeout=30,
                    )
                    assert answer.status_code == 200, answer.text
                    if seat == 1:
                        seen.append(answer.json())
            message = json.loads(seat_one.recv(timeout=30))
            seen.append(message)
    for message in seen:
        message.pop("table")
    return seen


def test_another_seat_sees_the_same_messages_whether_a_question_was_answered_or_asked(
    tmp_path,
):
    port = free_port()
    server = start_server(tmp_path / "tables.sqlite3", port)
    try:
        base = f"http://127.0.0.1:{port}"
        asked = _seat_one_sees(base, answered=False)
        answered = _seat_one_sees(base, answered=True)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    # seat 0 was asked at decision 1, and seat 1 saw it asked
    assert [(m["decision"], m["to_move"], m["prompt"]) for m in asked][1] == (1, 0, PRIVILEGE)
    assert [(m["decision"], m["to_move"], m["prompt"]) for m in answered] == [
        (m["decision"], m["to_move"], m["prompt"]) for m in asked
    ]
    assert answered == asked
