"""A table keeps the fields it has described and drawn (most are unchanged from one move to the
next): the page it sends must be exactly the page a fresh description gives, for every seat,
a spectator and the viewer-dependent fields ("you" for the governor), all game long."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.loader import load_game_and_data
from interpreter.serve.render import board_html
from interpreter.table import presenter
from interpreter.table.presenter import Presentation


@pytest.mark.parametrize(
    ("game", "players", "overlays"),
    [("puerto-rico", 3, ("nobles",)), ("san-juan", 4, ("new-buildings",))],
)
def test_kept_fields_draw_the_same_page_as_fresh_ones(game, players, overlays):
    loaded, data = load_game_and_data(game, players, overlays)
    kept = Presentation.from_data(data)
    state = loaded.new_state(3)
    pick = random.Random(3)
    checked = 0
    while not state.is_over:
        for viewer in [*range(players), -1]:
            view = state.view(viewer)
            fresh = Presentation.from_data(data)
            page = board_html(kept.board(view), kept, viewer)
            assert page == board_html(fresh.board(view), fresh, viewer), (viewer, state.decisions)
            checked += 1
        for _ in range(25):
            if state.is_over:
                break
            state.apply(pick.choice(state.legal_options()))
    assert checked > 20 and kept._fields  # the table did keep fields between the pages


def test_the_kept_fields_are_bounded(monkeypatch):
    monkeypatch.setattr(presenter, "FIELDS_KEPT", 10)
    loaded, data = load_game_and_data("san-juan", 2)
    kept = Presentation.from_data(data)
    state = loaded.new_state(1)
    pick = random.Random(1)
    for _ in range(40):
        kept.board(state.view(0))
        assert len(kept._fields) <= 10
        state.apply(pick.choice(state.legal_options()))


def test_the_fields_in_use_stay_kept_when_the_store_fills_up(monkeypatch):
    """A full store of fields starts anew, but the fields asked for since are taken over: the
    board of a position shown before and after the store filled up is not described again."""
    loaded, data = load_game_and_data("puerto-rico", 3)
    kept = Presentation.from_data(data)
    state = loaded.new_state(1)
    first = kept.board(state.view(0))
    fields = [f for zone in [*first.zones, *first.seats] for f in zone.fields]
    # room for the fields of two positions: the first one and the one being played
    monkeypatch.setattr(presenter, "FIELDS_KEPT", 2 * len(kept._fields))
    pick = random.Random(1)
    for _ in range(40):  # later positions: a few new fields each, the store fills up
        state.apply(pick.choice(state.legal_options()))
        kept.board(state.view(0))
        kept.board(loaded.new_state(1).view(0))  # the first position, shown again meanwhile
    assert len(kept._fields) <= 2 * len(fields)
    again = kept.board(loaded.new_state(1).view(0))
    assert [f for zone in [*again.zones, *again.seats] for f in zone.fields] == fields
    assert all(
        a is b
        for a, b in zip(
            fields, [f for zone in [*again.zones, *again.seats] for f in zone.fields], strict=True
        )
    )
