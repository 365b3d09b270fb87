"""A refusal quotes what a client sent as a short prefix and its length, whatever field it came
in: a stranger's 900 KB name (a game, a bot, an overlay, an option, a table, a move, a save's
choice or overlay) comes back as its first 40 characters, never whole nor cut at 4,000."""

from __future__ import annotations

from typing import Any

HUGE = "x" * 900_000
SEATS = ["human", "random", "random"]


def _made(client: Any) -> tuple[str, str, int]:
    made = client.post("/api/tables", json={"game": "puerto-rico", "seats": SEATS}).json()
    token = made["seats"][0]["token"]
    state = client.get(f"/api/tables/{made['id']}/state", params={"token": token}).json()
    return made["id"], token, state["decision"]


def _short(response: Any, status: int) -> str:
    assert response.status_code == status, response.text[:300]
    error = response.json()["error"]
    assert len(error) < 200 and "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (" in error, error
    return error


def test_every_refusal_quotes_a_900_kb_name_as_a_short_prefix(client):
    table, token, decision = _made(client)
    tables = {
        "game": {"game": HUGE, "seats": ["human"]},
        "seat": {"game": "puerto-rico", "seats": ["human", HUGE, "random"]},
        "overlay": {"game": "puerto-rico", "seats": SEATS, "overlays": [HUGE]},
        "option": {"game": "puerto-rico", "seats": SEATS, "options": {HUGE: 1}},
    }
    for field, body in tables.items():
        error = _short(client.post("/api/tables", json=body), 400)
        assert "(900,000 characters)" in error, field
    upload = {"game": "puerto-rico", "seats": SEATS, "overlays": ["upload:" + HUGE]}
    _short(client.post("/api/tables", json=upload), 404)
    _short(client.post("/api/replay", json={"table": HUGE, "step": 0}), 404)
    _short(client.get(f"/api/tables/{HUGE[:5000]}/state"), 404)
    move = {"token": token, "option": HUGE, "decision": decision}
    _short(client.post(f"/api/tables/{table}/move", json=move), 422)
    bots = client.post("/api/tables", json={"game": "puerto-rico", "seats": ["random"] * 3})
    save = client.get(f"/api/tables/{bots.json()['id']}/save").json()
    forged = {**save, "choices": [HUGE]}
    _short(client.post("/api/replay", json={"save": forged, "step": 1}), 422)
    elsewhere = {**save, "overlays": [HUGE + ".yaml"]}
    _short(client.post("/api/replay", json={"save": elsewhere, "step": 0}), 400)


def test_the_replay_page_does_not_carry_a_table_id_that_is_none(client):
    page = client.get("/replay", params={"table": HUGE[:5000]})
    assert page.status_code == 200 and "xxxxxxxxxx" not in page.text
