"""A person at the terminal: view and numbered options, re-asking, EOF and Ctrl-C."""

from __future__ import annotations

import io
import json

import pytest

from interpreter.cli.human import HumanPlayer, PlayerLeft, pick
from interpreter.cli.main import main
from interpreter.cli.viewtext import format_view

pytestmark = pytest.mark.usefixtures("fake")


def feed(monkeypatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_human_seat_sees_view_and_options_and_bad_entry_is_reasked(capsys, monkeypatch):
    feed(monkeypatch, "banana\n7\n\n2\n" + "add:1\n" * 20)
    code = main(["play", "counting", "-p", "2", "--seed", "2", "--human", "0", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "--- seat 0 to decide ---" in out
    assert "secret:" in out  # the seat's own view
    assert "  1) add:1\n  2) add:2" in out
    assert "'banana' is not an option" in out
    assert "no option 7: enter a number from 1 to 2" in out
    assert "Round 1\n  seat 0: adds 2," in out  # "2" picked the second option
    data = json.loads(out.splitlines()[-1])
    assert data["seats"] == ["human", "random"]
    assert "Traceback" not in out + err


def test_human_view_hides_other_seats_secrets(capsys, monkeypatch):
    feed(monkeypatch, "1\n" * 20)
    main(["play", "counting", "-p", "2", "--seed", "2", "--human", "1", "-q"])
    out, _ = capsys.readouterr()
    assert "you: {seat: 1, secret:" in out
    assert "seat: 0" not in out


def test_eof_at_prompt_saves_partial_game(capsys, monkeypatch, tmp_path):
    feed(monkeypatch, "1\n")  # one answer, then end of input
    save = tmp_path / "partial.json"
    code = main(
        ["play", "counting", "-p", "2", "--seed", "2", "--human", "0,1", "--save", str(save)]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert "left the game" in err and "partial game saved" in err
    assert "Game not finished: stopped after 1 decisions" in out
    data = json.loads(save.read_text())
    assert data["result"] is None and data["choices"] == ["add:1"]
    assert data["seats"] == ["human", "human"]
    code = main(["replay", str(save)])
    replayed, _ = capsys.readouterr()
    assert code == 0 and "Game not finished" in replayed


def test_ctrl_c_at_prompt_exits_130_and_saves(capsys, monkeypatch, tmp_path):
    class Interrupting(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", Interrupting())
    save = tmp_path / "partial.json"
    code = main(["play", "counting", "-p", "2", "--seed", "2", "--human", "0", "--save", str(save)])
    _, err = capsys.readouterr()
    assert code == 130 and "interrupted" in err and "Traceback" not in err
    assert json.loads(save.read_text())["choices"] == []


def test_quit_and_help_words():
    out = io.StringIO()
    player = HumanPlayer(0, io.StringIO("?\nquit\n"), out)
    with pytest.raises(PlayerLeft):
        player.choose({"a": 1}, ["x", "y"])
    assert out.getvalue().count("1) x") == 2


def test_pick_accepts_numbers_ids_and_unique_prefixes():
    legal = ["pass", "take:alpha", "take:beta"]
    assert pick("1", legal) == ("pass", "")
    assert pick("take:beta", legal) == ("take:beta", "")
    assert pick("take:b", legal) == ("take:beta", "")
    assert pick("take", legal)[0] is None and "several" in pick("take", legal)[1]
    assert "did you mean 'pass'" in pick("pas!", legal)[1]
    assert pick("0", legal)[0] is None


def test_format_view_is_compact_and_generic():
    view = {"round": 3, "me": {"cards": list("abc"), "n": 2}, "deep": {"x": {"y": list(range(40))}}}
    text = format_view(view, width=40)
    assert "round: 3" in text
    assert "me: {cards: [a, b, c], n: 2}" in text
    assert "deep:\n  x:\n    y:\n      0, 1, 2, 3," in text


def test_resume_continues_a_partial_save_to_the_same_end(capsys, monkeypatch, tmp_path):
    feed(monkeypatch, "2\n")  # seat 0 answers once, then input ends
    part = tmp_path / "part.json"
    main(["play", "counting", "-p", "2", "--seed", "4", "--human", "0", "--save", str(part)])
    capsys.readouterr()
    partial = json.loads(part.read_text())
    assert partial["choices"][0] == "add:2" and len(partial["choices"]) == 2  # seat 1 is a bot

    done = tmp_path / "done.json"
    code = main(["play", "--resume", str(part), "--bots", "first", "--save", str(done), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Round 1\n  seat 0: adds 2," in out  # the replayed part is printed first
    data = json.loads(done.read_text())
    assert data["choices"][0] == "add:2" and data["result"] is not None
    assert data["seats"] == ["first", "first"]
    code = main(["replay", str(done), "--json"])
    assert code == 0 and capsys.readouterr().out == out


def test_resume_refuses_setup_flags_and_finished_games(capsys, tmp_path):
    done = tmp_path / "done.json"
    main(["play", "counting", "-p", "2", "--seed", "4", "--save", str(done)])
    capsys.readouterr()
    assert main(["play", "--resume", str(done)]) == 1
    assert "already finished" in capsys.readouterr().err
    assert main(["play", "--resume", str(done), "--seed", "3"]) == 2
    assert "drop --seed" in capsys.readouterr().err


def test_format_view_packs_long_flat_mappings():
    view = {"supply": {f"item-{i}": i for i in range(30)}, "row": [f"tile-{i}" for i in range(30)]}
    lines = format_view(view, width=60).splitlines()
    assert lines[0] == "supply:"
    assert lines[1].startswith("  item-0: 0, item-1: 1, ")
    assert all(len(line) <= 61 for line in lines)
    assert "row:" in lines and len(lines) < 25
