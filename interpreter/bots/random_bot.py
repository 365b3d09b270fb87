"""The simplest bots: a seeded uniform random bot and a first-legal-option baseline."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


class RandomBot:
    """Chooses uniformly among the legal options.

    Its generator is seeded with ``"{seed}:{seat}"`` (string seeds hash stably across runs and
    Python processes), so each seat draws from its own stream and a seeded game replays exactly.

    >>> a, b = RandomBot(0, 42), RandomBot(0, 42)
    >>> [a.choose({}, "xyz") for _ in range(5)] == [b.choose({}, "xyz") for _ in range(5)]
    True
    """

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self._rng = random.Random(f"{seed}:{seat}")

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """Pick one of ``legal`` at random (``view`` is not needed)."""
        if not legal:
            raise ValueError("no legal options to choose from")
        # `choice` draws what `randrange(len(legal))` draws (one `_randbelow`), with fewer
        # checks on the way: the seeded games are the same
        return self._rng.choice(legal)


class FirstBot:
    """Always takes the first legal option: deterministic without any seed.

    >>> FirstBot().choose({}, ["b", "a"])
    'b'
    """

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """Pick ``legal[0]``."""
        if not legal:
            raise ValueError("no legal options to choose from")
        return legal[0]
