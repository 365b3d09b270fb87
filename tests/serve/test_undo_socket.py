"""Undo over the websocket (``{"type": "undo", "decision": N, "moves": K}``, serve/api.py and
serve/take_back.py): the seat's socket takes its move back and every page at the table is sent
the position taken back to; a refusal is the POST's refusal, word for word, followed by the
current position, and changes nothing. The real San Juan ruleset."""

from __future__ import annotations

import json

import pytest

from helpers.serve_api import move, new_table, state_of, token_of
from interpreter.serve.take_back import NOTHING_TO_UNDO

SEED = 5  # a practice table: the seat to move first, and its options, are the same each run
PAID_BUILD = "build:prefecture"  # a building of that deal whose payment the seat is asked for


@pytest.fixture
def table(client):
    return new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=SEED)


def socket_of(table, seat):
    token = "" if seat is None else f"?token={token_of(table, seat)}"
    return f"/ws/tables/{table['id']}{token}"


def post_undo(client, table, seat, decision, **more):
    body = {"token": token_of(table, seat), "decision": decision, **more}
    return client.post(f"/api/tables/{table['id']}/undo", json=body)


def test_a_seat_takes_back_its_move_through_its_socket(client, table):
    seat = state_of(client, table, None)["to_move"]
    before = state_of(client, table, seat)
    after = move(client, table, seat, "role:builder", before["decision"]).json()
    assert after["undo"] == 1
    with (
        client.websocket_connect(socket_of(table, seat)) as mine,
        client.websocket_connect(socket_of(table, 1 - seat)) as theirs,
    ):
        assert mine.receive_json()["decision"] == after["decision"]
        theirs.receive_json()
        mine.send_text(json.dumps({"type": "undo", "decision": after["decision"]}))
        back = mine.receive_json()
        # (a refusal would change nothing: no message for the other seat to wait for)
        assert back["type"] == "state", back.get("error")
        told = theirs.receive_json()
    assert (back["decision"], back["options"], back["board"]) == (
        before["decision"],
        before["options"],
        before["board"],
    )
    assert back["undo"] == 0 and back["log_from"] == 0 and back["log"] == before["log"]
    assert told["decision"] == before["decision"] and told["log_from"] == 0
    assert state_of(client, table, seat)["decision"] == before["decision"]


def test_a_refused_socket_undo_says_what_the_post_says_and_changes_nothing(client, table):
    seat = state_of(client, table, None)["to_move"]
    decision = state_of(client, table, seat)["decision"]
    after = move(client, table, seat, "role:builder", decision).json()
    now = after["decision"]
    cases = [  # (socket's seat, message, the POST's seat and fields for the same request)
        (1 - seat, {"decision": now}, (1 - seat, now, {})),
        (seat, {"decision": now - 1}, (seat, now - 1, {})),
        (seat, {"decision": now, "moves": 2}, (seat, now, {"moves": 2})),
        (seat, {"decision": now, "moves": 0}, (seat, now, {"moves": 0})),
    ]
    for socket_seat, message, (post_seat, post_decision, more) in cases:
        expected = post_undo(client, table, post_seat, post_decision, **more).json()["error"]
        with client.websocket_connect(socket_of(table, socket_seat)) as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "undo", **message}))
            assert ws.receive_json() == {"type": "error", "error": expected}
            assert ws.receive_json()["decision"] == now  # and the position as it is
    with client.websocket_connect(socket_of(table, None)) as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "undo", "decision": now}))
        assert "a spectator cannot undo" in ws.receive_json()["error"]
    with client.websocket_connect(socket_of(table, seat)) as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "undo", "decision": now, "token": "x"}))
        assert "unknown field(s) token" in ws.receive_json()["error"]
    assert state_of(client, table, seat) == after
    built = move(client, table, seat, PAID_BUILD, now).json()
    with client.websocket_connect(socket_of(table, seat)) as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "undo", "decision": built["decision"]}))
        assert ws.receive_json()["error"] == NOTHING_TO_UNDO
    assert state_of(client, table, seat) == built
