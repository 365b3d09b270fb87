"""What one worker process of ``rulebook serve --workers N`` costs: its memory once it has
compiled a game and holds many tables of it, and its time per move (the move, the options it
leaves worded, the snapshot sent back), measured on a Player in this process.

    python benchmarks/bench_workers.py                  # 50 tables of 3-player Puerto Rico
    python benchmarks/bench_workers.py --tables 20 --moves 500
"""

from __future__ import annotations

import argparse
import random
import time

from interpreter.serve.caps import Caps
from interpreter.serve.player import Player


def rss_mb() -> float:
    """This process's resident memory (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="puerto-rico")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    print(f"imports: {rss_mb():.1f} MB")
    player = Player(Caps(), budget=True)
    header = {
        "game": args.game,
        "players": args.players,
        "overlays": [],
        "options": {},
        "seed": 1,
        "seats": ["human"] * args.players,
        "format": "rulebook-save/4",
    }
    started = time.process_time()
    player.handle({"op": "open", "table": "first", "header": header, "choices": []})
    print(f"compiled, one table: {rss_mb():.1f} MB, {time.process_time() - started:.2f} s CPU")
    for n in range(args.tables):
        player.handle({"op": "open", "table": f"t{n}", "header": header, "choices": []})
    print(f"{args.tables + 1} tables: {rss_mb():.1f} MB")
    rng = random.Random(1)
    started, made = time.perf_counter(), 0
    for n in range(args.moves):
        state = player.tables[f"t{n % args.tables}"].state
        if state.is_over:
            continue
        request = {
            "op": "move",
            "table": f"t{n % args.tables}",
            "option": rng.choice(state.legal_options()),
            "log_from": len(state.log or ()),
            "history_from": len(state.history),
        }
        player.handle(request)
        made += 1
    per_move = (time.perf_counter() - started) / max(made, 1) * 1000
    print(f"{made} moves: {per_move:.2f} ms a move (with its options and snapshot)")


if __name__ == "__main__":
    main()
