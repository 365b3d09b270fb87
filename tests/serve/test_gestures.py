"""A turn as one gesture (docs/serve.md, "Gestures"): a run of one step's decisions that the
ruleset groups is sent to the seat as one (how many picks, how often each option), and a list
of option ids sent back is played as the run of small moves, or refused whole, nothing changed.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers.serve_api import move, new_table, state_of, token_of
from interpreter.serve.app import create_app
from interpreter.serve.caps import Caps
from interpreter.serve.player import Player


def _to_a_gesture(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """Play the first option of every decision until a seat is asked a gesture; its message."""
    message = state_of(client, table, None)
    while not message["over"]:
        seat = message["to_move"]
        message = state_of(client, table, seat)
        if message["gesture"] is not None:
            return message
        response = move(client, table, seat, message["options"][0]["id"], message["decision"])
        assert response.status_code == 200, response.text
        message = response.json()
    raise AssertionError("the game ended before any gesture was asked")


def _send(client: TestClient, table: dict[str, Any], seat: int, picks: list[str], at: int) -> Any:
    return client.post(
        f"/api/tables/{table['id']}/move",
        json={"token": token_of(table, seat), "options": picks, "decision": at},
    )


def _chosen(client: TestClient, table: dict[str, Any], seat: int) -> list[str]:
    record = client.get(
        f"/api/tables/{table['id']}/save", params={"token": token_of(table, seat)}
    ).json()
    return [step["chose"] for step in record["steps"] if "chose" in step]


def _gesture_is_the_run_of_small_moves(client: TestClient) -> None:
    table = new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=2**61)
    asked = _to_a_gesture(client, table)
    seat, at, gesture = asked["to_move"], asked["decision"], asked["gesture"]
    assert gesture["kind"] == "select" and gesture["picks"] >= 2
    assert gesture["text"].startswith(f"Pay {gesture['picks']} cards for ")
    most = dict(gesture["most"])
    assert set(most) == {o["id"] for o in asked["options"]}
    before = _chosen(client, table, seat)

    # a pick no option allows (one card too many) refuses the whole list: nothing changes
    over = [option for option, times in gesture["most"] for _ in range(times + 1)]
    refused = _send(client, table, seat, over[: gesture["picks"] + 1], at)
    assert refused.status_code == 422, refused.text
    assert state_of(client, table, seat)["decision"] == at
    assert _chosen(client, table, seat) == before

    picks = [option for option, times in gesture["most"] for _ in range(times)][::-1]
    picks = picks[: gesture["picks"]]
    answer = _send(client, table, seat, picks, at)
    assert answer.status_code == 200, answer.text
    assert answer.json()["decision"] >= at + len(picks)
    after = _chosen(client, table, seat)
    assert after[: len(before)] == before
    assert sorted(after[len(before) : len(before) + len(picks)]) == sorted(picks)


def test_a_gesture_is_played_as_its_small_moves_and_an_illegal_one_changes_nothing(
    tmp_path: Path,
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(tmp_path / "t.sqlite3")) as client:
            _gesture_is_the_run_of_small_moves(client)


def test_a_worker_sends_the_gesture_and_tries_a_list_on_a_copy() -> None:
    """What a table's worker process does (serve/player.py, here in this process): the
    gesture comes with the options, and a ``plan`` tries a list without moving the table."""
    header = {
        "game": "san-juan",
        "players": 2,
        "overlays": [],
        "options": {},
        "seed": 2**61,
        "seats": ["human", "human"],
        "format": "rulebook-save/4",
    }
    player = Player(Caps(), budget=False)
    answer = player.handle({"op": "open", "table": "t", "header": header, "choices": []})
    moves = 0
    while answer["gesture"] is None:
        option = answer["options"][0]["id"]
        request = {"op": "move", "table": "t", "option": option, "log_from": 0, "history_from": 0}
        answer = player.handle(request)
        moves += 1
        assert moves < 20
    gesture = answer["gesture"]
    seat = player.tables["t"].state.to_move
    decisions = player.tables["t"].state.decisions
    picks = [option for option, times in gesture["most"] for _ in range(times)][: gesture["picks"]]
    bad = {"op": "plan", "table": "t", "seat": seat, "picks": [*picks, picks[0]]}
    assert player.handle(bad)["failed"] == "illegal"
    planned = player.handle({"op": "plan", "table": "t", "seat": seat, "picks": picks[::-1]})
    assert sorted(planned["moves"]) == sorted(picks)
    assert player.tables["t"].state.decisions == decisions
