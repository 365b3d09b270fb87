"""`rulebook list` and the bot registry."""

from __future__ import annotations

import json

import pytest

from interpreter.bots import BOTS, UnknownBotError, make_bot
from interpreter.cli.main import main


@pytest.mark.usefixtures("fake")
def test_list_json_parses_and_has_games_options_and_bots(capsys):
    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (game,) = data["games"]
    assert game["name"] == "counting" and game["min_players"] == 2 and game["max_players"] == 4
    assert game["overlays"][0]["name"] == "big"
    target = next(o for o in game["options"] if o["name"] == "target")
    assert target == {"name": "target", "default": 12, "choices": None, "doc": target["doc"]}
    assert {b["name"] for b in data["bots"]} == set(BOTS)


@pytest.mark.usefixtures("fake")
def test_list_text(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "counting  Counting Game (2-4 players)" in out
    assert "mode=plain  [plain, odd]" in out
    assert "random" in out


def test_random_bot_is_deterministic_per_seed_and_seat():
    legal = [f"o{i}" for i in range(50)]

    def picks(seat, seed):
        bot = make_bot("random", seat, seed)
        return [bot.choose({}, legal) for _ in range(20)]

    assert picks(0, 1) == picks(0, 1)
    assert picks(0, 1) != picks(1, 1)
    assert picks(0, 1) != picks(0, 2)


def test_unknown_bot_suggests():
    with pytest.raises(UnknownBotError, match="did you mean 'random'"):
        make_bot("rnadom", 0, 0)


def test_list_shows_the_options_an_overlay_adds(capsys):
    assert main(["list", "--json"]) == 0
    games = {g["name"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    overlays = {o["name"]: o for o in games["san-juan"]["overlays"]}
    added = {o["name"]: o for o in overlays["new-buildings"]["options"]}
    assert added["tavern-cost"]["default"] == 1 and added["tavern-cost"]["choices"] == [1, 2]
    assert "tavern-cost" not in {o["name"] for o in games["san-juan"]["options"]}
    assert main(["list"]) == 0
    assert "tavern-cost=1  [1, 2]" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("head", "where"),
    [
        ("players: lots", ":3:10: `players:` must be a map of whole numbers"),
        ("players: {min: two, max: 4}", ":3:16: `players:` must be a map of whole numbers"),
        ("players: {min: [2], max: 4}", ":3:16: `players:` must be a map of whole numbers"),
        ("title: [unclosed", ":4:1: error[Y001]"),
    ],
)
def test_a_game_whose_head_cannot_be_read_is_listed_with_why_beside_the_others(
    head, where, tmp_path, monkeypatch, capsys
):
    # one broken folder on the search path must not hide every game (or end in an internal
    # error): it is listed, located, and the others are listed as ever
    (tmp_path / "bad").mkdir()
    base = tmp_path / "bad" / "ruleset.yaml"
    base.write_text(f"ruleset: bad\ntitle: Bad\n{head}\n", encoding="utf-8")
    monkeypatch.setenv("RULEBOOK_RULESETS", str(tmp_path))
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert f"  bad  (cannot be listed: {base}{where}" in out
    assert "puerto-rico  Puerto Rico (2-5 players)" in out
    assert main(["list", "--json"]) == 0
    games = {g["name"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    assert games["bad"]["fault"].startswith(f"{base}{where}")
    assert games["puerto-rico"]["fault"] is None and games["puerto-rico"]["min_players"] == 2
