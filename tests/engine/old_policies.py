"""Games that decide lone decisions as older engines did, for tests of what that changes.

A save of format 2 was played by an engine that took every decision with one legal option,
one whose options may depend on a hidden field too; one of format 3 by an engine that asked
each of those in every state. The engine has no setting for either (old saves are converted,
engine/save_upgrade.py); a test reproduces them by changing the marks of a freshly loaded
game's decisions before its first state writes their code (engine/blocks.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.model.flow import ChooseSpec


def _decisions(game: Any) -> Iterator[ChooseSpec]:
    for instruction in game.rules.program.code:
        for part in instruction:
            if isinstance(part, ChooseSpec):
                yield part


def taking_every_lone_decision(game: Any) -> Any:
    """`game`, taking each decision with one legal option (unless its step says
    ``ask-when-only-one``), as the games of a format-2 save were played."""
    for spec in _decisions(game):
        spec.hidden_dependent = False
    return game


def asking_hidden_lone_decisions(game: Any) -> Any:
    """`game`, asking each decision whose options may depend on a hidden field whatever the
    state, as the games of a format-3 save were played."""
    for spec in _decisions(game):
        if spec.hidden_dependent:
            spec.ask_when_only_one = True
    return game
