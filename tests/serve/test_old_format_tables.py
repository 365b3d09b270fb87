"""A table stored in an older save format (a database written by an earlier version) goes on in
format 4: opening it converts its moves (engine/save_upgrade.py) and writes them back, in the
server's own process and in a table's worker alike."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter import load_game
from interpreter.engine.save_upgrade import upgrade_choices
from interpreter.engine.savefile import FORMAT, FORMAT_TAKEN, SaveGame
from interpreter.serve.caps import Caps
from interpreter.serve.player import Player

OLD = Path(__file__).resolve().parents[1] / "engine" / "old_saves" / "san-juan-format-2.json"
PLAYED = 60  # the moves of a game still going on


def _old_game() -> dict:
    data = json.loads(OLD.read_text(encoding="utf-8"))
    data["choices"] = data["choices"][:PLAYED]
    return data


def _converted(data: dict) -> list[str]:
    game = load_game(data["game"], data["players"])
    return upgrade_choices(game, data["format"], data["seed"], data["choices"])


def test_a_stored_table_of_format_2_is_converted_when_opened(hub):
    data = _old_game()
    save = SaveGame(
        game=data["game"],
        players=data["players"],
        overlays=[],
        options=data["options"],
        seed=data["seed"],
        seats=["human", "human"],
        format=FORMAT_TAKEN,
    )
    hub.store.create("old", save, ["a" * 32, "b" * 32], 1.0)
    for n, choice in enumerate(data["choices"]):
        hub.store.append_move("old", n, choice)
    converted = _converted(data)
    assert len(converted) > PLAYED  # the lone passes format 2 took are asked now
    table = hub.get("old")
    assert table.save.format == FORMAT and table.save.choices == converted
    assert table.state.history == converted
    stored = hub.store.load("old").save
    assert (stored.format, stored.choices) == (FORMAT, converted)


def test_a_worker_converts_the_moves_of_a_format_2_table():
    data = _old_game()
    header = {
        "game": data["game"],
        "players": data["players"],
        "overlays": [],
        "options": data["options"],
        "seed": data["seed"],
        "seats": ["human", "human"],
        "format": FORMAT_TAKEN,
    }
    player = Player(Caps(), budget=False)
    request = {"op": "open", "table": "t", "header": header, "choices": data["choices"]}
    answer = player.handle(request)
    assert answer["choices"] == _converted(data)
    broken = {**request, "choices": ["no-such-option", *data["choices"][1:]]}
    refused = player.handle({**broken, "table": "u"})
    assert refused["failed"] == "rule"
    assert refused["message"].startswith("table u: choice 1 of the rulebook-save/2 save")
