"""Every bad request gets a clear message and leaves the game as it was."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from helpers.serve_api import move, new_table, state_of, token_of


@pytest.fixture
def table(client):
    return new_table(client, game="puerto-rico", players=3, seats=["human"] * 3, seed=11)


@pytest.fixture(autouse=True)
def _no_traceback_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Bad input is answered, never logged: no traceback, no error line (docs/serve.md)."""
    caplog.set_level(logging.INFO)
    yield
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]


def unchanged(client, table, before):
    after = state_of(client, table, 0)
    assert after["decision"] == before["decision"] and after["board"] == before["board"]


def test_an_illegal_option_is_refused(client, table):
    before = state_of(client, table, 0)
    response = move(client, table, 0, "build:nothing", before["decision"])
    assert response.status_code == 422
    assert "'build:nothing' is not a legal option now" in response.json()["error"]
    unchanged(client, table, before)


def test_malformed_json_is_refused(client, table):
    before = state_of(client, table, 0)
    response = client.post(
        f"/api/tables/{table['id']}/move",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400 and "malformed JSON" in response.json()["error"]
    response = client.post(f"/api/tables/{table['id']}/move", content=b"[1, 2]")
    assert response.status_code == 400 and "expected a JSON object" in response.json()["error"]
    unchanged(client, table, before)


@pytest.mark.parametrize(
    "fields, said",
    [
        ({"option": 5, "decision": 0}, "'option' must be an option id"),
        ({"option": "pass", "decision": "0"}, "'decision' must be the decision number"),
        ({"option": "pass"}, "'decision' must be the decision number"),
    ],
)
def test_wrongly_typed_fields_are_refused(client, table, fields, said):
    before = state_of(client, table, 0)
    response = client.post(
        f"/api/tables/{table['id']}/move", json={"token": token_of(table, 0), **fields}
    )
    assert response.status_code == 400 and said in response.json()["error"]
    unchanged(client, table, before)


def test_a_stale_decision_number_is_refused(client, table):
    before = state_of(client, table, 0)
    option = before["options"][0]["id"]
    assert move(client, table, 0, option, before["decision"]).status_code == 200
    seat = state_of(client, table, None)["to_move"]
    again = state_of(client, table, seat)
    response = move(client, table, seat, again["options"][0]["id"], before["decision"])
    assert response.status_code == 409
    assert f"stale decision {before['decision']}" in response.json()["error"]
    assert state_of(client, table, seat)["decision"] == again["decision"]


def test_another_seats_token_cannot_move(client, table):
    before = state_of(client, table, 0)
    response = move(client, table, 1, before["options"][0]["id"], before["decision"])
    assert response.status_code == 409 and "not your turn" in response.json()["error"]
    unchanged(client, table, before)


def test_a_guessed_token_is_refused(client, table):
    before = state_of(client, table, 0)
    assert len(token_of(table, 0)) >= 40  # 32 random bytes
    real = token_of(table, 0)
    near = real[:-1] + ("B" if real.endswith("A") else "A")  # one character off, never the same
    for guess in ["", "x", near, "0" * 43]:
        response = client.post(
            f"/api/tables/{table['id']}/move",
            json={"token": guess, "option": before["options"][0]["id"], "decision": 0},
        )
        assert response.status_code == 403, guess
        assert "spectator" in response.json()["error"] or "not valid" in response.json()["error"]
    assert client.get(f"/api/tables/{table['id']}/state?token=nope").status_code == 403
    unchanged(client, table, before)


def test_a_token_of_another_table_is_refused(client, table):
    other = new_table(client, game="san-juan", players=2, seats=["human", "human"])
    before = state_of(client, table, 0)
    response = move(client, table, 0, before["options"][0]["id"], before["decision"])
    assert response.status_code == 200
    response = client.post(
        f"/api/tables/{table['id']}/move",
        json={"token": token_of(other, 0), "option": "pass", "decision": 1},
    )
    assert response.status_code == 403


def test_unknown_game_overlay_table_and_bot_are_refused(client):
    cases = [
        ({"game": "chess", "seats": ["human"]}, "unknown game 'chess'"),
        (
            {"game": "puerto-rico", "seats": ["human"] * 3, "overlays": ["nobels"]},
            "did you mean 'nobles'",
        ),
        (
            {"game": "puerto-rico", "seats": ["human"] * 3, "overlays": ["/etc/passwd"]},
            "'overlays' takes overlay ids",
        ),
        ({"game": "puerto-rico", "seats": ["human", "randon", "random"]}, "unknown bot 'randon'"),
        ({"game": "puerto-rico", "seats": ["human"] * 9}, "for 2 to 5 players, not 9"),
        ({"game": "puerto-rico", "seats": ["human"] * 3, "options": {"bank": "x"}}, "bank"),
    ]
    for fields, said in cases:
        response = client.post("/api/tables", json=fields)
        assert response.status_code in (400, 404), response.text
        assert said in response.json()["error"], (said, response.json())
    assert client.get("/api/tables/nosuchtable/state").status_code == 404
    assert client.get("/").status_code == 200
    assert "No tables yet" in client.get("/").text  # nothing was stored for refused set-ups


def test_an_uploaded_overlay_too_large_or_an_alias_bomb_is_refused(client):
    big = b"overlay: big\nextends: puerto-rico\n" + b"# padding\n" * 30000
    response = client.post("/api/overlays?name=big.yaml", content=big)
    assert response.status_code == 413 and "at most 256 KB" in response.json()["error"]
    lines = ["overlay: bomb", "extends: puerto-rico", 'a: &a ["x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        prev, name = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    response = client.post("/api/overlays?name=bomb.yaml", content="\n".join(lines).encode())
    assert response.status_code == 422
    assert "bomb.yaml:1:1: error[Y007]: aliases expand" in response.json()["error"]


def test_a_broken_overlay_gets_located_diagnostics_and_a_good_one_plays(client):
    broken = b"overlay: mine\nextends: puerto-rico\npatch:\n  tables/vp-chips-start: {3: fifty}\n"
    response = client.post("/api/overlays?name=mine.yaml", content=broken)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error.startswith("mine.yaml does not validate:\nmine.yaml:4:"), error
    good = b"overlay: mine\nextends: puerto-rico\npatch:\n  tables/vp-chips-start: {3: 50}\n"
    response = client.post("/api/overlays?name=mine.yaml", content=good)
    assert response.status_code == 201
    overlay = response.json()["overlay"]
    table = new_table(
        client, game="puerto-rico", players=3, seats=["human"] * 3, overlays=[overlay]
    )
    assert "VP chips" in state_of(client, table, 0)["board"]
    assert (
        client.post(
            "/api/tables",
            json={"game": "puerto-rico", "seats": ["human"] * 3, "overlays": ["upload:ffff"]},
        ).status_code
        == 404
    )


def test_websocket_refusals_keep_the_socket_and_the_game(client, table):
    url = f"/ws/tables/{table['id']}?token={token_of(table, 0)}"
    with client.websocket_connect(url) as ws:
        first = ws.receive_json()
        ws.send_text("{oops")
        assert "malformed JSON" in ws.receive_json()["error"]
        assert ws.receive_json()["decision"] == first["decision"]
        ws.send_text(json.dumps({"type": "move", "option": "nope", "decision": 0}))
        assert "not a legal option" in ws.receive_json()["error"]
        ws.receive_json()
        option = first["options"][0]["id"]
        ws.send_text(json.dumps({"type": "move", "option": option, "decision": 0}))
        moved = ws.receive_json()
        assert moved["decision"] == 1 and moved["log"] != first["log"]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token=guess") as ws:
        assert "not valid" in ws.receive_json()["error"]


def test_reconnecting_resumes_the_seat(client, table):
    url = f"/ws/tables/{table['id']}?token={token_of(table, 0)}"
    with client.websocket_connect(url) as ws:
        first = ws.receive_json()
    # seat 0 went away; seat 0's move over HTTP still counts, and a new socket shows it
    assert move(client, table, 0, first["options"][0]["id"], 0).status_code == 200
    with client.websocket_connect(url) as ws:
        again = ws.receive_json()
    assert again["seat"] == 0 and again["decision"] == 1
    assert again["log"][-1][1].startswith("Player 1")  # seat 0, by its name


def test_no_file_of_the_server_is_read_as_a_game_or_an_overlay(client, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("overlay: secret\nextends: puerto-rico\npassword: hunter2\n")
    response = client.post("/api/tables", json={"game": str(secret), "seats": ["human"] * 3})
    assert response.status_code == 400 and "unknown game" in response.json()["error"]
    save = {
        "format": "rulebook-save/1",
        "game": "puerto-rico",
        "players": 3,
        "overlays": [str(secret)],
        "options": {},
        "seed": 1,
        "seats": ["random"] * 3,
        "choices": [],
        "result": None,
    }
    response = client.post("/api/replay", json={"save": save, "step": 0})
    assert response.status_code == 400
    assert "overlay file this server does not have: 'secret.yaml'" in response.json()["error"]
    assert "hunter2" not in response.text
    save["overlays"], save["game"] = [], "../puerto-rico"
    response = client.post("/api/replay", json={"save": save, "step": 0})
    assert response.status_code == 400 and "unknown game" in response.json()["error"]


def test_a_replay_of_a_save_shows_any_step(client):
    table = new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=2)
    for _ in range(6):
        seat = state_of(client, table, None)["to_move"]
        mine = state_of(client, table, seat)
        move(client, table, seat, mine["options"][0]["id"], mine["decision"])
    # the save file the table will have once it ends (while people play nobody downloads it)
    save = client.app.state.hub.get(table["id"]).to_save().to_json()
    shown = client.post("/api/replay", json={"save": save, "step": 3}).json()
    assert shown["step"] == 3 and shown["steps"] == 6 and shown["decision"] == 3
    assert shown["options"] == []  # a replay shows the table, not anybody's hand or options
    save["choices"][1] = "role:nothing"
    response = client.post("/api/replay", json={"save": save, "step": 5})
    assert response.status_code == 422 and "step 2" in response.json()["error"]
    response = client.post("/api/replay", json={"save": {"format": "x"}, "step": 0})
    assert response.status_code == 422 and "unsupported save format" in response.json()["error"]
