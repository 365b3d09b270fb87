"""Throughput of ``rulebook simulate``: games per second with 1 job and with 2 jobs.

    python benchmarks/bench_simulate.py [--game puerto-rico] [--players 4] [--games 400]

Both runs play the same seeded games (random bots) through ``run_simulation``: 1 job plays in
the calling process, 2 jobs in two worker processes. The game is compiled once beforehand (the
workers inherit it), so the figure is the parallel speed-up of playing, with the cost of
handing out chunks and sending results back included. Wall-clock time; run it on an otherwise
idle machine, since other processes on the same cores lower the 2-job figure.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from interpreter.simulate.runner import SimSpec, _load, run_simulation
from interpreter.simulate.summary import summarise


def measure(spec: SimSpec, jobs: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run = run_simulation(spec, jobs=jobs)
        best = min(best, time.perf_counter() - start)
        assert len(run.records) == spec.games
    return spec.games / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="puerto-rico")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--repeat", type=int, default=2, help="best of N runs per setting")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    bots = args.bots.split(",")
    seats = tuple(bots * args.players if len(bots) == 1 else bots)
    spec = SimSpec(args.game, args.players, seats=seats, games=args.games, seed=1)
    _load(spec)
    one = measure(spec, 1, args.repeat)
    two = measure(spec, 2, args.repeat)
    same = summarise(run_simulation(spec, jobs=1).records, seats) == summarise(
        run_simulation(spec, jobs=2).records, seats
    )
    out = {
        "game": args.game,
        "players": args.players,
        "games": args.games,
        "bots": list(seats),
        "cores": os.cpu_count(),
        "games_per_s_1_job": round(one, 1),
        "games_per_s_2_jobs": round(two, 1),
        "speedup": round(two / one, 2),
        "same_summary": same,
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.game}, {args.players} players, {args.games} games, bots {','.join(seats)}")
    print(f"1 job : {one:7.1f} games/s")
    print(f"2 jobs: {two:7.1f} games/s")
    print(f"speed-up {two / one:.2f}x on {os.cpu_count()} cores; same summary: {same}")


if __name__ == "__main__":
    main()
