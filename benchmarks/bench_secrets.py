"""The long leak check: every shipped game and house rule through `rulebook validate --secrets`.

    python benchmarks/bench_secrets.py               # 20 games a game, 5 a house rule
    python benchmarks/bench_secrets.py --games 40 --house-games 10

The test suite plays a few games of each composition, in-process
(tests/validate/test_secrets.py); this plays the long run the suite leaves out, through the
command as a user runs it: every shipped ruleset and overlay, the example games and the toy
games at ``--games`` games a composition, each house rule of examples/variants at
``--house-games``. It prints, for each part, the compositions, games and decisions played, the
wall time and the processor time of the command and its workers (which other work on the
machine does not change, as it does wall time), and every finding; it exits with 1 when a part
finds a leak or leaves a composition unplayed, so it can guard a release too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _parts(games: int, house_games: int) -> dict[str, tuple[list[str], int]]:
    toys = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("toy*") if p.is_dir())
    return {
        "games": (["rulesets", "examples/games", *toys], games),
        "house rules": (["examples/variants"], house_games),
    }


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_part(paths: list[str], games: int) -> dict[str, object]:
    """One `rulebook validate PATHS --secrets GAMES --format json`: what it played and found,
    its wall time and the processor time it and its workers used."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", *paths]
        + ["--secrets", str(games), "--format", "json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    wall, used = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode not in (0, 1):
        raise SystemExit(f"validate failed to run:\n{done.stderr}")
    payload = json.loads(done.stdout.strip().splitlines()[-1])
    played = payload["secrets"]
    return {
        "paths": paths,
        "games_each": games,
        "compositions": played.get("compositions"),
        "games": played["games"],
        "decisions": played.get("decisions"),
        "unplayed": played["unplayed"],
        "findings": [
            f"{d['file']}:{d['line']}:{d['column']}: {d['code']} {d['message']}"
            for d in payload["diagnostics"]
            if d["severity"] == "error"
        ],
        "wall_s": round(wall, 1),
        "cpu_s": round(used, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of each game composition")
    parser.add_argument(
        "--house-games", type=int, default=5, help="games of each house rule composition"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {
        name: run_part(paths, games)
        for name, (paths, games) in _parts(args.games, args.house_games).items()
    }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for name, r in results.items():
            print(
                f"{name}: {r['compositions']} compositions, {r['games']} games, "
                f"{r['decisions']} decisions; {r['wall_s']} s wall, {r['cpu_s']} s of processor"
            )
            for line in [*r["unplayed"], *r["findings"]]:  # type: ignore[misc]
                print(f"  {line}")
    clean = all(not r["unplayed"] and not r["findings"] for r in results.values())
    raise SystemExit(0 if clean else 1)


if __name__ == "__main__":
    main()
