"""Names, not seat numbers: a person names their seat on joining (checked: length, no control
character, not another seat's name, escaped wherever it is shown), bots are named by their
kind, and every text a seat reads (the log, the board, the scores) says the names. A forged
name over the API or the websocket is refused and changes nothing. Each seat's colour reads
at WCAG AA contrast."""

from __future__ import annotations

import re
import warnings

import pytest

from helpers.serve_api import move, new_table, state_of, token_of
from interpreter.table.seat_names import MAX_NAME, SEAT_COLOURS, seat_names, with_names

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _name(client, table, seat, name, token=None):
    token = token_of(table, seat) if token is None else token
    return client.post(f"/api/tables/{table['id']}/name", json={"token": token, "name": name})


@pytest.fixture
def table(client):
    return new_table(
        client, game="puerto-rico", players=3, seats=["human", "human", "pr-heuristic"], seed=4
    )


def test_seats_are_named_people_by_default_bots_by_their_kind(client, table):
    message = state_of(client, table, None)
    assert message["names"] == ["Player 1", "Player 2", "Heuristic bot"]
    assert len(set(message["colours"])) == 3
    assert seat_names(["random", "human", "random"]) == ["Random bot 1", "Player 2", "Random bot 2"]
    # the engine's "seat N" is nowhere in what a seat reads
    for seat in (0, 1, None):
        message = state_of(client, table, seat)
        texts = [text for _round, text in message["log"]]
        assert texts and not any(re.search(r"\bseat \d", t, re.I) for t in texts), texts
        assert not re.search(r"\bSeat \d", re.sub(r"<[^>]+>", " ", message["board"]))


def test_a_person_names_their_seat_and_everybody_reads_it(client, table):
    answer = _name(client, table, 0, "  Ana   María ")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"seat": 0, "names": ["Ana María", "Player 2", "Heuristic bot"]}
    first = state_of(client, table, 0)["options"][0]["id"]
    assert move(client, table, 0, first, state_of(client, table, 0)["decision"]).status_code == 200
    for seat in (0, 1, None):
        message = state_of(client, table, seat)
        assert message["names"][0] == "Ana María"
        assert any(text.startswith("Ana María") for _r, text in message["log"])
        assert "<h3>Ana Mar&#237;a" in message["board"]  # the board's HTML is ASCII
    # the seat's own page greets it by name; a name is asked only until it is given
    page = client.get(f"/t/{table['id']}?token={token_of(table, 0)}").text
    assert 'id="who">Ana María<' in page and 'id="name-form"' not in page
    other = client.get(f"/t/{table['id']}?token={token_of(table, 1)}").text
    assert 'id="name-form"' in other and f'maxlength="{MAX_NAME}"' in other


def test_a_name_is_escaped_wherever_it_is_shown(client, table):
    assert _name(client, table, 1, '<img src=x>"&').status_code == 200
    message = state_of(client, table, None)
    assert "<img" not in message["board"] and "&lt;img src=x&gt;&quot;&amp;" in message["board"]
    page = client.get(f"/t/{table['id']}?token={token_of(table, 1)}").text
    assert "<img" not in page and "&lt;img src=x&gt;" in page


FORGED = [
    ("x" * (MAX_NAME + 1), "at most 24 characters"),
    ("x" * 5000, "at most 24 characters"),
    ("Ana\u202eevil", "control character U+202E"),
    ("Ana\x00", "control character U+0000"),
    ("   ", "at least one letter"),
    (42, "must be a text"),
    (["Ana"], "must be a text"),
    ("Heuristic bot", "another seat is called 'Heuristic bot'"),
    ("seat 2", "reads as another seat's number"),
    ("player 2", "reads as another seat's number"),
]


def test_a_forged_name_is_refused_and_changes_nothing(client, table):
    before = state_of(client, table, None)
    for name, why in FORGED:
        answer = _name(client, table, 0, name)
        assert answer.status_code == 400 and why in answer.json()["error"], (name, answer.text)
    after = state_of(client, table, None)
    assert after["names"] == before["names"] and after["board"] == before["board"]
    # spaces and line breaks fold to one space; a seat may take its own default name
    assert _name(client, table, 0, "Ana\n  Bob").json()["names"][0] == "Ana Bob"
    assert _name(client, table, 0, "player 1").json()["names"][0] == "player 1"


def test_only_a_persons_own_seat_takes_a_name(client, table):
    spectator = client.post(f"/api/tables/{table['id']}/name", json={"name": "Eve"})
    assert spectator.status_code == 403
    wrong = _name(client, table, 0, "Eve", token="x" * 43)
    assert wrong.status_code == 403
    extra = client.post(
        f"/api/tables/{table['id']}/name",
        json={"token": token_of(table, 0), "name": "Eve", "seat": 1},
    )
    assert extra.status_code == 400 and "unknown field(s) seat" in extra.json()["error"]
    # the websocket takes moves only: a name sent there is refused, nothing changes
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token_of(table, 0)}") as ws:
        ws.receive_json()
        ws.send_json({"type": "name", "name": "Eve"})
        assert ws.receive_json()["type"] == "error"
    assert state_of(client, table, None)["names"] == ["Player 1", "Player 2", "Heuristic bot"]


def test_a_name_is_kept_across_a_restart(db):
    from interpreter.serve.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db)) as first:
            table = new_table(first, game="san-juan", players=2, seats=["human", "human"])
            assert _name(first, table, 1, "Bruno").status_code == 200
        with TestClient(create_app(db)) as again:
            assert state_of(again, table, None)["names"] == ["Player 1", "Bruno"]


def test_the_score_table_and_the_winner_use_names_and_the_rulesets_words(client):
    table = new_table(client, game="san-juan", players=2, seats=["human", "sj-heuristic"], seed=2)
    assert _name(client, table, 0, "Ana").status_code == 200
    message = state_of(client, table, 0)
    while not message["over"]:
        message = move(client, table, 0, message["options"][0]["id"], message["decision"]).json()
    result = message["result"]
    head, *rows = result["rows"]
    assert head == [
        "",
        "Player",
        "Buildings",
        "Cards under buildings",
        "Bonus VP",
        "Palace",
        "Total",
        "Cards in hand and goods",
    ]
    assert sorted(row[1] for row in rows) == ["Ana", "Heuristic bot"]
    assert result["ended"] in ("a city is full", "the deck and the discard pile ran out")


def test_every_seat_colour_reads_at_aa_contrast():
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    # the page's backgrounds: white (zones, log), the own area's cream, the page's beige
    for background in ("#ffffff", "#fffbe6", "#f7f4ee"):
        for colour in SEAT_COLOURS:
            light, dark = sorted((luminance(colour), luminance(background)), reverse=True)
            assert (light + 0.05) / (dark + 0.05) >= 4.5, (colour, background)


def test_with_names_leaves_other_numbers_alone():
    assert with_names("seat 1 loads 3 on Ship 4", ["A", "B"]) == "B loads 3 on Ship 4"
    assert with_names("seat 7 passes", ["A", "B"]) == "seat 7 passes"
