"""`rulebook play` against the fake counting game: log, score table, JSON, seeds, errors."""

from __future__ import annotations

import json

import pytest

from interpreter.cli.main import main

pytestmark = pytest.mark.usefixtures("fake")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_prints_rounds_log_and_score_table(capsys):
    code, out, err = run(capsys, "play", "counting", "--players", "3", "--seed", "7")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Counting Game [counting], 3 players, seed 7"
    assert "Round 1" in lines and "Round 2" in lines
    first = lines.index("Round 1")
    assert lines[first + 1].startswith("  seat 0: adds ")
    header = next(line for line in lines if "tiebreak" in line)
    assert header.split() == ["seat", "player", "added", "secret", "total", "tiebreak"]
    assert sum(1 for line in lines if line.startswith("*")) == 1
    assert lines[-1].startswith("Winner: seat ")
    assert "Traceback" not in out + err


def test_json_last_line_has_every_key(capsys):
    code, out, _ = run(capsys, "play", "counting", "-p", "2", "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out.splitlines()[-1])
    for key in ("game", "players", "overlays", "options", "seed", "rounds", "decisions"):
        assert key in data
    for key in ("scores", "winner", "trigger"):
        assert key in data
    assert data["game"] == "counting" and data["players"] == 2 and data["seed"] == 3
    assert data["options"] == {"target": 12, "mode": "plain"}
    assert {s["seat"] for s in data["scores"]} == {0, 1}
    assert "Round 1" in out  # the log stays above the JSON line


def test_quiet_json_prints_only_the_json_line(capsys):
    code, out, _ = run(capsys, "play", "counting", "-p", "2", "--seed", "3", "--json", "-q")
    assert code == 0
    assert len(out.splitlines()) == 1
    json.loads(out)


def test_quiet_keeps_header_and_scores_but_not_the_log(capsys):
    code, out, _ = run(capsys, "play", "counting", "-p", "2", "--seed", "3", "-q")
    assert code == 0
    assert "seed 3" in out and "Winner:" in out and "Round 1" not in out


def test_same_seed_same_output(capsys):
    first = run(capsys, "play", "counting", "-p", "4", "--seed", "11", "--json")
    second = run(capsys, "play", "counting", "-p", "4", "--seed", "11", "--json")
    assert first == second


def test_different_seeds_differ(capsys):
    outs = {run(capsys, "play", "counting", "-p", "3", "--seed", str(s))[1] for s in range(6)}
    assert len(outs) > 1


def test_missing_seed_is_drawn_and_printed(capsys):
    code, out, _ = run(capsys, "play", "counting", "-p", "2", "--json", "-q")
    assert code == 0
    seed = json.loads(out)["seed"]
    assert isinstance(seed, int)
    again = run(capsys, "play", "counting", "-p", "2", "--json", "-q", "--seed", str(seed))[1]
    assert again == out


def test_overlay_and_option_reach_the_game(capsys):
    code, out, _ = run(
        capsys, "play", "counting", "-p", "2", "--seed", "1", "--with", "big",
        "--option", "target=30", "--json", "-q",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["overlays"] == ["big"] and data["options"]["target"] == 30


def test_bots_per_seat_and_first_bot(capsys):
    code, out, _ = run(
        capsys, "play", "counting", "-p", "2", "--seed", "1", "--bots", "first,random", "--json"
    )
    assert code == 0
    data = json.loads(out.splitlines()[-1])
    assert data["seats"] == ["first", "random"]
    assert "seat 0: adds 1," in out  # the first bot always takes the first option


@pytest.mark.parametrize(
    ("argv", "code", "needle"),
    [
        (["play", "counting", "-p", "9"], 1, "2 to 4 players"),
        (["play", "counting", "-p", "0"], 2, "--players"),
        (["play", "counting", "-p", "two"], 2, "--players"),
        (["play", "counting", "-p", "2", "--option", "target"], 2, "NAME=VALUE"),
        (["play", "counting", "-p", "2", "--option", "=3"], 2, "NAME=VALUE"),
        (["play", "counting", "-p", "2", "--option", "speed=3"], 1, "unknown option 'speed'"),
        (["play", "counting", "-p", "2", "--with", "nope"], 1, "unknown overlay"),
        (["play", "nosuchgame", "-p", "2"], 1, "unknown game"),
        (["play", "counting", "-p", "2", "--bots", "randon"], 1, "did you mean 'random'"),
        (["play", "counting", "-p", "3", "--bots", "random,first"], 2, "--bots"),
        (["play", "counting", "-p", "2", "--human", "5"], 2, "seats are numbered 0 to 1"),
        (["play", "counting", "-p", "2", "--human", "x"], 2, "--human"),
        (["play", "counting"], 2, "player count"),
        (["play", "-p", "2"], 2, "no game given"),
        (["play", "counting", "-p", "2", "--seed", "-1"], 2, "--seed"),
        (["play", "counting", "-p", "2", "--save", "/no/such/dir/x.json"], 2, "does not exist"),
        (["frobnicate"], 2, "invalid choice"),
        ([], 2, "COMMAND"),
    ],
)
def test_errors_exit_with_a_message_and_no_traceback(capsys, argv, code, needle):
    got, out, err = run(capsys, *argv)
    assert got == code
    assert needle in err
    assert "Traceback" not in out + err


def test_help_exits_zero(capsys):
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "--players" in out and "--human" in out


def test_engine_bug_is_one_line_internal_error(capsys, monkeypatch):
    import interpreter.cli

    def broken(*args, **kwargs):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(interpreter.cli, "load_game", broken)
    monkeypatch.delenv("RULEBOOK_DEBUG", raising=False)
    code, out, err = run(capsys, "play", "counting", "-p", "2")
    assert code == 3
    assert "internal error" in err and "RULEBOOK_DEBUG=1" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_debug_env_shows_traceback(capsys, monkeypatch):
    import interpreter.cli

    def broken(*args, **kwargs):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(interpreter.cli, "load_game", broken)
    monkeypatch.setenv("RULEBOOK_DEBUG", "1")
    code, _, err = run(capsys, "play", "counting", "-p", "2")
    assert code == 3 and "Traceback" in err


def test_ctrl_c_during_bot_play_exits_130_and_saves(capsys, monkeypatch, tmp_path):
    from . import fake_game

    calls = {"n": 0}
    original = fake_game.FakeState.apply

    def interrupted(self, option):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        original(self, option)

    monkeypatch.setattr(fake_game.FakeState, "apply", interrupted)
    save = tmp_path / "part.json"
    code, _, err = run(capsys, "play", "counting", "-p", "2", "--seed", "1", "--save", str(save))
    assert code == 130 and "interrupted" in err
    data = json.loads(save.read_text())
    assert data["result"] is None and len(data["choices"]) == 2
