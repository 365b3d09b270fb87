"""A table puts each seat's board together from parts it keeps between seats and between moves
(serve/board_parts.py): the board must be exactly the one a fresh build gives, for every seat,
a spectator and a game's every-seat replay, move after move; a seat's own hidden fields never
reach another seat's board; and the parts kept are bounded."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.loader import load_game_and_data
from interpreter.serve.board_parts import BoardParts, kept_board_html
from interpreter.serve.render import board_html
from interpreter.table.presenter import Presentation

NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.mark.parametrize(
    ("game", "players", "overlays"),
    [("puerto-rico", 3, ("nobles",)), ("san-juan", 4, ())],
)
def test_kept_parts_make_the_board_a_fresh_build_makes(game, players, overlays):
    loaded, data = load_game_and_data(game, players, overlays)
    pres = Presentation.from_data(data)
    parts = BoardParts()
    state = loaded.new_state(5)
    pick = random.Random(5)
    names = NAMES[:players]
    for _ in range(30):  # one position after the next: most parts are kept from the last
        for viewer in [*range(players), -1]:
            view = state.view(viewer)
            fresh = board_html(pres.board(view), pres, viewer, names)
            assert kept_board_html(parts, pres, view, names) == fresh, (viewer, state.decisions)
        every = state.view(-1, every_seat=True)
        fresh = board_html(pres.board(every), pres, -1, names)
        assert kept_board_html(parts, pres, every, names) == fresh
        state.apply(pick.choice(state.legal_options()))
    assert parts.found > parts.made  # parts were kept, between seats and between moves


def test_a_seats_hidden_field_is_in_its_own_board_only():
    """Puerto Rico's victory-point chips are hidden from all but their owner: each seat's board
    shows its own count, the others' boards (and a spectator's) do not, though they are put
    together from the same kept parts."""
    loaded, data = load_game_and_data("puerto-rico", 3, ())
    pres = Presentation.from_data(data)
    parts = BoardParts()
    state = loaded.new_state(2)
    for seat, chips in enumerate([7, 11, 13]):
        state.p[seat]["vp-chips"] = chips
    boards = {v: kept_board_html(parts, pres, state.view(v), NAMES[:3]) for v in (0, 1, 2, -1)}
    # each seat's board holds the supply's count of chips and its own; the spectator's, the
    # supply's alone
    assert [boards[v].count("data-field='vp-chips'") for v in (0, 1, 2, -1)] == [2, 2, 2, 1]
    for seat, chips in enumerate([7, 11, 13]):
        own = state.view(seat)["players"][seat]["vp-chips"]
        assert own == chips
        shown = board_html(pres.board(state.view(seat)), pres, seat, NAMES[:3])
        assert boards[seat] == shown
        for other in {0, 1, 2, -1} - {seat}:
            assert "vp-chips" not in state.view(other)["players"][seat]
            assert boards[other] == board_html(
                pres.board(state.view(other)), pres, other, NAMES[:3]
            )


def test_the_kept_parts_are_bounded():
    loaded, data = load_game_and_data("san-juan", 2)
    pres = Presentation.from_data(data)
    parts = BoardParts(limit=8)
    state = loaded.new_state(1)
    pick = random.Random(1)
    for _ in range(30):
        kept_board_html(parts, pres, state.view(0), NAMES[:2])
        assert len(parts) <= 16  # two generations of at most 8
        state.apply(pick.choice(state.legal_options()))
