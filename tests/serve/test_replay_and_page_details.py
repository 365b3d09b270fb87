"""The replay page opens at the end, and a game that has ended hides nothing any more; the table
page's speed slider starts at the table's speed; the site has an icon. Through the real server
(Starlette's TestClient, SQLite) and the shipped San Juan."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.serve_api import move, new_table, play_out, state_of

TABLE_JS = Path(__file__).resolve().parents[2] / "interpreter" / "serve" / "static" / "table.js"


def _hand_names(client, table) -> list[list[str]]:
    live = client.app.state.hub.get(table["id"])
    return [[live.presentation.label(c) for c in p["hand"]] for p in live.state.p]


def test_the_replay_of_a_game_still_going_on_shows_no_hand(client):
    table = new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=4)
    for _ in range(4):
        seat = state_of(client, table, None)["to_move"]
        mine = state_of(client, table, seat)
        move(client, table, seat, mine["options"][0]["id"], mine["decision"])
    shown = client.post("/api/replay", json={"table": table["id"], "step": "end"}).json()
    assert shown["step"] == shown["steps"] == 4 and shown["hands_shown"] is False
    # what every visitor sees now, no more
    assert shown["board"] == state_of(client, table, None)["board"]


def test_the_replay_of_an_ended_game_opens_at_the_end_with_every_hand(client):
    table = new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=5)
    last = play_out(client, table)
    assert last["over"]
    hands = _hand_names(client, table)
    assert all(hands), hands
    end = client.post("/api/replay", json={"table": table["id"], "step": "end"}).json()
    assert end["hands_shown"] is True and end["step"] == end["steps"] > 0
    assert end["result"] is not None
    spectator = state_of(client, table, None)["board"]
    for names in hands:
        for name in names:
            assert name in end["board"], name
    assert end["board"] != spectator  # a visitor of the live table saw only counts
    early = client.post("/api/replay", json={"table": table["id"], "step": 3}).json()
    assert early["hands_shown"] is True and early["step"] == 3
    bad = client.post("/api/replay", json={"table": table["id"], "step": "last"})
    assert bad.status_code == 400 and '"end"' in bad.json()["error"]
    script = TABLE_JS.read_text(encoding="utf-8")
    assert 'if (table) show("end")' in script


def test_the_speed_slider_starts_at_the_tables_speed(client):
    table = new_table(client, game="san-juan", players=2, seats=["random", "random"], speed=20)
    page = client.get(f"/t/{table['id']}")
    assert page.status_code == 200 and 'data-speed="20"' in page.text
    script = TABLE_JS.read_text(encoding="utf-8")
    assert "+app.dataset.speed" in script and 'value="2"' not in script


def test_the_site_has_an_icon(client):
    for path in ("/favicon.ico", "/favicon.svg"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert response.text.startswith("<svg")
    assert 'rel="icon"' in client.get("/").text


def test_a_games_own_bot_is_offered_and_accepted_for_that_game_only(client):
    refused = client.post(
        "/api/tables", json={"game": "puerto-rico", "seats": ["human", "sj-heuristic", "random"]}
    )
    assert refused.status_code == 400
    assert "seat 1: the bot 'sj-heuristic' plays another game only" in refused.json()["error"]
    new_table(client, game="san-juan", players=2, seats=["human", "sj-heuristic"])
    form = client.get("/new").text
    # each bot by its title, with its one line; the game's own bot marked with its game
    assert '<option value="sj-heuristic" data-game="san-juan" data-doc="San Juan: ' in form
    assert '<option value="random" data-doc="picks uniformly' in form
    script = (TABLE_JS.parent / "forms.js").read_text(encoding="utf-8")
    assert "o.dataset.game !== game.value" in script


def test_the_status_line_names_no_decision_number():
    script = TABLE_JS.read_text(encoding="utf-8")
    assert 'decision " + msg.decision' not in script


def test_the_lobby_says_moves_made_not_decision_numbers(client):
    table = new_table(client, game="san-juan", players=2, seats=["human", "human"], seed=4)
    seat = state_of(client, table, None)["to_move"]
    mine = state_of(client, table, seat)
    move(client, table, seat, mine["options"][0]["id"], mine["decision"])
    lobby = client.get("/").text
    assert "1 move made" in lobby and "decision 1" not in lobby


def test_every_role_a_seat_may_take_has_a_tooltip(client):
    for game in ("puerto-rico", "san-juan"):
        table = new_table(client, game=game, players=3, seats=["human"] * 3, seed=1)
        mine = state_of(client, table, 0)
        roles = [o for o in mine["options"] if o["id"].startswith("role:")]
        assert roles and all(o["doc"] for o in roles), (game, roles)
        assert not any("phase `" in o["doc"] for o in roles)  # words for people, no notes
