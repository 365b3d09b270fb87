"""Names where people read them beyond the table page: a refusal says who decides by name, a
table's replay names people as the table does (not "Player N"), and a seat's downloaded record
carries every seat's name. The real San Juan ruleset through the HTTP API."""

from __future__ import annotations

import html

import pytest

from helpers.serve_api import move, new_table, state_of, token_of

SEED = 5  # a practice table: the seat to move first is the same each run


@pytest.fixture
def table(client):
    return new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=SEED)


def _name(client, table, seat, name):
    body = {"token": token_of(table, seat), "name": name}
    response = client.post(f"/api/tables/{table['id']}/name", json=body)
    assert response.status_code == 200, response.text


def test_a_refusal_says_who_decides_by_name(client, table):
    seat = state_of(client, table, None)["to_move"]
    _name(client, table, seat, "Ana")
    decision = state_of(client, table, seat)["decision"]
    refused = move(client, table, 1 - seat, "role:builder", decision)
    assert refused.status_code == 409
    assert refused.json()["error"] == "it is not your turn (Ana decides)"


def test_a_replay_and_a_record_name_people_as_the_table_does(client, table):
    seat = state_of(client, table, None)["to_move"]
    _name(client, table, seat, "Ana <3")
    _name(client, table, 1 - seat, "Bo")
    after = move(client, table, seat, "role:builder", 0).json()
    assert after["decision"] == 1
    # step 1 of 1 is the position held; step 0 is played again from the save
    replay = client.post("/api/replay", json={"table": table["id"], "step": 0})
    assert replay.status_code == 200, replay.text
    step = replay.json()
    expected = ["Player 1", "Player 2"]
    expected[seat], expected[1 - seat] = "Ana <3", "Bo"
    assert step["names"] == expected
    assert "Player 1" not in step["board"] and "Player 2" not in step["board"]
    assert html.escape("Ana <3") in step["board"] and "Ana <3" not in step["board"]
    replay = client.post("/api/replay", json={"table": table["id"], "step": 1}).json()
    assert any("Ana <3 takes the Builder" in text for _r, text, *_ in replay["log"])
    record = client.get(
        f"/api/tables/{table['id']}/save", params={"token": token_of(table, seat)}
    ).json()
    assert record["names"] == expected
