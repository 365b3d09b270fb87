"""Only a table's creator (the creator token: the browser that made it, or the token given to
an API client) may delete it, see its seat links again, or change its bots' speed; anybody
else gets a clear 403 and nothing changes."""

from __future__ import annotations

import time

import pytest

from helpers.serve_api import new_table, state_of, token_of


@pytest.fixture
def table(client):
    return new_table(client, game="puerto-rico", players=3, seats=["human", "random", "human"])


def test_the_creator_token_is_long_random_and_no_seat_token(client, table):
    other = new_table(client, game="san-juan", players=2, seats=["human", "human"])
    tokens = {token_of(table, 0), token_of(table, 2), token_of(other, 0), token_of(other, 1)}
    assert len(table["creator"]) >= 43 and table["creator"] != other["creator"]
    assert table["creator"] not in tokens


@pytest.mark.parametrize("offered", [None, "seat", "guess"])
def test_only_the_creator_deletes_a_table(client, table, offered):
    before = state_of(client, table, 0)
    token = {"seat": token_of(table, 0), "guess": "x" * 43}.get(offered)
    body = {} if token is None else {"creator": token}
    response = client.request("DELETE", f"/api/tables/{table['id']}", json=body)
    assert response.status_code == 403
    assert response.json()["error"].startswith("only the table's creator may delete it")
    after = state_of(client, table, 0)
    assert after["decision"] == before["decision"] and after["board"] == before["board"]


def test_the_creator_deletes_a_table_for_good(client, table):
    response = client.request(
        "DELETE", f"/api/tables/{table['id']}", json={"creator": table["creator"]}
    )
    assert response.status_code == 200 and response.json() == {"deleted": table["id"]}
    gone = client.get(f"/api/tables/{table['id']}/state")
    assert gone.status_code == 404 and "no table" in gone.json()["error"]
    assert table["id"] not in client.get("/").text
    assert client.app.state.hub.store.load(table["id"]) is None


def test_only_the_creator_sees_the_seat_links_again(client, table):
    url = f"/api/tables/{table['id']}/links"
    for headers in ({}, {"X-Rulebook-Creator": token_of(table, 0)}):
        response = client.get(url, headers=headers)
        assert response.status_code == 403
        assert "only the table's creator may see its seat links" in response.json()["error"]
        assert token_of(table, 2) not in response.text
    response = client.get(url, headers={"X-Rulebook-Creator": table["creator"]})
    assert response.status_code == 200
    assert [s.get("token") for s in response.json()["seats"]] == [
        token_of(table, 0),
        None,
        token_of(table, 2),
    ]


def test_only_the_creator_changes_a_watched_tables_speed(client):
    table = new_table(client, game="puerto-rico", players=3, seats=["random"] * 3, speed=0.01)
    url = f"/api/tables/{table['id']}/speed"
    for body in ({"speed": 50}, {"speed": 50, "creator": "y" * 43}):
        response = client.post(url, json=body)
        assert response.status_code == 403
        assert "only the table's creator may change its speed" in response.json()["error"]
    assert client.app.state.hub.get(table["id"]).speed == 0.01
    response = client.post(url, json={"speed": 50, "creator": table["creator"]})
    assert response.status_code == 200 and response.json() == {"speed": 50.0}


def _form(players: int, seats: list[str]) -> dict[str, str]:
    fields = {"game": "puerto-rico", "players": str(players), "speed": "0.01"}
    fields.update({f"seat{i}": kind for i, kind in enumerate(seats)})
    return fields


def test_the_lobby_shows_seat_links_and_delete_to_the_creators_browser_only(client):
    made = client.post("/new", data=_form(3, ["human", "human", "random"]))
    assert made.status_code == 201
    table_id = made.text.split('href="/t/', 1)[1].split("?", 1)[0]
    table = client.app.state.hub.get(table_id)
    lobby = client.get("/").text
    assert table.tokens[0] in lobby and table.tokens[1] in lobby
    assert f'action="/t/{table_id}/delete"' in lobby
    mine = dict(client.cookies)
    client.cookies.clear()  # another browser
    lobby = client.get("/").text
    assert table_id in lobby
    assert table.tokens[0] not in lobby and f"/t/{table_id}/delete" not in lobby
    refused = client.post(f"/t/{table_id}/delete", follow_redirects=False)
    assert refused.status_code == 403 and "only the table&#x27;s creator may delete it" in (
        refused.text
    )
    assert client.app.state.hub.store.load(table_id) is not None
    client.cookies.update(mine)
    deleted = client.post(f"/t/{table_id}/delete", follow_redirects=False)
    assert deleted.status_code == 303 and deleted.headers["location"] == "/"
    assert client.app.state.hub.store.load(table_id) is None


def test_deleting_a_watched_table_stops_its_bots(client):
    made = client.post("/new", data=_form(3, ["random"] * 3), follow_redirects=False)
    assert made.status_code == 303
    table_id = made.headers["location"].rsplit("/", 1)[1]
    watchers = client.app.state.watchers
    assert table_id in watchers.tasks
    assert 'data-creator="1"' in client.get(f"/t/{table_id}").text  # the speed slider's
    response = client.request("DELETE", f"/api/tables/{table_id}")  # the browser's cookie
    assert response.status_code == 200
    deadline = time.monotonic() + 10
    while table_id in watchers.tasks and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table_id not in watchers.tasks
