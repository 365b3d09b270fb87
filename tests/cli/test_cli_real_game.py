"""End to end against the real engine and a real ruleset (kept well under 5 seconds)."""

from __future__ import annotations

import io
import json

from interpreter.cli.main import main

GAME = "puerto-rico"


def test_real_game_plays_saves_and_replays_identically(capsys, tmp_path):
    save = tmp_path / "game.json"
    code = main(["play", GAME, "--players", "4", "--seed", "7", "--json", "--save", str(save)])
    played, err = capsys.readouterr()
    assert code == 0, err
    summary = json.loads(played.splitlines()[-1])
    assert summary["game"] == GAME and summary["players"] == 4 and summary["finished"]
    assert sorted(s["seat"] for s in summary["scores"]) == [0, 1, 2, 3]
    assert summary["winner"] in range(4)
    assert "Round 1" in played and "Winner: seat" in played

    assert main(["replay", str(save), "--json"]) == 0
    replayed, _ = capsys.readouterr()
    assert replayed == played


def test_real_game_with_a_scripted_human_seat(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5000))
    code = main(["play", GAME, "-p", "3", "--seed", "3", "--human", "1", "--json", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "--- Player 2 to decide ---" in out
    # the game's own bot is the default opponent
    assert json.loads(out.splitlines()[-1])["seats"] == ["pr-heuristic", "human", "pr-heuristic"]


def test_real_list_json(capsys):
    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert GAME in {g["name"] for g in data["games"]}
