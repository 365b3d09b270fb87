"""A ruleset answers some optional questions for a person's seat from the start
(``presentation: answers:``, table/answers.py): Puerto Rico's "produce?" is taken unasked, at
the web table and at the terminal, until the seat sets "ask me" (kept, not forgotten); the
answers panel's message says what each question starts with."""

from __future__ import annotations

import random

from helpers.serve_api import new_table, token_of
from interpreter.cli.answer_commands import answer_command
from interpreter.cli.human import HumanPlayer
from interpreter.engine.loader import load_game
from interpreter.table.answers import asked, questions, standing_answer, starting_answers

PRODUCE = "produce?"


def at_produce() -> object:
    """A 3-player Puerto Rico state asking a seat "produce?"."""
    state = load_game("puerto-rico", 3).new_state(2)
    rng = random.Random(2)
    while asked(state) != PRODUCE:
        state.apply(rng.choice(state.legal_options()))
    return state


def test_produce_is_answered_from_the_start_until_the_seat_asks_to_be_asked() -> None:
    state = at_produce()
    assert standing_answer(state, {}) == "produce"
    assert standing_answer(state, {PRODUCE: "ask"}) is None
    assert standing_answer(state, {PRODUCE: "decline"}) == "pass"
    rules = state.game.rules  # type: ignore[attr-defined]
    assert starting_answers(questions(rules)) == {PRODUCE: "take"}


def test_the_terminal_starts_with_it_and_keeps_ask_me() -> None:
    state = at_produce()
    known = questions(state.game.rules)  # type: ignore[attr-defined]
    person = HumanPlayer(0, questions=known)
    assert person.answers == {PRODUCE: "take"}
    choice, said = answer_command("ask", "produce", known, person.answers, PRODUCE, ["produce"])
    assert person.answers[PRODUCE] == "ask" and choice is None, said


def test_the_panel_says_what_a_question_starts_with(client) -> None:
    table = new_table(client, game="puerto-rico", players=3, seats=["human", "random", "random"])
    url = f"/api/tables/{table['id']}/answers"
    listed = client.get(url, params={"token": token_of(table, 0)}).json()
    starts = {q["key"]: q["start"] for q in listed["questions"]}
    assert starts[PRODUCE] == "take" and set(starts.values()) == {"take", "ask"}
    body = {"token": token_of(table, 0), "question": PRODUCE, "answer": "ask"}
    assert client.post(url, json=body).json()["answers"] == {PRODUCE: "ask"}
