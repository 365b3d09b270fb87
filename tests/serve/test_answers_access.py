"""Answers set in advance belong to their seat: only its own link reads or sets them, they are
in no other seat's message nor a spectator's, bad input is refused and changes nothing, an
answer that fits the question asked now answers it at once, and a restart of the server keeps
them (the real Puerto Rico ruleset through the HTTP API and the websocket)."""

from __future__ import annotations

import json
import random
import re
import warnings

import pytest

from helpers.serve_api import move, new_table, state_of, token_of
from interpreter.serve.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PRIVILEGE = "the captain's privilege: take the victory point?"
BARREL = "keep one barrel"


@pytest.fixture
def table(client):
    return new_table(client, game="puerto-rico", players=3, seats=["human", "human", "random"])


def url(table):
    return f"/api/tables/{table['id']}/answers"


def post(client, table, **body):
    return client.post(url(table), json=body)


def mine(client, table, seat):
    return client.get(url(table), params={"token": token_of(table, seat)})


def test_a_seat_reads_and_sets_its_own_answers_only(client, table):
    listed = mine(client, table, 0).json()
    assert listed["seat"] == 0 and listed["answers"] == {}
    keys = {q["key"]: q for q in listed["questions"]}
    assert keys[PRIVILEGE]["take"] == "Take the victory point (privilege)"
    assert keys[BARREL]["text"] == "Keep one barrel"
    done = post(client, table, token=token_of(table, 0), question=PRIVILEGE, answer="take")
    assert done.status_code == 200 and done.json()["answers"] == {PRIVILEGE: "take"}
    # seat 1 sees its own (none), and nothing of seat 0's, in its answers and its messages
    assert mine(client, table, 1).json()["answers"] == {}
    for seat in (1, None):
        assert "take the victory point?" not in json.dumps(state_of(client, table, seat))
    # a spectator has no answers to read or set
    assert client.get(url(table)).status_code == 403
    assert post(client, table, question=BARREL, answer="decline").status_code == 403
    assert mine(client, table, 0).json()["answers"] == {PRIVILEGE: "take"}


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"question": "kep one barrel", "answer": "take"}, 400, "did you mean 'keep one barrel'"),
        ({"question": BARREL, "answer": "always"}, 400, "one of take, decline, ask"),
        ({"question": BARREL, "answer": "take", "seat": 0}, 400, "unknown field(s) seat"),
        ({"question": ["x"], "answer": "take"}, 400, "no optional question"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(client, table, body, status, says):
    # seat 1 tries a bad request, once naming seat 0: seat 0's answers stay as they were
    post(client, table, token=token_of(table, 0), question=BARREL, answer="decline")
    response = post(client, table, token=token_of(table, 1), **body)
    assert response.status_code == status and says in response.json()["error"]
    assert mine(client, table, 0).json()["answers"] == {BARREL: "decline"}
    assert mine(client, table, 1).json()["answers"] == {}


def test_a_wrong_token_or_a_bots_seat_is_refused(client, table):
    assert post(client, table, token="guess", question=BARREL, answer="take").status_code == 403
    # a bot's seat has a token too, though nobody is given it
    bot_token = client.app.state.hub.get(table["id"]).tokens[2]
    bot = post(client, table, token=bot_token, question=BARREL, answer="take")
    assert bot.status_code == 403 and "bot" in bot.json()["error"]


def test_a_websocket_message_cannot_set_answers(client, table):
    socket = f"/ws/tables/{table['id']}?token={token_of(table, 1)}"
    with client.websocket_connect(socket) as ws:
        ws.receive_json()
        forged = {"type": "answers", "seat": 0, "question": BARREL, "answer": "take"}
        ws.send_text(json.dumps(forged))
        assert "unknown message type" in ws.receive_json()["error"]
    assert mine(client, table, 0).json()["answers"] == {}


def test_an_answer_fitting_the_question_asked_now_answers_it(client):
    table = new_table(
        client, game="puerto-rico", players=3, seats=["human", "human", "random"], seed=20
    )
    rng = random.Random(3)
    while True:  # both people move at random until seat 0 is asked the captain's privilege
        message = state_of(client, table, None)
        assert not message["over"], "seat 0 was never asked the captain's privilege"
        seat = message["to_move"]
        if seat not in (0, 1):  # the bot, moving after a seat's answer set in advance
            continue
        message = state_of(client, table, seat)
        if seat == 0 and message["prompt"] == PRIVILEGE:
            break
        options = [o["id"] for o in message["options"]]
        if options:  # else the seat's answer set in advance (produce) is on its way
            move(client, table, seat, rng.choice(options), message["decision"])
    at = message["decision"]
    post(client, table, token=token_of(table, 0), question=PRIVILEGE, answer="take")
    after = state_of(client, table, 0)
    assert after["decision"] > at and after["prompt"] != PRIVILEGE
    log = [text for _round, text in after["log"]]
    assert any(t.startswith("Player 1 takes") and "(privilege)" in t for t in log)


def test_a_restarted_server_keeps_each_seats_answers(db):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db)) as client:
            table = new_table(
                client, game="puerto-rico", players=3, seats=["human", "human", "random"]
            )
            post(client, table, token=token_of(table, 0), question=BARREL, answer="decline")
            post(client, table, token=token_of(table, 1), question=PRIVILEGE, answer="take")
            post(client, table, token=token_of(table, 1), question=BARREL, answer="take")
            post(client, table, token=token_of(table, 1), question=BARREL, answer="ask")
        with TestClient(create_app(db)) as client:
            assert mine(client, table, 0).json()["answers"] == {BARREL: "decline"}
            # "ask me" is kept: it stays asked where the ruleset would answer it
            assert mine(client, table, 1).json()["answers"] == {PRIVILEGE: "take", BARREL: "ask"}


def test_the_answers_panel_says_what_an_answer_in_advance_tells_the_others(client, table):
    """The panel a seat's page loads says that the timing tells (docs/serve.md, "Answers set
    in advance"): answered at once, and with "Always", that there was one thing to take."""
    page = client.get(f"/t/{table['id']}", params={"token": token_of(table, 0)})
    assert '<script src="/static/answers.js" defer></script>' in page.text
    script = client.get("/static/answers.js").text
    said = re.sub(r"""["']\s*\+\s*["']""", "", script)  # the script's strings, joined
    assert (
        "The others see the question asked and your answer as if you had clicked it, but at "
        'once: whoever times the table can tell that you answered in advance (with "Always": '
        "that there was one thing to take)."
    ) in said
