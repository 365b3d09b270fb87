"""--config files: strict checking with positions, and flags overriding the file."""

from __future__ import annotations

import json

import pytest

from interpreter.cli.config import parse_option_value, resolve_config
from interpreter.cli.main import main

pytestmark = pytest.mark.usefixtures("fake")


def write(tmp_path, text: str):
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return str(path)


def run_json(capsys, *argv):
    code = main([*argv, "--json", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_config_file_sets_everything(tmp_path, capsys):
    cfg = write(
        tmp_path,
        "game: counting\nplayers: 3\nwith: [big]\noptions: {target: 20}\nseed: 9\n"
        "seats: [first, random, first]\n",
    )
    data = run_json(capsys, "play", "--config", cfg)
    assert data["players"] == 3 and data["overlays"] == ["big"] and data["seed"] == 9
    assert data["options"]["target"] == 20 and data["seats"] == ["first", "random", "first"]


def test_flags_override_the_file(tmp_path, capsys):
    cfg = write(tmp_path, "game: counting\nplayers: 3\noptions: {target: 20}\nseed: 9\n")
    data = run_json(
        capsys, "play", "--config", cfg, "-p", "2", "--seed", "1", "--option", "target=15"
    )
    assert data["players"] == 2 and data["seed"] == 1 and data["options"]["target"] == 15


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("game: counting\nplayer: 3\n", "game.yaml:2:1: unknown key 'player'"),
        ("game: counting\nplayers: three\n", "game.yaml:2:10: 'players' must be a whole number"),
        ("game: counting\nplayers: 2\nseed: -4\n", "game.yaml:3:7: 'seed'"),
        ("game: counting\nplayers: 2\nwith: {a: 1}\n", "game.yaml:3:7: 'with' must be a list"),
        ("game: counting\nplayers: 2\nseats: [random, robot]\n", "game.yaml:3:17: unknown bot"),
        ("game: counting\nplayers: 2\noptions: [a]\n", "game.yaml:3:10: 'options' must be"),
        ("game: counting\nplayers: 2\noptions:\n  x: {y: 1}\n", "game.yaml:4:6: option 'x'"),
        ("- game\n", "must be a mapping"),
        ("game: counting\nplayers: 3\nseats: [random]\n", "lists 1 seat(s)"),
        ("game: [counting\n", "game.yaml:"),
        ("game: counting\ngame: other\n", "game.yaml:2"),
    ],
)
def test_bad_config_files_name_the_position(tmp_path, capsys, text, needle):
    cfg = write(tmp_path, text)
    code = main(["play", "--config", cfg])
    _, err = capsys.readouterr()
    assert code == 1, err
    assert needle in err
    assert "Traceback" not in err


def test_unreadable_config_is_a_path_error(tmp_path, capsys):
    code = main(["play", "--config", str(tmp_path / "missing.yaml")])
    _, err = capsys.readouterr()
    assert code == 2 and "missing.yaml" in err


def test_empty_config_needs_flags(tmp_path, capsys):
    cfg = write(tmp_path, "")
    data = run_json(capsys, "play", "counting", "-p", "2", "--config", cfg, "--seed", "1")
    assert data["players"] == 2


def test_option_values_read_like_yaml_scalars():
    assert parse_option_value("12") == 12
    assert parse_option_value("on") is True
    assert parse_option_value("odd") == "odd"


def test_bots_then_humans():
    cfg = resolve_config(None, game="g", players=4, seed=1, bots=["first"], humans=[0, 3])
    assert cfg.seats == ("human", "first", "first", "human")
    assert cfg.humans == [0, 3]


def test_relative_game_path_in_config_is_relative_to_the_file(tmp_path, monkeypatch, capsys):
    import interpreter.cli

    seen = {}

    def record(name, players, overlays=(), options=None):
        seen["game"] = name
        raise interpreter.cli.ConfigError("stop here")

    monkeypatch.setattr(interpreter.cli, "load_game", record)
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.yaml").write_text("")
    cfg = write(tmp_path, "game: rules/x.yaml\nplayers: 2\n")
    assert main(["play", "--config", cfg]) == 1
    assert seen["game"] == str(tmp_path / "rules" / "x.yaml")
    capsys.readouterr()
