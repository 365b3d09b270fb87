"""Compiled games per (players, overlays), cached for the whole session."""

from __future__ import annotations

import pytest

from helpers.asking import Asking
from interpreter.engine.loader import load_game

_CACHE: dict = {}


def get_game(players: int, overlays: tuple[str, ...] = (), **options):
    key = (players, overlays, tuple(sorted(options.items())))
    if key not in _CACHE:
        _CACHE[key] = Asking(
            load_game("puerto-rico", players=players, overlays=overlays, options=options)
        )
    return _CACHE[key]


@pytest.fixture(scope="session")
def game():
    return get_game
