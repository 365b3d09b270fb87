"""Answers set in advance at the terminal (`rulebook play --human 0`, the real Puerto Rico
ruleset, input piped): `never keep one barrel` and `always privilege vp` answer those questions
at seat 0's own decisions, as its moves: the save holds them as ordinary option ids and replays
to the same end; without answers the same questions are asked; bad names are refused."""

from __future__ import annotations

import io
import json

from interpreter.bots import make_bot
from interpreter.cli.human import HumanPlayer
from interpreter.cli.main import main
from interpreter.cli.play import presentation_of
from interpreter.engine.loader import load_game
from interpreter.infoset.worlds import SeatView
from interpreter.table.answers import asked, questions
from interpreter.table.offers import options_of

PRIVILEGE = "the captain's privilege: take the victory point?"
BARREL = "keep one barrel"
PRODUCE = "produce?"  # answered "always" from the start (presentation: answers:)
# the person takes the captain whenever it can ("cap" is refused when it cannot), else option 1
PLAY = "cap\n1\n" * 3000


def play(capsys, monkeypatch, tmp_path, first: str) -> tuple[str, list[str], dict]:
    """A whole game with ``first`` typed before the rest; the output, the save's choices and
    what seat 0 chose at each of the two questions."""
    monkeypatch.setattr("sys.stdin", io.StringIO(first + PLAY))
    path = tmp_path / "game.json"
    argv = ["play", "puerto-rico", "-p", "3", "--seed", "1", "--human", "0", "--save", str(path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    save = json.loads(path.read_text())
    state = load_game("puerto-rico", 3).new_state(1)
    chosen: dict[str, list[str]] = {PRIVILEGE: [], BARREL: [], PRODUCE: []}
    for choice in save["choices"]:
        key = asked(state)
        if state.to_move == 0 and key in chosen:
            chosen[key].append(choice)
        state.apply(choice)
    assert state.is_over and save["result"]["winner"] == state.result().winner
    return out, save["choices"], chosen


def test_standing_answers_answer_seat_0s_questions_as_its_moves(capsys, monkeypatch, tmp_path):
    typed = "never keep one barrel\nalways privilege vp\nalways colonist\nask 99\n"
    typed += "always build\nask build\nanswers\n"  # `ask` undoes the `always`
    out, _choices, chosen = play(capsys, monkeypatch, tmp_path, typed)
    assert chosen[PRIVILEGE] and set(chosen[PRIVILEGE]) == {"privilege-vp"}
    assert chosen[BARREL] and set(chosen[BARREL]) == {"pass"}
    assert "answer set in advance: Keep one barrel — never" in out
    assert "'colonist' names several questions" in out and "no question 99" in out
    assert "answer set in advance: Build — ask me" in out and "ask me  Build" in out
    assert "never   Keep one barrel" in out and "always  The captain's privilege" in out
    said = out.count("(answered in advance; 'answers' changes it)")
    assert "Player 1, Keep one barrel: Pass (answered in advance" in out
    assert said == len(chosen[PRIVILEGE]) + len(chosen[BARREL]) + len(chosen[PRODUCE])
    assert chosen[PRODUCE] and set(chosen[PRODUCE]) == {"produce"}
    # seat 0 was never shown the privilege as an option to pick
    assert not [line for line in out.splitlines() if ") Take the victory point" in line]


def test_without_answers_the_questions_are_asked(capsys, monkeypatch, tmp_path):
    out, _choices, chosen = play(capsys, monkeypatch, tmp_path, "")
    assert chosen[PRIVILEGE]  # asked: option 1 took it
    assert [line for line in out.splitlines() if ") Take the victory point" in line]
    assert "answer set in advance" not in out


def test_the_help_names_the_commands(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("?\nquit\n"))
    main(["play", "puerto-rico", "-p", "3", "--seed", "1", "--human", "0"])
    out = capsys.readouterr().out
    assert "answers        your answers set in advance" in out and "always [N]" in out


def test_always_without_a_name_answers_the_question_asked_now():
    game = load_game("puerto-rico", 3)
    state = game.new_state(8)
    bots = [make_bot("random", seat, 8) for seat in range(3)]
    while not (state.to_move == 0 and asked(state) == PRIVILEGE):
        assert not state.is_over, "seat 0 was never asked the captain's privilege"
        state.apply(
            bots[state.to_move].choose(SeatView(state, state.to_move), state.legal_options())
        )
    pres = presentation_of("puerto-rico", ())
    out = io.StringIO()
    person = HumanPlayer(0, io.StringIO("always\n"), out, pres, questions(game.rules))
    person.question = asked(state)
    person.offer(options_of(state, pres, 0))
    assert person.choose(SeatView(state, 0), state.legal_options()) == "privilege-vp"
    assert person.answers == {PRIVILEGE: "take", PRODUCE: "take"}
    assert (
        "seat 0, The captain's privilege: take the victory point?: Take the victory"
        in out.getvalue()
    )
