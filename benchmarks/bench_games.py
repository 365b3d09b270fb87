"""Speed of the engine: games/s, decisions/s, state-copy time and load time.

    python benchmarks/bench_games.py                 # 200 random 4-player Puerto Rico games
    python benchmarks/bench_games.py --game puerto-rico --players 3 --games 500 --json
    python benchmarks/bench_games.py --against /path/to/other/checkout --game puerto-rico,san-juan

`--peer` measures a hand-written pure-Python Puerto Rico engine (a checkout of
github.com/somnambWl/puerto-rico, not shipped here) and this one in turns, 4-player random games
each, each run in a fresh process; pin the command to one core (`taskset -c 1`) so that both
run alike:

    git clone https://github.com/somnambWl/puerto-rico /tmp/peer
    taskset -c 1 python benchmarks/bench_games.py --peer /tmp/peer --games 300 --rounds 3

`--against` measures another checkout of this project (say, main before a change) and this one
in turns, on the same machine in one run, each in a fresh process (this script with
PYTHONPATH set to the checkout), and prints the medians side by side with their ratios.

Random bots choose among the legal options, exactly as `rulebook play` does. Times are process
CPU time, so another busy core does not skew them. The figures and the conditions they were
measured under are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
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
        # a checkout from before the engine took forced decisions knows no such argument
        s = game.new_state(seed + g) if take_forced else game.new_state(seed + g, take_forced=False)
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


def time_copies(state: Any, n: int = 5000) -> float:
    start = time.process_time()
    for _ in range(n):
        state.copy()
    return (time.process_time() - start) / n


METRICS = (
    ("games/s", "games_per_s", "{:.1f}"),
    ("decisions/s", "decisions_per_s", "{:,.0f}"),
    ("state copy (us)", "copy_us", "{:.1f}"),
    ("search iter/s", "search_iterations_per_s", "{:,.0f}"),
    ("load+compile (ms)", "load_ms", "{:.0f}"),
)


def measure_in(tree: Path, game: str, args: argparse.Namespace) -> dict[str, Any]:
    """One measurement of the checkout at `tree`, in a fresh Python process."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--json", "--game", game]
    cmd += ["--players", str(args.players), "--games", str(args.games), "--seed", str(args.seed)]
    if args.overlays:
        cmd += ["--with", args.overlays]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def compare(args: argparse.Namespace) -> None:
    """The other checkout and this one measured in turns; medians side by side."""
    trees = {"before": Path(args.against).resolve(), "after": Path(__file__).resolve().parents[1]}
    for game in args.game.split(","):
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, tree in trees.items():
                runs[name].append(measure_in(tree, game, args))
        print(f"{game}, {args.players} players, {args.games} random games, median of {args.rounds}")
        print(f"  {'':<18} {'before':>10} {'after':>10} {'after/before':>13}")
        for label, key, fmt in METRICS:
            before = statistics.median(r[key] for r in runs["before"])
            after = statistics.median(r[key] for r in runs["after"])
            ratio = after / before if before else float("nan")
            print(f"  {label:<18} {fmt.format(before):>10} {fmt.format(after):>10} {ratio:>12.2f}x")
        same = {r["decisions_per_game"] for rs in runs.values() for r in rs}
        print(f"  decisions/game     {', '.join(str(x) for x in sorted(same))} (both)")


# The peer's own public loop, run in its checkout: for game seed g a fresh game and a generator
# seeded g, a uniformly random legal action until the game ends. `validate=False` is its own
# fast path (its default `apply` lists the legal actions a second time to check the one given).
PEER_LOOP = """
import json, random, sys, time
sys.path.insert(0, {root!r})
from puerto_rico.engine.game import Game
from puerto_rico.engine.state import GameConfig

def play(games, seed):
    decisions, start = 0, time.process_time()
    for g in range(seed, seed + games):
        game = Game(GameConfig(num_players={players}, seed=g))
        rng = random.Random(g)
        while not game.is_terminal:
            game.apply(rng.choice(game.legal_actions()), validate=False)
            decisions += 1
    return decisions, time.process_time() - start

play(min(10, {games}), {seed} + 10_000)  # warm up, as ours
decisions, seconds = play({games}, {seed})
print(json.dumps({{"games_per_s": {games} / seconds, "decisions_per_s": decisions / seconds,
                  "decisions_per_game": decisions / {games}}}))
"""


