"""``search:...:model=FILE``: the search bot guided by a trained model (PUCT, value leaves).

The tree and the determinisations are the search bot's (interpreter/bots/search.py); what the
model changes is how the tree grows and how a leaf is scored, as in AlphaZero (the
2018 paper):

* **priors**: when a walk reaches a node (or a node offering an option it has not seen, since
  determinisations differ in what is legal) the model's policy over the mover's legal options
  becomes each new edge's prior, and selection maximises ``Q + C * P * sqrt(N) / (1 + n)``
  with ``C`` twice the bot's ``c``;
* **values**: that new leaf is scored by the model's value head (each seat's expected share of
  the reward) instead of a random playout, which is what makes each iteration cheap; a
  finished game is scored by its result, a walk that reaches ``depth`` by the ruleset's scoring.
  ``value=W`` below 1 also plays the leaf out as the plain search does and scores it ``W``
  times the value head plus ``1 - W`` times the playout (AlphaGo's mixed leaf, 2016):
  ``value=0`` is the plain search with the policy's priors, a teacher that a young value head
  cannot mislead.

The model reads the mover's view of the determinised state, so nothing hidden from the
searching seat is used beyond what the determinisation guessed. The view's features come from
the agents' incremental encoder (interpreter/agents/encoder.py), kept by the bot across its
walks: the leaves of one search differ in few fields, and the encoder refills only those
(its vector is the whole view's, field for field: tests/agents/test_features.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.agents.encoder import Encoder
from interpreter.bots.search import SearchBot, playout_rewards
from interpreter.engine.game import Game
from interpreter.learn.model_spaces import legal_actions, load_cached

__all__ = ["GuidedSearchBot"]

FPU_REDUCTION = 0.1


class _Edge:
    """One option at one node: visits, reward summed for the seat that took it, prior, child."""

    __slots__ = ("visits", "reward", "prior", "node")

    def __init__(self, prior: float) -> None:
        self.visits = 0
        self.reward = 0.0
        self.prior = prior
        self.node: dict[str, _Edge] = {}


class GuidedSearchBot(SearchBot):
    """Information-set MCTS with the model's priors (PUCT) and value head at the leaves."""

    def __init__(
        self, seat: int, seed: int, model: str = "", value: float = 1.0, **params: Any
    ) -> None:
        super().__init__(seat, seed, **params)
        if not 0.0 <= value <= 1.0:
            raise ValueError("search: value= (the value head's weight at a leaf) must lie in 0..1")
        self.model = load_cached(model)
        self.value = value
        self._encoding: tuple[Game, Encoder] | None = None  # (game, its encoder)

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        game = getattr(view, "game", None)
        if game is not None:
            self.model.check(game)  # a game of another composition is refused up front
        return super().choose(view, legal)

    def _rank(self, edge: Any) -> tuple[int, float]:
        """Most visits, then the policy's prior (with few walks, visits often tie, and the
        prior is a steadier judge than a reward summed over one or two leaves)."""
        return edge.visits, edge.prior

    def _expand(self, d: Any, node: dict[str, _Edge], legal: Sequence[str]) -> list[float]:
        """Add the edges ``node`` lacks with the model's priors; the leaf's value per seat."""
        mover = d.who
        model = self.model
        game = d.game
        encoding = self._encoding
        if encoding is None or encoding[0] is not game:
            encoding = self._encoding = (game, model.spaces.observations.encoder(game))
        actions = legal_actions(model.spaces, d.pending, legal, game)
        probs, shares = model.net.evaluate(encoding[1].encode(d, mover), actions)
        for option, p in zip(legal, probs, strict=True):
            if option not in node:
                node[option] = _Edge(float(p))
        n = len(shares)
        return [float(shares[(seat - mover) % n]) for seat in range(n)]

    def _iterate(self, d: Any, root: dict[str, _Edge]) -> None:  # type: ignore[override]
        """One walk: PUCT down the tree, the model at the new leaf (see the module)."""
        node = root
        path: list[tuple[_Edge, int]] = []
        steps = 0
        c = 2.0 * self.c
        start_round = d.round
        rewards: list[float] | None = None
        while not d.over and steps < self.depth:
            pending = d.pending
            if len(pending) == 1:
                d.apply(next(iter(pending)))
                steps += 1
                continue
            legal = list(pending)
            if not node or any(o not in node for o in legal):
                rewards = self._expand(d, node, legal)
                if self.value < 1.0:  # the leaf's playout too, weighed against the value head
                    self._playout(d, steps, start_round)
                    played = playout_rewards(d, self.scale, self.tiebreak)
                    w = self.value
                    rewards = [w * v + (1 - w) * r for v, r in zip(rewards, played, strict=True)]
                break
            total = 0
            gained = 0.0
            for o in legal:
                e = node[o]
                total += e.visits
                gained += e.reward
            root_n = math.sqrt(total + 1)
            # first-play urgency: an option not tried yet is taken to be a little worse than
            # the mean of those tried (not better than all of them), so that few walks
            # follow the policy's priors instead of trying every option once
            fpu = gained / total - FPU_REDUCTION if total else 0.0
            best_score = -math.inf
            choice = legal[0]
            for o in legal:
                e = node[o]
                q = e.reward / e.visits if e.visits else fpu
                score = q + c * e.prior * root_n / (1 + e.visits)
                if score > best_score:
                    best_score, choice = score, o
            edge = node[choice]
            path.append((edge, d.who))
            d.apply(choice)
            steps += 1
            node = edge.node
        if rewards is None:
            rewards = playout_rewards(d, self.scale, self.tiebreak)
        self._count_root(rewards)
        for edge, mover in path:
            edge.visits += 1
            edge.reward += rewards[mover]
