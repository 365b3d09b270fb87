"""Games whose states ask every decision, even one with a single legal option.

The engine takes a decision with one legal option by itself (issue 16). The rule tests of
tests/puerto_rico, tests/puerto_rico_expansions and tests/san_juan script every decision of a
rule's example by hand, forced ones included, and check the state between them; they play in
the engine's asking mode (``new_state(seed, take_forced=False)``, the mode old save files
replay in), which takes each forced option exactly as the engine would. That the engine takes
them is tested by tests/engine/test_forced_and_local.py, the scenarios and the goldens.
"""

from __future__ import annotations

from typing import Any


class Asking:
    """`game`, with ``new_state`` asking every decision; everything else is the game's own."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def new_state(self, seed: int = 0) -> Any:
        return self._game.new_state(seed, take_forced=False)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)
