"""Strength of a bot, seat-rotated: how often it wins against other bots, with a 95% interval.

    python benchmarks/bench_search.py --game puerto-rico --players 3 \\
        --bot search:seconds=0.25 --against random,random --deals 34 --out results.jsonl

Each deal (seed) is played once per seat rotation, so the bot sits in every seat equally and
seat advantage cancels: ``--deals 34`` with 3 players is 102 games. Every finished game is
appended to ``--out`` as one JSON line as soon as it ends (long runs can be read while they go,
and a stopped run keeps its games: run the same command again and it plays only the games the
file does not hold yet); the summary at the end gives the bot's win share (ties
shared), its Wilson 95% interval, the fair share 1/N, and the search's iterations per second
when the bot searches.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from game_rows import finished_games

from interpreter.bots import make_bot
from interpreter.engine.loader import load_game
from interpreter.infoset.worlds import SeatView
from interpreter.simulate.stats import wilson


def play(game: Any, specs: list[str], seed: int) -> tuple[Any, dict[int, list[float]]]:
    """One game; returns the result and, per seat, [iterations, seconds] spent searching."""
    bots = [make_bot(spec, seat, seed) for seat, spec in enumerate(specs)]
    state = game.new_state(seed)
    state.log = None
    spent: dict[int, list[float]] = {seat: [0, 0.0] for seat in range(len(specs))}
    while not state.is_over:
        seat = state.to_move
        # CPU time, as the bot budgets it: other programs on a shared machine do not count
        t0 = time.process_time()
        choice = bots[seat].choose(SeatView(state, seat), state.legal_options())
        spent[seat][1] += time.process_time() - t0
        spent[seat][0] += getattr(bots[seat], "last_iterations", 0)
        if hasattr(bots[seat], "last_iterations"):
            bots[seat].last_iterations = 0
        state.apply(choice)
    return state.result(), spent


def game_key(row: dict) -> tuple:
    """What tells one game of a run from another: game, overlays, seed, seats."""
    return (row["game"], tuple(row["with"]), row["seed"], tuple(row["seats"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="puerto-rico")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--with", dest="overlays", default="")
    ap.add_argument("--bot", default="search:seconds=0.25")
    ap.add_argument("--against", default="random,random")
    ap.add_argument("--deals", type=int, default=34)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    overlays = [o for o in args.overlays.split(",") if o]
    others = [o for o in args.against.split(",") if o]
    if len(others) != args.players - 1:
        ap.error(f"--against needs {args.players - 1} bots")
    game = load_game(args.game, args.players, overlays)
    share = 0.0
    games = 0
    iters = 0.0
    secs = 0.0
    done = finished_games(args.out, game_key)
    with args.out.open("a") as out:
        for deal in range(args.deals):
            for rot in range(args.players):
                specs = others[:rot] + [args.bot] + others[rot:]
                seed = args.seed + deal
                key = (args.game, tuple(overlays), seed, tuple(specs))
                if key in done:
                    row = done[key]
                    share += row["win"]
                    games += 1
                    iters += row["iterations"]
                    secs += row["search_seconds"]
                    continue
                res, spent = play(game, specs, seed)
                win = 1.0 / len(res.winners) if rot in res.winners else 0.0
                share += win
                games += 1
                iters += spent[rot][0]
                secs += spent[rot][1]
                row = {
                    "game": args.game,
                    "with": overlays,
                    "seed": seed,
                    "seats": specs,
                    "bot_seat": rot,
                    "win": win,
                    "totals": [s["total"] for s in res.scores],
                    "iterations": spent[rot][0],
                    "search_seconds": round(spent[rot][1], 3),
                }
                out.write(json.dumps(row) + "\n")
                out.flush()
    low, high = wilson(share, games)
    print(
        json.dumps(
            {
                "game": args.game,
                "with": overlays,
                "bot": args.bot,
                "against": others,
                "games": games,
                "win_share": round(share / games, 3),
                "interval95": [round(low, 3), round(high, 3)],
                "fair_share": round(1 / args.players, 3),
                "iterations_per_s": round(iters / secs) if secs and iters else None,
            }
        )
    )


if __name__ == "__main__":
    main()
