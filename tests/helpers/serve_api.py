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
    """Drive every human seat through the API until the game is over; the last message."""
    message = state_of(client, table, None)
    while not message["over"]:
        seat = message["to_move"]
        message = state_of(client, table, seat)
        options = [o["id"] for o in message["options"]]
        assert options, f"seat {seat} to move has no options"
        choice = pick(options) if pick else options[0]
        response = move(client, table, seat, choice, message["decision"])
        assert response.status_code == 200, response.text
        message = response.json()
    return message
