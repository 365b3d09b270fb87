"""Names at the terminal: `rulebook play --human 0 --name Ana` shows every seat by its name (the
person's own, the bots by their kind) on the person's screens and in the final table, whose
headers are the ruleset's words; the default opponent is the game's own bot; an answer that
names no option is answered in the options' words; a bad name is refused before the game."""

from __future__ import annotations

import io
import re

from interpreter.cli.main import main


def _play(capsys, monkeypatch, answers: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_whole_game_reads_by_names_and_the_rulesets_words(capsys, monkeypatch):
    argv = ("san-juan", "--players", "2", "--human", "0", "--seed", "4", "--name", "Ana")
    code, out, _err = _play(capsys, monkeypatch, "1\n" * 3000, *argv)
    assert code == 0
    assert "seats: 0=human, 1=sj-heuristic" in out  # the game's own bot, not random
    assert "--- Ana to decide ---" in out and "\nAna> 1\n" in out
    assert re.search(r"(?m)^  Heuristic bot (takes|builds|produces|sells|: )", out)
    assert re.search(r"(?m)^Ana \(you\) \*", out)  # the compact board titles seats by name
    table = out[out.index("Game over after") :]
    assert re.search(
        r"^Game over after \d+ rounds, \d+ decisions: (a city is full|the deck)", table
    )
    head = table.splitlines()[1].split()
    assert head[:2] == ["Player", "Buildings"] and "Total" in head
    assert "Cards under buildings" in table and "Cards in hand and goods" in table
    assert re.search(r"(?m)^Winners?( \(tied\))?: (Ana|Heuristic bot)", table)
    # what a person reads says no seat number and no score id
    assert not re.search(r"(?m)^(?!seats:).*\bseat \d", out.split("\n", 5)[-1])
    assert "cards-under" not in table and "city-full" not in out


def test_an_answer_that_names_no_option_is_answered_in_words(capsys, monkeypatch):
    argv = ("san-juan", "--players", "2", "--human", "0", "--seed", "1")
    code, out, err = _play(capsys, monkeypatch, "producr\n", *argv)
    assert code == 0 and "seat 0 left the game" in err
    assert "did you mean 'Take the Producer'?" in out and "role:producer'" not in out
    assert "Game not finished: stopped after 0 decisions in round 1, Player 1 to decide" in out


def test_a_bad_name_is_refused_before_the_game(capsys, monkeypatch):
    code, out, err = _play(
        capsys, monkeypatch, "", "san-juan", "-p", "2", "--human", "0", "--name", "x" * 30
    )
    assert code == 2 and "a name has at most 24 characters" in err and out == ""
    code, _out, err = _play(capsys, monkeypatch, "", "san-juan", "-p", "2", "--name", "Ana")
    assert code == 2 and "--name names a person at this terminal" in err
