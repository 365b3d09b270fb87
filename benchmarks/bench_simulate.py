"""Throughput of ``rulebook simulate``: games per second with 1 job and with 2 jobs.

    python benchmarks/bench_simulate.py [--game puerto-rico] [--players 4] [--games 400]

Both runs play the same seeded games (random bots) through ``run_simulation``: 1 job plays in
the calling process, 2 jobs in two worker processes. The game is compiled once beforehand (the
workers inherit it), so the figure is the parallel speed-up of playing, with the cost of
handing out chunks and sending results back included. Wall-clock time; run it on an otherwise
idle machine, since other processes on the same cores lower the 2-job figure. The CPU-time
estimate (games per CPU-second of one job vs of the busiest of two workers, taken as half of
their total) says what the speed-up would be with each worker on a core of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time

from interpreter.simulate.batch import SimSpec, load_spec_game, run_simulation
from interpreter.simulate.summary import summarise


def measure(spec: SimSpec, jobs: int, repeat: int) -> tuple[float, float]:
    """Best games/s by the wall clock, and the CPU seconds the games took (workers included)."""
    best, cpu = float("inf"), float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start, start_cpu = time.perf_counter(), time.process_time()
        run = run_simulation(spec, jobs=jobs)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        children = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        if jobs == 1:
            cpu = min(cpu, time.process_time() - start_cpu)
        else:  # the busiest worker bounds the wall time on idle cores: about half the total
            cpu = min(cpu, children / jobs)
        best = min(best, wall)
        assert len(run.records) == spec.games
    return spec.games / best, spec.games / cpu


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
    load_spec_game(spec)
    one, one_cpu = measure(spec, 1, args.repeat)
    two, two_cpu = measure(spec, 2, args.repeat)
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
        "speedup_cpu_estimate": round(two_cpu / one_cpu, 2),
        "load_average": round(os.getloadavg()[0], 2),
        "same_summary": same,
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.game}, {args.players} players, {args.games} games, bots {','.join(seats)}")
    print(f"1 job : {one:7.1f} games/s")
    print(f"2 jobs: {two:7.1f} games/s")
    print(f"speed-up {two / one:.2f}x on {os.cpu_count()} cores; same summary: {same}")
    print(
        f"from CPU time (each worker on a core of its own): {two_cpu / one_cpu:.2f}x; "
        f"load average now {os.getloadavg()[0]:.1f} (other work lowers the wall figure)"
    )


if __name__ == "__main__":
    main()
