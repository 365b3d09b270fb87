"""Speed of the engine: games/s, decisions/s, state-copy time and load time.

    python benchmarks/bench_games.py                 # 200 random 4-player Puerto Rico games
    python benchmarks/bench_games.py --game puerto-rico --players 3 --games 500 --json

Random bots choose among the legal options, exactly as `rulebook play` does. Times are process
CPU time, so another busy core does not skew them. The reference point in issue 2: the best
hand-coded Python engine we know plays ~65 random 4-player games/s (~44,000 decisions/s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from interpreter.bots import make_bot
from interpreter.engine.loader import load_game


def play_games(
    game: Any, games: int, seed: int, take_forced: bool = True
) -> tuple[int, int, float]:
    decisions = 0
    rounds = 0
    start = time.process_time()
    for g in range(games):
        s = game.new_state(seed + g, take_forced=take_forced)
        s.log = None
        bots = [make_bot("random", seat, seed + g) for seat in range(game.players)]
        while not s.is_over:
            seat = s.to_move
            s.apply(bots[seat].choose(None, s.legal_options()))
        decisions += s.decisions
        rounds += s.round
    return decisions, rounds, time.process_time() - start


def mid_game_state(game: Any, seed: int) -> Any:
    s = game.new_state(seed)
    bots = [make_bot("random", seat, seed) for seat in range(game.players)]
    while not s.is_over and s.round < 8:
        s.apply(bots[s.to_move].choose(None, s.legal_options()))
    return s


def time_copies(state: Any, n: int = 2000) -> float:
    start = time.perf_counter()
    for _ in range(n):
        state.copy()
    return (time.perf_counter() - start) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="puerto-rico")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--with", dest="overlays", default="")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    # decisions with one legal option asked too, as before the engine took them (issue 16)
    ap.add_argument("--ask-forced", action="store_true")
    args = ap.parse_args()
    overlays = [o for o in args.overlays.split(",") if o]

    loads = []
    for _ in range(3):
        t0 = time.perf_counter()
        game = load_game(args.game, args.players, overlays)
        loads.append(time.perf_counter() - t0)
    play_games(game, min(10, args.games), args.seed + 10_000)  # warm up
    decisions, rounds, seconds = play_games(game, args.games, args.seed, not args.ask_forced)
    copy_s = time_copies(mid_game_state(game, args.seed))
    result = {
        "game": args.game,
        "players": args.players,
        "overlays": overlays,
        "games": args.games,
        "games_per_s": round(args.games / seconds, 1),
        "decisions_per_s": round(decisions / seconds),
        "decisions_per_game": round(decisions / args.games, 1),
        "rounds_per_game": round(rounds / args.games, 1),
        "copy_us": round(copy_s * 1e6, 1),
        "load_ms": round(statistics.median(loads) * 1e3, 1),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.game}, {args.players} players, {args.games} random games")
    print(f"  games/s           {result['games_per_s']:>10}")
    print(f"  decisions/s       {result['decisions_per_s']:>10}")
    print(f"  decisions/game    {result['decisions_per_game']:>10}")
    print(f"  rounds/game       {result['rounds_per_game']:>10}")
    print(f"  state copy (us)   {result['copy_us']:>10}")
    print(f"  load+compile (ms) {result['load_ms']:>10}")


if __name__ == "__main__":
    main()
