"""What the overlay tests share: a small overlay written to a file, and the log of a game
played with random moves (so a test can see where an added step's line falls)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any


def write_overlay(tmp_path: Path, name: str, body: str, extends: str = "puerto-rico") -> str:
    """An overlay file `name` extending `extends`, whose operations are `body` (YAML text)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"overlay: {name}\nextends: {extends}\ntitle: {name}\n{body}", "utf-8")
    return str(path)


def random_log(game: Any, seed: int = 3, decisions: int = 60) -> list[str]:
    """The log lines of `game` played `decisions` random moves from `seed` (or to its end)."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_options()))
    return [text for _round, _seat, text in state.log]
