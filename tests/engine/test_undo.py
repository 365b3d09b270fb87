"""Undo (engine/undo.py): a seat takes back its own moves within its turn, until a draw from
the generator, a card coming into somebody's sight, or another seat's decision; the position
taken back to is the game replayed from its seed, equal to the one it was."""

from __future__ import annotations

import random
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest

from interpreter.engine.loader import load_game
from interpreter.engine.state import State
from interpreter.engine.undo import taken_back, undoable, watch_undo

DICE = Path(__file__).parent / "fixtures" / "undo-dice.yaml"


def position(state: State) -> tuple[Any, ...]:
    """Everything a seat or the future of the game depends on (copied: play goes on)."""
    return deepcopy(
        (
            state.g,
            state.p,
            state.v,
            state.to_move,
            state.legal_options(),
            state.history,
            state.log,
            state.rng.getstate(),
        )
    )


def played(game: Any, seed: int, choices: list[str]) -> State:
    state = watch_undo(game.new_state(seed))
    for choice in choices:
        state.apply(choice)
    return state


def test_own_moves_are_taken_back_to_the_position_before_them() -> None:
    game = load_game(str(DICE), players=2)
    state = played(game, 3, ["step"])
    assert (state.to_move, undoable(state, 0)) == (0, 1)
    before = position(played(game, 3, []))
    again = taken_back(state, 0, 1)
    assert position(again) == before
    assert undoable(again, 0) == 0
    # the seat plays on from there, and a second own move can be taken back too
    again.apply("note")
    assert undoable(again, 0) == 1
    again.apply("step")
    assert undoable(again, 0) == 2
    again.apply("step")
    assert again.to_move == 1  # seat 0's turn is over: nothing to take back for anybody
    assert (undoable(again, 0), undoable(again, 1)) == (0, 0)


def test_a_run_of_own_moves_is_taken_back_one_or_all() -> None:
    game = load_game(str(DICE), players=2)
    state = played(game, 3, ["step", "note", "step", "step", "step"])  # seat 1 moved twice
    assert (state.to_move, undoable(state, 1), undoable(state, 0)) == (1, 2, 0)
    assert position(taken_back(state, 1, 1)) == position(
        played(game, 3, ["step", "note"] + ["step"] * 2)
    )
    with pytest.raises(ValueError, match="may take back 2 move"):
        taken_back(state, 1, 3)  # seat 0's moves are not seat 1's to take back
    with pytest.raises(ValueError, match="seat 0 has no move to take back"):
        taken_back(state, 0, 1)


def test_a_draw_from_the_generator_ends_what_can_be_taken_back() -> None:
    game = load_game(str(DICE), players=2)
    state = played(game, 3, ["roll"])
    assert state.to_move == 0 and undoable(state, 0) == 0
    with pytest.raises(ValueError, match="no move to take back"):
        taken_back(state, 0, 1)
    # a move after the draw can be taken back, to the position just after the draw
    state = played(game, 3, ["roll", "step"])
    assert state.to_move == 0 and undoable(state, 0) == 1
    assert position(taken_back(state, 0, 1)) == position(played(game, 3, ["roll"]))


def test_another_seats_decision_ends_a_run() -> None:
    game = load_game(str(DICE), players=2)
    # round 1: three steps of seat 0, three of seat 1; round 2: seat 0 steps once
    state = played(game, 3, ["step"] * 7)
    assert (state.to_move, undoable(state, 0)) == (0, 1)  # its move of this turn only


def test_a_card_coming_into_sight_ends_a_run() -> None:
    """San Juan: the builder's role can be taken back; the building chosen from the hidden
    hand cannot (the others saw the card), nor a card drawn from the face-down deck."""
    game = load_game("san-juan", players=2)
    state = played(game, 5, [])
    start = position(state)
    seat = state.to_move
    state.apply("role:builder")
    assert undoable(state, seat) == 1
    assert position(taken_back(state, seat, 1)) == start
    state.apply("build:prefecture")  # (its payment is asked: the seat stays to move)
    assert state.to_move == seat and undoable(state, seat) == 0
    drawn = played(game, 5, [])
    drawn.apply("role:prospector")  # draws a card from the deck into the seat's hand
    assert undoable(drawn, drawn.to_move) == 0 and undoable(drawn, seat) == 0


@pytest.mark.parametrize(("name", "players"), [("san-juan", 2), ("puerto-rico", 3)])
def test_every_position_taken_back_is_the_one_played_with_the_same_generator(
    name: str, players: int
) -> None:
    """A whole game of random choices: wherever the seat to move may take moves back, taking
    them back gives the position it was before them, and the generator is where it is now
    (no draw in between: the future is the one it had)."""
    game = load_game(name, players=players)
    state = watch_undo(game.new_state(11))
    seen = [position(state)]
    pick = random.Random(4)
    checked = 0
    while not state.is_over and state.decisions < 120:
        seat = state.to_move
        moves = undoable(state, seat)
        if moves:
            again = taken_back(state, seat, moves)
            assert position(again) == seen[len(state.history) - moves]
            assert again.rng.getstate() == state.rng.getstate()
            checked += 1
        state.apply(pick.choice(state.legal_options()))
        seen.append(position(state))
    assert checked > 5


def test_a_copy_for_search_does_not_watch() -> None:
    game = load_game(str(DICE), players=2)
    state = played(game, 3, ["step"])
    assert state.copy().undo_run is None and state.copy().undo_watch is None
    kept = state.copy(recording=True)
    assert undoable(kept, 0) == 1
    kept.apply("step")
    assert (undoable(kept, 1), undoable(state, 0)) == (0, 1)  # the original is left be
