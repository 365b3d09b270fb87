"""Compiled San Juan games, one per (players, overlays), shared by every test of this package."""

from __future__ import annotations

import pytest

from helpers.asking import Asking
from interpreter.engine.loader import load_game

_cache: dict = {}


def get_game(players: int, *overlays: str, **options):
    key = (players, overlays, tuple(sorted(options.items())))
    if key not in _cache:
        _cache[key] = Asking(
            load_game("san-juan", players, overlays=list(overlays), options=options)
        )
    return _cache[key]


def start(players: int = 4, *overlays: str, seed: int = 1):
    """A fresh state of the game of `players` with `overlays`, dealt with `seed`."""
    return get_game(players, *overlays).new_state(seed)


@pytest.fixture(scope="session")
def game2():
    return get_game(2)


@pytest.fixture(scope="session")
def game4():
    return get_game(4)


@pytest.fixture(scope="session")
def nb4():
    return get_game(4, "new-buildings")