def measure_peer(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One measurement of the peer engine checked out at `root`, in a fresh Python process."""
    code = PEER_LOOP.format(root=str(root), players=args.players, games=args.games, seed=args.seed)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def compare_peer(args: argparse.Namespace) -> None:
    """The peer engine and this one measured in turns (`--rounds` each), run by run."""
    root = Path(args.peer).resolve()
    here = Path(__file__).resolve().parents[1]
    print(f"puerto-rico, {args.players} players, {args.games} random games a run, process CPU time")
    print(
        f"  {'run':<4} {'peer games/s':>13} {'ours':>8} {'ratio':>6}"
        f"   {'peer dec/s':>11} {'ours':>8} {'ratio':>6}"
    )
    ratios = []
    for i in range(args.rounds):
        peer = measure_peer(root, args)
        ours = measure_in(here, "puerto-rico", args)
        g, d = (
            ours["games_per_s"] / peer["games_per_s"],
            ours["decisions_per_s"] / peer["decisions_per_s"],
        )
        ratios.append((g, d))
        print(
            f"  {i + 1:<4} {peer['games_per_s']:>13.1f} {ours['games_per_s']:>8.1f} {g:>5.2f}x"
            f"   {peer['decisions_per_s']:>11,.0f} {ours['decisions_per_s']:>8,.0f} {d:>5.2f}x"
        )
    print(
        f"  decisions/game: peer {peer['decisions_per_game']:.1f},"
        f" ours {ours['decisions_per_game']:.1f};"
        f" median ratio {statistics.median(r[0] for r in ratios):.2f}x games/s,"
        f" {statistics.median(r[1] for r in ratios):.2f}x decisions/s"
    )


def time_search(state: Any, iterations: int = 200, repeats: int = 3) -> float:
    """Iterations/s of the search bot choosing at `state` (best of `repeats`): a search copies
    and determinises the state once an iteration, then plays it on to its cut."""
    try:
        from interpreter.infoset.worlds import SeatView
    except ImportError:  # `--against` runs this script on a checkout that keeps it in engine/
        from interpreter.engine.infoset import SeatView  # type: ignore[import-not-found, no-redef]

    best = 0.0
    for _ in range(repeats):
        bot = make_bot(f"search:iterations={iterations}", state.to_move, 1)
        start = time.process_time()
        bot.choose(SeatView(state, state.to_move), state.legal_options())
        best = max(best, iterations / (time.process_time() - start))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="puerto-rico")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--with", dest="overlays", default="")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--against", metavar="CHECKOUT", help="another checkout to measure in turns")
    ap.add_argument(
        "--peer", metavar="CHECKOUT", help="a checkout of somnambWl/puerto-rico to measure in turns"
    )
    ap.add_argument("--rounds", type=int, default=3, help="turns each (--against, --peer)")
    # decisions with one legal option asked too, where the engine otherwise takes them itself
    ap.add_argument("--ask-forced", action="store_true")
    args = ap.parse_args()
    if args.against:
        compare(args)
        return
    if args.peer:
        compare_peer(args)
        return
    overlays = [o for o in args.overlays.split(",") if o]

    loads = []
    for _ in range(3):
        t0 = time.perf_counter()
        game = load_game(args.game, args.players, overlays)
        loads.append(time.perf_counter() - t0)
    play_games(game, min(10, args.games), args.seed + 10_000)  # warm up
    decisions, rounds, seconds = play_games(game, args.games, args.seed, not args.ask_forced)
    mid = mid_game_state(game, args.seed)
    copy_s = time_copies(mid)
    search_rate = time_search(mid)
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
        "search_iterations_per_s": round(search_rate),
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
    print(f"  search iter/s     {result['search_iterations_per_s']:>10}")
    print(f"  load+compile (ms) {result['load_ms']:>10}")


if __name__ == "__main__":
    main()
