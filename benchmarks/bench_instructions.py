"""The engine's work per random game in machine instructions: a figure other tenants of the
machine do not move.

    python benchmarks/bench_instructions.py                       # 4-player Puerto Rico
    python benchmarks/bench_instructions.py --game puerto-rico,san-juan --games 10 \\
        --against /path/to/other/checkout
    python benchmarks/bench_instructions.py --load --game puerto-rico,san-juan --games 2
    python benchmarks/bench_instructions.py --two-builds --games 8

With ``--load`` the count is of loading and compiling the game again (``load_game``, the
``load+compile`` of bench_games.py) instead of playing it: ``--games`` loads after ``--warm``
loads, the first of which imports the modules and parses the rule files.

With ``--two-builds`` the game is loaded twice and each counted game is played on both builds in
turn (twice the games): the count a process pays when builds of the same rules share the code
they were written as, e.g. a server's tables or a test suite's games.

On a shared machine the CPU time of the same run moves by tens of percent from one minute to
the next (bench_games.py compares checkouts in turns for that reason, and still needs several
runs to see a 5% change). Counting instructions under valgrind's callgrind is exact and
repeatable: each checkout plays the same seeded random games, and the count of a run that plays
none of them is taken off (start-up, imports, loading the game, and `--warm` games played first
in both runs, so the code the engine writes for a step on its first use is not counted:
compiling it costs as much as many decisions), so what is left is the games' own steady work.
Read the ratio between checkouts; instructions are not time (a cache miss costs more than an
addition), but a change that removes a tenth of the instructions removes about a tenth of the
time. Needs valgrind (`apt-get install -y valgrind`); it runs some 50x slower than Python
alone, so a few games are enough.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAY = """
import sys
sys.path.insert(0, {bench!r})
from bench_games import play_games
from interpreter.engine.loader import load_game
game = load_game({game!r}, {players}, [])
play_games(game, {warm}, 1)
play_games(game, {games}, {seed})
"""

TWO_BUILDS = """
import sys
sys.path.insert(0, {bench!r})
from bench_games import play_games
from interpreter.engine.loader import load_game
one = load_game({game!r}, {players}, [])
two = load_game({game!r}, {players}, [])
play_games(one, {warm}, 1)
play_games(two, {warm}, 1)
for g in range({games}):
    play_games(one, 1, {seed} + g)
    play_games(two, 1, {seed} + {games} + g)
"""

LOAD = """
from interpreter.engine.loader import load_game
for _ in range({warm} + {games}):
    load_game({game!r}, {players}, [])
"""


def instructions(
    checkout: Path, game: str, players: int, warm: int, games: int, seed: int, mode: str = "play"
) -> int:
    """Instructions callgrind counts for a process that loads `game`, plays `warm` games to
    write the code the engine writes on first use, and then plays `games` (mode ``load``: loads
    it `warm` times, then `games` times more; ``two-builds``: two builds, the games on each in
    turn)."""
    code = {"play": PLAY, "load": LOAD, "two-builds": TWO_BUILDS}[mode].format(
        bench=str(HERE), game=game, players=players, warm=warm, games=games, seed=seed
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
            + [sys.executable, "-c", code],
            cwd=checkout,
            env=env,
            capture_output=True,
            text=True,
        )
        found = re.search(r"Collected : (\d+)", run.stderr)
        if run.returncode != 0 or found is None:
            tail = "\n".join(run.stderr.splitlines()[-5:])
            raise SystemExit(f"the run in {checkout} failed:\n{tail}")
        return int(found.group(1))


def per_game(
    checkout: Path, game: str, players: int, warm: int, games: int, seed: int, mode: str = "play"
) -> float:
    played = instructions(checkout, game, players, warm, games, seed, mode)
    idle = instructions(checkout, game, players, warm, 0, seed, mode)
    return (played - idle) / (2 * games if mode == "two-builds" else games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="puerto-rico", help="one or more games, comma-separated")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument(
        "--warm",
        type=int,
        default=2,
        help="games played first and not counted: the engine writes a step's code on first"
        " use, and that one-off cost would swamp a few games' difference",
    )
    ap.add_argument("--against", type=Path, help="another checkout, measured the same way")
    ap.add_argument(
        "--load", action="store_true", help="count loading the game again, not playing it"
    )
    ap.add_argument(
        "--two-builds",
        action="store_true",
        help="load the game twice and play each counted game on both builds in turn",
    )
    ap.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install -y valgrind)")
    this = HERE.parent
    if args.load and args.two_builds:
        raise SystemExit("--load and --two-builds count different things: choose one")
    mode = "load" if args.load else "two-builds" if args.two_builds else "play"
    summary: dict[str, dict[str, float]] = {}
    for game in args.game.split(","):
        row = {"after": per_game(this, game, args.players, args.warm, args.games, args.seed, mode)}
        if args.against is not None:
            row["before"] = per_game(
                args.against, game, args.players, args.warm, args.games, args.seed, mode
            )
        summary[game] = row
        what = "load" if args.load else "game"
        line = f"{game}, {args.players} players, {args.games} random games (seed {args.seed}):"
        if args.load:
            line = f"{game}, {args.players} players, {args.games} loads after {args.warm}:"
        elif args.two_builds:
            line = (
                f"{game}, {args.players} players, {args.games} random games on each of two builds:"
            )
        if "before" in row:
            ratio = row["after"] / row["before"]
            line += (
                f" {row['before'] / 1e6:.1f} -> {row['after'] / 1e6:.1f} million instructions"
                f" a {what} ({ratio:.3f}x)"
            )
        else:
            line += f" {row['after'] / 1e6:.1f} million instructions a {what}"
        print(line, flush=True)
    if args.json:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
