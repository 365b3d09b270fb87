"""Our search bot against OpenSpiel's own ISMCTS bot, both at the same time per decision.

    python benchmarks/bench_openspiel.py --game san-juan --players 3 --seconds 0.25 \\
        --deals 34 --out ismcts.jsonl

The game runs through the OpenSpiel adapter (interpreter/agents/spiel.py). Seats: our
``search:seconds=S``, OpenSpiel's ``ISMCTSBot`` (random-rollout evaluator, UCT c=2, max-visit
final policy, resampling through the adapter's ``resample_from_infostate``) and, with 3 or
more players, random bots; every deal is played once per seat rotation. OpenSpiel's bot takes
a number of simulations, not a time: before each decision it is given as many as it ran per
CPU second so far times S, so both spend about S CPU seconds. Each game is appended to --out
as a JSON line; the summary gives each bot's win share with its 95% interval and its
iterations (simulations) per CPU second. A run given an --out that already holds games plays
only the games it lacks (same game, seed and seats), so a long row can grow across runs.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
from game_rows import finished_games
from open_spiel.python.algorithms import ismcts, mcts

from interpreter.agents import register_openspiel
from interpreter.bots import make_bot
from interpreter.infoset.worlds import SeatView
from interpreter.simulate.stats import wilson


class TimedISMCTS:
    """OpenSpiel's ISMCTS bot with its simulation count fitted to a CPU-time budget."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        self.bot = ismcts.ISMCTSBot(
            game, evaluator, 2.0, 10, random_state=np.random.RandomState(seed)
        )
        self.seconds = seconds
        self.sims = 0
        self.spent = 0.0

    def step(self, state: Any) -> int:
        rate = self.sims / self.spent if self.spent > 0.5 else 20.0
        n = max(2, int(rate * self.seconds))  # its first simulation only expands the root
        self.bot._max_simulations = n
        t0 = time.process_time()
        action = self.bot.step(state)
        self.spent += time.process_time() - t0
        self.sims += n
        return int(action)


def play(game: Any, kinds: list[str], seed: int, seconds: float) -> tuple[list[float], dict]:
    state = game.new_initial_state()
    state.apply_action(seed % 1000)
    players = len(kinds)
    ours = {
        seat: make_bot(f"search:seconds={seconds}", seat, seed)
        for seat, k in enumerate(kinds)
        if k == "search"
    }
    theirs = {
        seat: TimedISMCTS(game, seconds, seed + seat)
        for seat, k in enumerate(kinds)
        if k == "ismcts"
    }
    rng = random.Random(seed)
    stats = {"search": [0, 0.0], "ismcts": [0, 0.0]}
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
        elif seat in ours:
            s = state.s
            t0 = time.process_time()
            option = ours[seat].choose(SeatView(s, seat), s.legal_options())
            stats["search"][1] += time.process_time() - t0
            stats["search"][0] += ours[seat].last_iterations
            state.apply_action(next(a for a, o in state._legal.items() if o == option))
        elif seat in theirs:
            state.apply_action(theirs[seat].step(state))
        else:
            state.apply_action(rng.choice(legal))
    for bot in theirs.values():
        stats["ismcts"][0] += bot.sims
        stats["ismcts"][1] += bot.spent
    returns = state.returns()
    assert len(returns) == players
    return returns, stats


def game_key(row: dict) -> tuple:
    """What tells one game of a run from another: game, seed, seats."""
    return (row["game"], row["seed"], tuple(row["seats"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="san-juan")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=0.25)
    ap.add_argument("--deals", type=int, default=34)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    game = register_openspiel(args.game, args.players)
    base = ["search", "ismcts"] + ["random"] * (args.players - 2)
    share = {"search": 0.0, "ismcts": 0.0}
    work = {"search": [0, 0.0], "ismcts": [0, 0.0]}
    games = 0
    done = finished_games(args.out, game_key)
    with args.out.open("a") as out:
        for deal in range(args.deals):
            for turn in range(args.players):
                kinds = base[-turn:] + base[:-turn] if turn else list(base)
                key = (args.game, args.seed + deal, tuple(kinds))
                if key in done:
                    returns, stats = done[key]["returns"], done[key]["work"]
                else:
                    returns, stats = play(game, kinds, args.seed + deal, args.seconds)
                games += 1
                for name in share:
                    share[name] += returns[kinds.index(name)]
                    work[name][0] += stats[name][0]
                    work[name][1] += stats[name][1]
                if key not in done:
                    row = {"game": args.game, "seed": args.seed + deal, "seats": kinds}
                    out.write(json.dumps({**row, "returns": returns, "work": stats}) + "\n")
                    out.flush()
    summary = {"game": args.game, "players": args.players, "games": games}
    for name in share:
        low, high = wilson(share[name], games)
        summary[name] = {
            "win_share": round(share[name] / games, 3),
            "interval95": [round(low, 3), round(high, 3)],
            "iterations_per_s": round(work[name][0] / work[name][1]) if work[name][1] else None,
        }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
