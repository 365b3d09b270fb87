"""Every CLI test runs against the fake counting game unless it asks for the real engine."""

from __future__ import annotations

import pytest

import interpreter.cli

from . import fake_game


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    """Point the command line at the fake counting game."""
    monkeypatch.setattr(interpreter.cli, "load_game", fake_game.load_game)
    monkeypatch.setattr(interpreter.cli, "list_games", fake_game.list_games)
