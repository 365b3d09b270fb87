"""A toy ruleset of the tests played by option ids, and copies of it with one text changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.engine.loader import load_game


def play(path: Path, options: list[str], players: int = 2) -> tuple[Any, Any]:
    """The game of ``path`` and its seed-1 state after ``options``, each checked legal first."""
    game = load_game(str(path), players)
    s = game.new_state(seed=1)
    for o in options:
        assert o in s.legal_options(), (o, s.legal_options())
        s.apply(o)
    return game, s


def copy_with(path: Path, tmp_path: Path, old: str, new: str) -> Path:
    """A copy of ``path`` in ``tmp_path`` with its one ``old`` text replaced by ``new``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    dest = tmp_path / "ruleset.yaml"
    dest.write_text(text.replace(old, new), encoding="utf-8")
    return dest


def line_of(path: Path, text: str) -> int:
    """The line number of the line of ``path`` that is ``text``."""
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1
