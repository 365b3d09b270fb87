"""One compiled game per player count, shared by every test of this package."""

from __future__ import annotations

import pytest

from helpers.asking import Asking
from interpreter.engine.loader import load_game


@pytest.fixture(scope="session")
def game3():
    return Asking(load_game("puerto-rico", players=3))


@pytest.fixture(scope="session")
def game4():
    return Asking(load_game("puerto-rico", players=4))


@pytest.fixture(scope="session")
def game5():
    return Asking(load_game("puerto-rico", players=5))


@pytest.fixture(scope="session")
def games(game3, game4, game5):
    return {3: game3, 4: game4, 5: game5}
