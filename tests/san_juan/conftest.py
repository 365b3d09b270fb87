"""Compiled San Juan games, one per (players, overlays), shared by every test of this package."""

from __future__ import annotations

import pytest

from interpreter.engine.loader import load_game

_cache: dict = {}


def get_game(players: int, *overlays: str, **options):
    key = (players, overlays, tuple(sorted(options.items())))
    if key not in _cache:
        _cache[key] = load_game("san-juan", players, overlays=list(overlays), options=options)
    return _cache[key]


@pytest.fixture(scope="session")
def game2():
    return get_game(2)


@pytest.fixture(scope="session")
def game4():
    return get_game(4)


@pytest.fixture(scope="session")
def nb4():
    return get_game(4, "new-buildings")
