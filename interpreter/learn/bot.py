"""``learned:FILE``: a bot that plays from a trained model, with no tree search.

Each decision is one observation encoding and one small forward pass (well under the 5 ms
budget of a fast bot), so it plays at nearly engine speed; its strength is what
``rulebook train`` taught the model. ``temperature=0`` (the default) plays the likeliest
option; ``temperature=T`` samples from the policy sharpened or flattened by ``T``, seeded per
seat so a game replays exactly.

``lookahead=K`` (K >= 1) adds a one-step look ahead with the value head: the bot draws ``K``
determinisations of the state from its own seat's information set (infoset/worlds.py: the
hidden parts guessed, never read), applies each legal option to a copy of each, plays on the
forced steps, and scores where it lands by the model's value of that state for the seat now to
move (or the result, when the game ended), turned to its own seat's share. It plays the option
with the best mean share plus ``prior`` times the policy's probability of it (the policy breaks
near ties and keeps the value head's noise from overruling a clear choice). Its cost grows with
``K`` times the number of options; ``benchmarks/bench_learned.py`` reports it per decision.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from interpreter.diagnostics.errors import ConfigError
from interpreter.engine.view import seat_view
from interpreter.learn.model_spaces import load_cached

__all__ = ["LearnedBot"]

# forced steps (a single legal option) played after an option before it is valued
_FORCED_LIMIT = 50


class LearnedBot:
    """Plays the option the model likes best: by its policy, or by a one-step look ahead."""

    def __init__(
        self,
        seat: int,
        seed: int,
        model: str = "",
        temperature: float = 0.0,
        lookahead: int = 0,
        prior: float = 0.25,
    ) -> None:
        if not model:
            raise ConfigError("learned: name the model file, as in learned:bot.npz")
        if temperature < 0:
            raise ConfigError("learned: temperature must be >= 0")
        if lookahead < 0 or prior < 0:
            raise ConfigError("learned: lookahead and prior must be >= 0")
        self.model = load_cached(model)
        self.temperature = temperature
        self.lookahead = lookahead
        self.prior = prior
        self.seat = seat
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
                "the learned bot needs the engine's seat view (infoset.worlds.SeatView)"
            )
        self.model.check(game)
        probs, _value = self.model.evaluate(view, pending(), legal, game)
        if self.lookahead:
            shares = self._look_ahead(view, legal)
            return legal[int(np.argmax(shares + self.prior * probs))]
        if self.temperature == 0:
            return legal[int(np.argmax(probs))]
        weights = probs ** (1.0 / self.temperature)
        return self._rng.choices(list(legal), weights=list(weights))[0]

    def _look_ahead(self, view: Any, legal: Sequence[str]) -> np.ndarray:
        """Each option's mean share for this seat, valued one step on (see the module)."""
        seat = view.seat
        total = np.zeros(len(legal))
        for _ in range(self.lookahead):
            base = view.determinise(self._rng)  # the seat's information set, not the state
            for i, option in enumerate(legal):
                d = base.copy()
                d.apply(option)
                total[i] += self._value(d, seat)
        return total / self.lookahead

    def _value(self, d: Any, seat: int) -> float:
        """``seat``'s expected share of the reward at state ``d`` by the value head."""
        steps = 0
        while not d.over and len(d.pending) == 1 and steps < _FORCED_LIMIT:
            d.apply(next(iter(d.pending)))
            steps += 1
        players = len(d.p)
        if d.over:
            winners = d.result().winners
            return 1.0 / len(winners) if seat in winners else 0.0
        mover = d.who
        mview = seat_view(d.game.rules, d, mover, shared=True)
        legal = list(d.pending)
        _probs, shares = self.model.evaluate(mview, d.pending, legal, d.game)
        return float(shares[(seat - mover) % players])
