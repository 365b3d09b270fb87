"""A bot that plays any ruleset by tree search, with no game knowledge.

Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse
2012): before each decision the bot builds one tree over option ids; every iteration draws a
*determinisation* (a full state consistent with what its seat has seen, made by the engine from
the ruleset's own declarations of hidden fields: infoset/worlds.py), walks the tree with UCB
(counting how often each option was available, since determinisations differ in what is legal),
adds one node, plays on (at random, or with the bot named by ``rollout``), and scores where it
stopped. A playout is cut after ``depth`` decisions from the root (or at the ``rounds``-th new
round) and the cut state scored with the ruleset's own scoring
(:func:`interpreter.engine.standings.score_table`, the table the game computes at its end, plus
``tiebreak`` times the ruleset's tiebreak value): each seat's lead over the best other seat,
squashed to 0..1. A finished game scores 1 for a winner (shared among tied winners), 0
otherwise. The most visited option is played.

Parameters (a bot spec, ``search:iterations=400:depth=40``):

* ``iterations`` - iterations per decision (default 200 when no ``seconds`` is given);
* ``seconds``    - CPU seconds per decision instead (process time: other busy programs do
  not shorten it) (stops at ``iterations`` too when both given);
* ``depth``      - decisions from the root before a playout is cut and scored (default 30);
* ``c``          - the UCB exploration constant (default 0.7);
* ``scale``      - points of lead worth about 73% in the cut-state score (default: 1 + 10% of
  the best total);
* ``rollout``    - the registered bot that plays the playouts, for every seat (default
  ``random``, which works on any ruleset; a game's own bot makes playouts likelier, at its
  cost per decision);
* ``tiebreak``   - weight of the ruleset's tiebreak value in a cut state's score (default 0.3:
  measured against 0 and 1 in docs/bots.md);
* ``rounds``     - cut a playout at the start of the Nth new round (0: only ``depth`` cuts);
* ``model``      - a model file written by ``rulebook train``: the search then runs PUCT with
  the model's policy as priors and scores each new leaf with its value head, no playout
  (interpreter/learn/guided.py).

With ``iterations`` alone it is deterministic for a game seed (its generator is seeded with
the seed and the seat). It reads nothing of the state but through its seat's view.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.bots.registry import Bot, BotParam, bot_base, make_bot
from interpreter.diagnostics.errors import ConfigError
from interpreter.engine.standings import score_table
from interpreter.engine.state import State
from interpreter.engine.view import seat_view

__all__ = ["SEARCH_PARAMS", "SearchBot", "playout_rewards"]

SEARCH_PARAMS = {
    "iterations": BotParam(int, 0, "iterations per decision (default 200 when no seconds=)"),
    "seconds": BotParam(float, 0.0, "CPU seconds per decision instead of a fixed count"),
    "depth": BotParam(int, 30, "decisions before a playout is cut and scored (default 30)"),
    "c": BotParam(float, 0.7, "UCB exploration constant (default 0.7)"),
    "scale": BotParam(float, 0.0, "lead in points worth ~73% (default 1 + 10% of the best)"),
    "rollout": BotParam(str, "random", "bot that plays the playouts: any registered name"),
    "tiebreak": BotParam(float, 0.3, "weight of the ruleset's tiebreak value in a cut state (0.3)"),
    "rounds": BotParam(int, 0, "cut a playout at the Nth new round instead (depth still caps)"),
    "model": BotParam(
        str,
        "",
        "a 'rulebook train' model file: its priors guide the search and "
        "its value head scores leaves instead of playouts",
    ),
    "value": BotParam(
        float,
        1.0,
        "with model=: the value head's weight at a new leaf, the rest a playout (1: the head "
        "alone, 0: playouts with the model's priors)",
    ),
}


class _Edge:
    """One option at one node: visits, reward summed for the seat that took it, availability."""

    __slots__ = ("visits", "reward", "avail", "node")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.node: dict[str, _Edge] = {}


def playout_rewards(state: State, scale: float = 0.0, tiebreak: float = 0.0) -> list[float]:
    """Each seat's reward in 0..1 where a playout stopped (the state may be changed).

    A cut state is scored by the ruleset's own end-of-game table: each seat's total, plus
    ``tiebreak`` times its tiebreak value (what the ruleset counts when totals tie: often the
    resources a seat has not yet turned into points)."""
    players = len(state.p)
    if state.is_over:
        winners = state.result().winners
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
    if players == 1:
        return [0.5]
    table = score_table(state.game.rules, state)
    totals = [row["total"] + tiebreak * _first_number(row["tiebreak"]) for row in table]
    k = scale or 1.0 + 0.1 * max(0, max(totals))
    out = []
    for seat, total in enumerate(totals):
        lead = total - max(t for i, t in enumerate(totals) if i != seat)
        out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, lead / k)))))
    return out


def _first_number(value: Any) -> float:
    """A tiebreak as one number: a ruleset may declare a list of them, compared in order."""
    while isinstance(value, (list, tuple)):
        value = value[0] if value else 0
    return float(value) if isinstance(value, (int, float)) else 0.0


class SearchBot:
    """Information-set MCTS with determinisation, cut playouts and the ruleset's scoring."""

    def __init__(
        self,
        seat: int,
        seed: int,
        iterations: int = 0,
        seconds: float = 0.0,
        depth: int = 30,
        c: float = 0.7,
        scale: float = 0.0,
        rollout: str = "random",
        tiebreak: float = 0.3,
        rounds: int = 0,
    ) -> None:
        if iterations < 0 or seconds < 0 or depth < 1 or c < 0 or scale < 0 or rounds < 0:
            raise ValueError("search: depth must be >= 1, the others >= 0")
        self.seat = seat
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.c = c
        self.scale = scale
        self.tiebreak = tiebreak
        self.rounds = rounds
        self.rollout = rollout
        self._rng = random.Random(f"search:{seed}:{seat}")
        self._rollout_bots = _rollout_bots(rollout, seed, seat)
        self.last_iterations = 0  # how many the last decision ran (benchmarks report it)
        self.last_visits: dict[str, int] = {}
        # each seat's mean reward over the walks of the last search: its estimate of the
        # position (training blends it into the value target: less noisy than one result)
        self.last_root_value: list[float] = []
        self._root_sum: list[float] = []

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        if not legal:
            raise ValueError("no legal options to choose from")
        if len(legal) == 1:
            return legal[0]
        sample = getattr(view, "determinise", None)
        if sample is None:
            raise TypeError("the search bot needs the engine's seat view (infoset.worlds.SeatView)")
        root: dict[str, _Edge] = {}
        self._root_sum = []
        deadline = time.process_time() + self.seconds if self.seconds else None
        limit = self.iterations or (200 if deadline is None else 10**9)
        done = 0
        while done < limit:
            self._iterate(sample(self._rng), root)
            done += 1
            if deadline is not None and time.process_time() >= deadline:
                break
        self.last_iterations = done
        self.last_root_value = [v / done for v in self._root_sum]
        # the visit count of each option at the root (training uses it as the policy target)
        self.last_visits = {o: e.visits for o, e in root.items()}
        rank = self._rank
        return max(legal, key=lambda o: rank(root[o]) if o in root else (-1, 0.0))

    def _rank(self, edge: Any) -> tuple[int, float]:
        """How a root option ranks at the end: most visits, then most reward."""
        return edge.visits, edge.reward

    def _count_root(self, rewards: list[float]) -> None:
        """Add one walk's rewards to the root's estimate (``last_root_value``)."""
        total = self._root_sum
        if not total:
            total.extend(rewards)
        else:
            for seat, r in enumerate(rewards):
                total[seat] += r

    def _iterate(self, d: Any, root: dict[str, _Edge]) -> None:
        rng = self._rng
        node = root
        path: list[tuple[_Edge, int]] = []
        steps = 0
        depth = self.depth
        c = self.c
        start_round = d.round
        # selection and expansion: down the tree while every legal option has been tried
        while not d.over and steps < depth:
            legal = d.pending
            mover = d.who
            if len(legal) == 1:
                d.apply(next(iter(legal)))
                steps += 1
                continue
            untried = [o for o in legal if o not in node]
            for o in legal:
                edge = node.get(o)
                if edge is not None:
                    edge.avail += 1
            if untried:
                choice = untried[rng.randrange(len(untried))]
                edge = node[choice] = _Edge()
                path.append((edge, mover))
                d.apply(choice)
                steps += 1
                break
            best_score = -1.0
            choice = ""
            for o in legal:
                e = node[o]
                score = e.reward / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
                if score > best_score:
                    best_score, choice = score, o
            edge = node[choice]
            path.append((edge, mover))
            d.apply(choice)
            steps += 1
            node = edge.node
        self._playout(d, steps, start_round)
        rewards = playout_rewards(d, self.scale, self.tiebreak)
        self._count_root(rewards)
        for edge, mover in path:
            edge.visits += 1
            edge.reward += rewards[mover]

    def _playout(self, d: Any, steps: int, start_round: int) -> None:
        """Play on from the tree's leaf until the cut: ``depth`` decisions from the root, or
        the start of the ``rounds``-th new round when given, or the end of the game."""
        depth = self.depth
        last_round = start_round + self.rounds if self.rounds else None
        bots = self._rollout_bots
        randrange = self._rng.randrange
        while not d.over and steps < depth:
            if last_round is not None and d.round >= last_round:
                break
            legal = list(d.pending)
            if bots is None:
                d.apply(legal[randrange(len(legal))])
            elif len(legal) == 1:
                d.apply(legal[0])
            else:
                mover = d.who
                try:
                    view = seat_view(d.game.rules, d, mover, shared=True)
                    choice = bots[mover].choose(view, legal)
                except Exception as exc:  # noqa: BLE001 - a game's bot on a game it does not know
                    raise ConfigError(
                        f"search: the playout bot {self.rollout!r} failed on this ruleset "
                        f"({type(exc).__name__}: {exc}); use rollout=random or a bot made for it"
                    ) from None
                d.apply(choice)
            steps += 1


def _rollout_bots(name: str, seed: int, seat: int) -> _SeatBots | None:
    """One playout bot per seat (None for random playouts, which the search runs inline)."""
    if bot_base(name) == "random":
        return None
    if ":" in name or bot_base(name) == "search":
        raise ValueError(f"search: rollout={name!r} must name a bot without parameters, not search")
    # seats are created lazily: the number of seats is known only from the first state
    return _SeatBots(name, f"{seed}:{seat}")


class _SeatBots:
    """The playout bot of each seat, made on first use, seeded from the searcher's seed."""

    def __init__(self, name: str, seed: str) -> None:
        make_bot(name, 0, 0)  # an unknown name fails now, with the registry's suggestions
        self._name = name
        self._seed = seed
        self._bots: dict[int, Bot] = {}

    def __getitem__(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            # an int seed: bots derive their generators from f"{seed}:{seat}"
            seed = random.Random(f"rollout:{self._seed}:{seat}").getrandbits(32)
            bot = self._bots[seat] = make_bot(self._name, seat, seed)
        return bot
