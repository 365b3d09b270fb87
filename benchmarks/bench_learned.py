"""A learned bot's strength and speed: seat-rotated win share against an opponent, CPU per
decision.

    python benchmarks/bench_learned.py puerto-rico -p 3 --model pr3.npz \
        --opponent search:seconds=0.25 --games 102 -j 2
    python benchmarks/bench_learned.py san-juan -p 3 --model sj3.npz --opponent random --json
    python benchmarks/bench_learned.py san-juan -p 3 --bot search:iterations=8:model=sj3.npz \
        --games 0

The learned bot takes one seat and the opponent bot every other; each deal is played once per
seat rotation (``simulate``'s rotation: game i is deal i // players with the bots turned
i % players seats on), so the seat advantage cancels. The share is the learned bot's reward
share (a win counts 1, split among tied winners) over all games, with its Wilson 95%
interval; the fair share is 1/players. CPU milliseconds per decision are measured separately
on a few games with the learned bot in every seat (process time of ``choose`` alone, only the
decisions with more than one option).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.bots import make_bot  # noqa: E402
from interpreter.infoset.worlds import SeatView  # noqa: E402
from interpreter.simulate.batch import SimSpec, load_spec_game, run_simulation  # noqa: E402
from interpreter.simulate.stats import wilson  # noqa: E402


def win_share(args: argparse.Namespace, learned: str) -> dict:
    players = args.players
    games = -(-args.games // players) * players  # whole rotations
    spec = SimSpec(
        game=args.game,
        players=players,
        seats=(learned, *[args.opponent] * (players - 1)),
        overlays=tuple(args.overlays),
        seed=args.seed,
        games=games,
        rotate=True,
    )
    start = time.perf_counter()
    run = run_simulation(spec, args.jobs)
    wins = 0.0
    for r in run.records:
        seat = r["index"] % players  # the learned bot's seat after the rotation
        if seat in r["winners"]:
            wins += 1.0 / len(r["winners"])
    n = len(run.records)
    lo, hi = wilson(wins, n)  # a shared count as it is (simulate/stats.py)
    return {
        "games": n,
        "not_ended": len(run.not_ended),
        "share": round(wins / n, 4) if n else None,
        "ci95": [round(lo, 4), round(hi, 4)],
        "fair_share": round(1 / players, 4),
        "seconds": round(time.perf_counter() - start, 1),
    }


def ms_per_decision(args: argparse.Namespace, learned: str, games: int = 3) -> dict:
    spec = SimSpec(
        game=args.game,
        players=args.players,
        seats=(learned,) * args.players,
        overlays=tuple(args.overlays),
    )
    game = load_spec_game(spec)
    cpu = 0.0
    decisions = 0
    for g in range(games):
        bots = [make_bot(learned, seat, g) for seat in range(args.players)]
        state = game.new_state(args.seed + g)
        state.log = None
        while not state.is_over and state.decisions < 5000:
            legal = state.legal_options()
            seat = state.to_move
            if len(legal) > 1:
                t = time.process_time()
                choice = bots[seat].choose(SeatView(state, seat), legal)
                cpu += time.process_time() - t
                decisions += 1
            else:
                choice = legal[0]
            state.apply(choice)
    return {"decisions": decisions, "cpu_ms": round(1000 * cpu / max(1, decisions), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("-p", "--players", type=int, default=3)
    parser.add_argument("--with", dest="overlays", action="append", default=[])
    parser.add_argument("--model", help="the model file of 'rulebook train'")
    parser.add_argument(
        "--bot",
        metavar="SPEC",
        help="measure this bot spec instead of learned:MODEL (e.g. a small guided search, "
        "search:iterations=8:model=FILE)",
    )
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument(
        "--params",
        default="",
        metavar="K=V[:K=V]",
        help="more learned-bot parameters, as in lookahead=1:prior=0.25",
    )
    parser.add_argument(
        "--speed-games", type=int, default=3, help="games timed for CPU per decision (0: none)"
    )
    parser.add_argument("--opponent", default="search:seconds=0.25")
    parser.add_argument("--games", type=int, default=102)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.model and not args.bot:
        parser.error("name --model FILE (or --bot SPEC)")
    learned = args.bot or f"learned:{args.model}"
    if args.temperature:
        learned += f":temperature={args.temperature}"
    if args.params:
        learned += f":{args.params}"
    out = {
        "game": args.game,
        "players": args.players,
        "overlays": args.overlays,
        "learned": learned,
        "opponent": args.opponent,
        "speed": ms_per_decision(args, learned, args.speed_games),
        "strength": win_share(args, learned) if args.games else None,
    }
    if args.json:
        print(json.dumps(out))
    else:
        s, v = out["strength"], out["speed"]
        if s is None:
            print(f"{learned}: {v['cpu_ms']} ms CPU per decision ({v['decisions']} decisions)")
            return
        print(
            f"{learned} vs {args.opponent}: share {s['share']} (95% {s['ci95'][0]}-"
            f"{s['ci95'][1]}, fair {s['fair_share']}) over {s['games']} seat-rotated games "
            f"in {s['seconds']}s; {v['cpu_ms']} ms CPU per decision ({v['decisions']} decisions)"
        )


if __name__ == "__main__":
    main()
