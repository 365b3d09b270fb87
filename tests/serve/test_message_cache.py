"""A table keeps each seat's message at its present position: every socket of one seat (every
spectator alike) shares one build, a move or a stop builds anew, and a seat is never handed
another seat's message (its hidden hand, its options)."""

from __future__ import annotations

import pytest

from interpreter.serve import messages
from interpreter.serve.messages import seat_message


@pytest.fixture
def builds(monkeypatch):
    made: list[tuple] = []
    real = messages._position

    def counted(table, seat, every_seat):
        made.append((seat, table.decision))
        return real(table, seat, every_seat)

    monkeypatch.setattr(messages, "_position", counted)
    return made


def test_one_build_per_seat_and_position(hub, builds):
    table = hub.create("san-juan", 2, ["human", "human"], seed=4)
    first = [seat_message(table, None, log_from=n) for n in range(3)]
    assert builds == [(None, 0)]  # three spectators, one build
    assert [m["log_from"] for m in first] == [0, 1, 2]
    assert first[1]["log"] == first[0]["log"][1:]  # each gets the log it asked for
    first[0]["extra"] = 1  # a caller's own copy: adding to it changes no other
    assert "extra" not in seat_message(table, None)

    mover = table.state.to_move
    other = 1 - mover
    mine, theirs = seat_message(table, mover), seat_message(table, other)
    assert builds == [(None, 0), (mover, 0), (other, 0)]
    assert mine["seat"] == mover and mine["options"]
    assert theirs["seat"] == other and theirs["options"] == []
    assert mine["board"] != theirs["board"]  # each sees its own hand only

    hub.move(table, table.tokens[mover], table.state.legal_options()[0], 0)
    again = seat_message(table, None)
    assert builds[-1] == (None, 1) and again["decision"] == 1

    table.error = "a bot failed"
    assert seat_message(table, None)["error"] == "a bot failed"
    assert builds[-1] == (None, 1) and len(builds) == 5
