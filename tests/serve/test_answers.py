"""Answers set in advance at the web table, through the real Puerto Rico ruleset: a seat's
standing answers answer its own optional questions as its own moves (ordinary option ids in
the save, which replays to the same game), never another seat's; "ask me" asks; another seat
or a spectator can neither read nor set them; a reload of the server keeps them."""

from __future__ import annotations

import random
import time

from helpers.serve_api import move, new_table, state_of, token_of
from interpreter.engine.loader import load_game
from interpreter.engine.savefile import result_to_dict
from interpreter.table.answers import asked

PRIVILEGE = "the captain's privilege: take the victory point?"
BARREL = "keep one barrel"
PRODUCE = "produce?"  # every person's seat starts with "Always" (presentation: answers:)
SEATS = ["human", "human", "random"]


def answers_url(table):
    return f"/api/tables/{table['id']}/answers"


def set_answer(client, table, seat, question, answer, **extra):
    body = {"token": token_of(table, seat), "question": question, "answer": answer, **extra}
    return client.post(answers_url(table), json=body)


def play_humans(client, table, standing, seed=3):
    """Both people move at random to the end; the (seat, prompt, options) each was asked.
    A question a seat answered in advance (``standing``: seat -> prompts) is left to that
    answer, which the server applies once the position asking it has been shown."""
    rng = random.Random(seed)
    asked_of = []
    message = state_of(client, table, None)
    while not message["over"]:
        seat = message["to_move"]
        if SEATS[seat] != "human":  # the bot, moving after an answer set in advance
            time.sleep(0.01)
            message = state_of(client, table, None)
            continue
        mine = state_of(client, table, seat)
        if mine["decision"] != message["decision"] or mine["prompt"] in standing.get(seat, ()):
            time.sleep(0.01)  # the seat's answer is on its way
            message = state_of(client, table, None)
            continue
        options = [o["id"] for o in mine["options"]]
        asked_of.append((seat, mine["prompt"], options))
        response = move(client, table, seat, rng.choice(options), mine["decision"])
        assert response.status_code == 200, response.text
        message = response.json()
    return asked_of


def test_standing_answers_are_the_seats_own_moves_and_the_save_replays(client):
    table = new_table(client, game="puerto-rico", players=3, seats=SEATS, seed=28)
    assert set_answer(client, table, 0, PRIVILEGE, "take").status_code == 200
    assert set_answer(client, table, 0, BARREL, "decline").status_code == 200
    seen = play_humans(client, table, {0: {PRIVILEGE, BARREL, PRODUCE}, 1: {PRODUCE}})
    # seat 0 was never asked what it answered in advance, no seat what the ruleset answers
    # for every seat from the start (produce); seat 1 (no answers set: "ask me") was
    assert not [s for s in seen if s[0] == 0 and s[1] in (PRIVILEGE, BARREL)]
    assert not [s for s in seen if s[1] == PRODUCE]
    assert {p for s, p, _ in seen if s == 1} >= {PRIVILEGE, BARREL}
    # the save holds ordinary option ids and replays to the same end
    save = client.get(f"/api/tables/{table['id']}/save").json()
    state = load_game("puerto-rico", 3).new_state(save["seed"])
    answered = {PRIVILEGE: 0, BARREL: 0, PRODUCE: 0}
    taken = {PRIVILEGE: "privilege-vp", BARREL: "pass", PRODUCE: "produce"}
    for choice in save["choices"]:
        key = asked(state)
        if state.to_move == 0 and key in answered:
            assert choice == taken[key]
            answered[key] += 1
        state.apply(choice)
    assert all(answered.values()), answered
    assert state.is_over and result_to_dict(state.result()) == save["result"]
