"""A Puerto Rico build's log line says its price with its unit, in the ruleset's words ("for 2
doubloons", "for 1 doubloon"): the real engine and the real ruleset."""

from __future__ import annotations

from helpers.moves import play

from .helpers import clear_player


def test_a_build_says_its_price_in_doubloons(game3):
    s = game3.new_state(1)
    seat = s.to_move
    clear_player(s, seat, doubloons=5)
    mark = len(s.log)
    clear_player(s, (seat + 1) % 3, doubloons=5)
    play(s, "role:builder", "build:small-sugar-mill")  # 2, less the builder's privilege
    lines = [text for _r, _seat, text in s.log[mark:]]
    assert f"seat {seat} builds the Small sugar mill for 1 doubloon" in lines, lines
    mark = len(s.log)
    play(s, "build:indigo-plant")  # 3 for the next seat
    lines = [text for _r, _seat, text in s.log[mark:]]
    assert f"seat {(seat + 1) % 3} builds the Indigo plant for 3 doubloons" in lines, lines
