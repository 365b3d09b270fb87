"""Save files and `rulebook replay`: identical output, strict validation, clear errors."""

from __future__ import annotations

import json

import pytest

from interpreter.cli.main import main
from interpreter.engine.savefile import FORMAT, SaveGame, read_save, write_save

pytestmark = pytest.mark.usefixtures("fake")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def saved(tmp_path, capsys):
    """A finished 3-player game saved to disk, with the text play printed."""
    path = tmp_path / "game.json"
    code, out, err = run(
        capsys, "play", "counting", "-p", "3", "--seed", "5", "--json", "--save", str(path)
    )
    assert code == 0, err
    assert f"saved to {path}" in err
    return path, out


def test_save_file_has_the_documented_shape(saved):
    path, out = saved
    data = json.loads(path.read_text())
    assert list(data) == [
        "format", "game", "players", "overlays", "options", "seed", "seats", "choices", "result",
    ]  # fmt: skip
    assert data["format"] == FORMAT and data["game"] == "counting" and data["seed"] == 5
    assert data["seats"] == ["random"] * 3
    assert all(isinstance(c, str) for c in data["choices"])
    summary = json.loads(out.splitlines()[-1])
    assert data["result"]["scores"] == summary["scores"]
    assert data["result"]["winner"] == summary["winner"]


def test_replay_prints_exactly_what_play_printed(saved, capsys):
    path, played = saved
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    assert out == played


def test_replay_quiet_json_matches_play_summary(saved, capsys):
    path, played = saved
    code, out, _ = run(capsys, "replay", str(path), "--json", "--quiet")
    assert code == 0
    assert out.strip() == played.splitlines()[-1]


def test_write_is_atomic_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "s.json"
    save = SaveGame("counting", 2, [], {}, 1, ["random", "random"], ["add:1"], None)
    write_save(target, save)
    write_save(target, save)
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]
    assert read_save(target) == save


def _corrupt(path, mutate):
    data = json.loads(path.read_text())
    mutate(data)
    path.write_text(json.dumps(data))


CORRUPTIONS = {
    "missing choices": (lambda d: d.pop("choices"), "missing key 'choices'"),
    "seed as text": (lambda d: d.update(seed="five"), "'seed' must be an integer"),
    "seed as bool": (lambda d: d.update(seed=True), "'seed' must be an integer"),
    "choice not text": (lambda d: d["choices"].__setitem__(1, 7), "choices[1] must be a string"),
    "unknown key": (lambda d: d.update(extra=1), "unknown key(s) 'extra'"),
    "wrong format": (lambda d: d.update(format="other/9"), "unsupported save format"),
    "seat count": (lambda d: d["seats"].pop(), "'seats' lists 2 seat(s)"),
    "illegal choice": (
        lambda d: d["choices"].__setitem__(2, "add:9"),
        "step 3 (round 1, seat 2): option 'add:9' is not legal here; legal options: add:1, add:2",
    ),
    "extra choices": (lambda d: d["choices"].extend(["add:1"] * 3), "already over"),
    "too few choices": (lambda d: d["choices"].pop(), "the game is not over"),
    "result changed": (
        lambda d: d["result"].update(winner=(d["result"]["winner"] + 1) % 3),
        "ended differently from the recorded result",
    ),
    "bad result": (lambda d: d.update(result={"winner": 0}), "'result' is missing key 'scores'"),
    "unknown game": (lambda d: d.update(game="nosuch"), "unknown game"),
}


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_corrupt_saves_fail_with_a_clear_message(saved, capsys, kind):
    path, _ = saved
    mutate, needle = CORRUPTIONS[kind]
    _corrupt(path, mutate)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1
    assert needle in err
    assert err.startswith("rulebook: error: ")
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "invalid JSON at line 1 column 2"),
        ("[1, 2]", "expected a JSON object, found a list"),
        ('{"game": "counting"}', "missing key 'format'"),
        ("", "invalid JSON"),
    ],
)
def test_unparseable_saves(tmp_path, capsys, text, needle):
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1 and needle in err and str(path) in err


def test_missing_save_file_is_a_path_error(tmp_path, capsys):
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 2 and "No such file" in err


def test_partial_save_replays_to_where_it_stopped(tmp_path, capsys):
    path = tmp_path / "p.json"
    save = SaveGame("counting", 2, [], {"target": 12}, 4, ["random", "human"], ["add:1"], None)
    write_save(path, save)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    assert "Game not finished: stopped after 1 decisions in round 1, seat 1 to decide" in out
    data = json.loads(out.splitlines()[-1])
    assert data["finished"] is False and data["winner"] is None and data["decisions"] == 1
