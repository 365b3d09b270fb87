"""Full games through the HTTP API: every shipped game (with its expansions) played to the end
by people's seats, and the final table equals what `rulebook play` prints for the same game."""

from __future__ import annotations

import random

import pytest

from helpers.serve_api import ask_everything, move, new_table, play_out, state_of
from interpreter import load_game
from interpreter.engine.savefile import result_to_dict, validate_save
from interpreter.table.endings import score_rows


@pytest.mark.parametrize(
    "game, players, overlays",
    [
        ("puerto-rico", 3, []),
        ("puerto-rico", 4, ["new-buildings", "nobles"]),
        ("san-juan", 2, []),
        ("san-juan", 4, ["new-buildings", "setup-variation"]),
    ],
)
def test_a_full_game_of_people_through_the_api(client, game, players, overlays):
    table = new_table(
        client, game=game, players=players, seats=["human"] * players, overlays=overlays, seed=3
    )
    rng = random.Random(5)
    last = play_out(client, table, pick=rng.choice)
    assert last["over"] and last["result"] is not None
    save = validate_save(client.get(f"/api/tables/{table['id']}/save").json())
    assert save.result is not None and len(save.choices) == last["decision"]
    # the same game replayed by the engine ends the same, and the page's table is play's table
    state = load_game(game, players, overlays).new_state(3)
    for choice in save.choices:
        state.apply(choice)
    assert result_to_dict(state.result()) == save.result
    # the page's table is play's table, in words: the seat's name for its number and kind,
    # the ruleset's labels for the component ids, the same numbers
    page, played = last["result"]["rows"], score_rows(save.result, save.seats)
    assert [row[0] for row in page] == [row[0] for row in played]
    assert [row[2:] for row in page[1:]] == [row[3:] for row in played[1:]]
    assert [row[1] for row in page[1:]] == [f"Player {n + 1}" for n in range(players)]
    assert page[0][1] == "Player" and page[0][-2] == "Total"


def test_bots_at_a_people_table_move_at_once(client):
    table = new_table(client, game="puerto-rico", players=3, seats=["random", "human", "random"])
    message = state_of(client, table, 1)
    assert message["to_move"] == 1 and message["options"]
    assert message["decision"] >= 1  # seat 0's bot chose its role already


def test_options_read_as_text_with_their_costs(client):
    table = new_table(client, game="puerto-rico", players=3, seats=["human"] * 3, seed=7)
    ask_everything(client, table)  # every move is the test's own
    message = state_of(client, table, 0)
    texts = {o["id"]: o for o in message["options"]}
    assert message["prompt"] == "choose a role"
    role = next(o for o in texts.values() if o["id"].startswith("role:"))
    assert role["text"].startswith("Take the ") and role["group"] == "Roles"
    # play to the first build decision and read its texts
    rng = random.Random(1)
    for _ in range(400):
        message = state_of(client, table, message["to_move"])
        builds = [o for o in message["options"] if o["family"] == "build"]
        if builds:
            break
        choice = rng.choice([o["id"] for o in message["options"]])
        message = move(client, table, message["to_move"], choice, message["decision"]).json()
    assert builds
    one = builds[0]
    # the builder (the chooser) has the privilege: the cost and the reason are named
    assert "—" in one["text"] and "doubloon" in one["text"], one
    assert "you pay" in one["text"] and "the builder's privilege" in one["text"], one
    assert one["group"] == "Build" and one["text"].endswith(" VP")
