"""Driving the web table's seats through its HTTP API (Starlette's TestClient)."""

from __future__ import annotations

import warnings
from typing import Any

with warnings.catch_warnings():  # starlette suggests httpx2; httpx is what it runs on today
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def new_table(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=fields)
    assert response.status_code == 201, response.text
    return response.json()


def ask_everything(client: Any, table: dict[str, Any]) -> None:
    """Set "ask me" for every question a person's seat starts answered (``presentation:
    answers:``): a test that moves every seat itself is then never raced by the server."""
    for seat in table["seats"]:
        if "token" not in seat:
            continue
        url = f"/api/tables/{table['id']}/answers"
        listed = client.get(url, params={"token": seat["token"]}).json()
        for question in listed["questions"]:
            if question["start"] != "ask":
                body = {"token": seat["token"], "question": question["key"], "answer": "ask"}
                assert client.post(url, json=body).status_code == 200


def token_of(table: dict[str, Any], seat: int) -> str:
    return table["seats"][seat]["token"]


def state_of(client: TestClient, table: dict[str, Any], seat: int | None) -> dict[str, Any]:
    params = {} if seat is None else {"token": token_of(table, seat)}
    response = client.get(f"/api/tables/{table['id']}/state", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def move(client: TestClient, table: dict[str, Any], seat: int, option: str, decision: int) -> Any:
    return client.post(
        f"/api/tables/{table['id']}/move",
        json={"token": token_of(table, seat), "option": option, "decision": decision},
    )


def play_out(client: TestClient, table: dict[str, Any], pick: Any = None) -> dict[str, Any]:
    """Drive every human seat through the API until the game is over; the last message. A
    question a seat answers in advance (a ruleset's starting answer: Puerto Rico's "produce?")
    is left to the server, which may move the table on between two requests."""
    message = state_of(client, table, None)
    while not message["over"]:
        seat = message["to_move"]
        message = state_of(client, table, seat)
        options = [o["id"] for o in message["options"]]
        if message["to_move"] != seat or message.get("answered") or not options:
            message = state_of(client, table, None)  # answered in advance: on its way
            continue
        choice = pick(options) if pick else options[0]
        response = move(client, table, seat, choice, message["decision"])
        if response.status_code == 409:  # the seat's answer in advance came first
            message = state_of(client, table, None)
            continue
        assert response.status_code == 200, response.text
        message = response.json()
    return message
