"""``learned:FILE``: a bot that plays from a trained model's policy head alone, no search.

Each decision is one observation encoding and one small forward pass (well under the 5 ms
budget of a fast bot), so it plays at nearly engine speed; its strength is what
``rulebook train`` taught the model. ``temperature=0`` (the default) plays the likeliest
option; ``temperature=T`` samples from the policy sharpened or flattened by ``T``, seeded per
seat so a game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from interpreter.diagnostics.errors import ConfigError
from interpreter.learn.features import load_cached

__all__ = ["LearnedBot"]


class LearnedBot:
    """Plays the option the model's policy likes best (or samples it at ``temperature``)."""

    def __init__(self, seat: int, seed: int, model: str = "", temperature: float = 0.0) -> None:
        if not model:
            raise ConfigError("learned: name the model file, as in learned:bot.npz")
        if temperature < 0:
            raise ConfigError("learned: temperature must be >= 0")
        self.model = load_cached(model)
        self.temperature = temperature
        self._rng = random.Random(f"learned:{seed}:{seat}")

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        if not legal:
            raise ValueError("no legal options to choose from")
        if len(legal) == 1:
            return legal[0]
        pending = getattr(view, "pending", None)
        game = getattr(view, "game", None)
        if pending is None or game is None:
            raise TypeError(
                "the learned bot needs the engine's seat view (engine.infoset.SeatView)"
            )
        self.model.check(game)
        probs, _value = self.model.evaluate(view, pending(), legal, game)
        if self.temperature == 0:
            return legal[int(np.argmax(probs))]
        weights = probs ** (1.0 / self.temperature)
        return self._rng.choices(list(legal), weights=list(weights))[0]
