"""What a websocket client sends that is not a move (a binary frame, text that is not JSON, a
message far too large) is answered with an error message and the seat's position, never a
traceback; the socket stays open and the next good move is made."""

from __future__ import annotations

import logging

import pytest

from helpers.serve_api import new_table, token_of


def test_bad_frames_are_answered_and_the_socket_plays_on(client, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.INFO)
    table = new_table(client, game="san-juan", players=2, seats=["human", "human"])
    seat = client.get(f"/api/tables/{table['id']}/state").json()["to_move"]
    url = f"/ws/tables/{table['id']}?token={token_of(table, seat)}"
    with client.websocket_connect(url) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["decision"] == 0
        for send, error in [
            (lambda: ws.send_bytes(b"\x00\x01binary"), "send text frames holding JSON"),
            (lambda: ws.send_text("not json"), "malformed JSON"),
            (lambda: ws.send_text("[1, 2]"), "expected a JSON object"),
            (lambda: ws.send_text(" " * (65 * 1024)), "message too large"),
        ]:
            send()
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["error"].startswith(error), answer
            again = ws.receive_json()  # the position again, unchanged
            assert again["type"] == "state" and again["decision"] == 0
        option = first["options"][0]["id"]
        ws.send_json({"type": "move", "option": option, "decision": 0})
        assert ws.receive_json()["decision"] >= 1
    # nothing of it in the server's log: no traceback, no error line
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
