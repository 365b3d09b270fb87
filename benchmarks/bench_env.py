"""Steps per second of random play through the PettingZoo environment, against the
engine's own decisions per second through ``state.apply`` on the same seeds, game by game in
turn.

    python benchmarks/bench_env.py                      # PR 4p and SJ 3p, 3 rounds
    python benchmarks/bench_env.py --games 10 --rounds 5
    python benchmarks/bench_env.py --against /path/to/other/checkout

A step is one ``env.step`` plus the ``env.last()`` (the observation of the agent to move) that
precedes it, what every agent loop does; the random agent draws from the action mask with
Python's ``random`` (numpy's ``Generator.choice`` alone costs about a third of a decision,
``np.flatnonzero`` a tenth).
With ``--against``, each round runs this checkout and the other one in turn (each in its own
process, ``PYTHONPATH`` pointing at it), so a busy machine slows both alike; read the ratio.
CPU time (``time.process_time``) is measured, not wall time. The objects loaded before the
clock starts are frozen out of the garbage collector (``gc.freeze``), as a long-running trainer
would do; otherwise a full collection of them lands in one game or another by chance.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [("puerto-rico", 4), ("san-juan", 3)]


def env_game(env: Any, seed: int) -> int:
    """One random game through the PettingZoo env: its steps."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
        steps += 1
    return steps


def engine_game(game: Any, seed: int) -> int:
    """The same game's seed played at random through ``state.apply``: its decisions."""
    s = game.new_state(seed)
    s.log = None
    rng = random.Random(seed)
    steps = 0
    while not s.is_over:
        s.apply(rng.choice(s.legal_options()))
        steps += 1
    return steps


def measure(games: int, seed: int) -> dict[str, float]:
    """Steps per CPU second of each configuration, env and engine game by game in turn (a
    machine that slows down slows both)."""
    from interpreter.agents import make_env
    from interpreter.engine.loader import load_game

    out = {}
    for name, players in CONFIGS:
        env = make_env(name, players=players)
        # the engine as games run it: a plain build (the env's own game is a journal build,
        # whose rules also note what they write: its cost is the env's)
        game = load_game(name, players) if getattr(env.game, "journal", False) else env.game
        env_game(env, seed - 1)  # builds the spaces and warms both up before the clock
        engine_game(game, seed - 1)
        # the loaded games and spaces out of the collector's way: a full collection walks
        # them all, and where one falls (an env game or an engine game) is chance, enough to
        # move a few games' rate by half
        gc.collect()
        gc.freeze()
        totals = {"env": [0, 0.0], "engine": [0, 0.0]}
        for g in range(games):
            start = time.process_time()
            steps = env_game(env, seed + g)
            totals["env"][0] += steps
            totals["env"][1] += time.process_time() - start
            start = time.process_time()
            steps = engine_game(game, seed + g)
            totals["engine"][0] += steps
            totals["engine"][1] += time.process_time() - start
        for kind, (steps, secs) in totals.items():
            out[f"{kind} {name} {players}p"] = steps / secs
    return out


def in_checkout(checkout: Path, games: int, seed: int) -> dict[str, float]:
    """The rates of ``checkout``, measured in its own process."""
    code = (
        f"import sys, json; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); "
        f"from bench_env import measure; print(json.dumps(measure({games}, {seed})))"
    )
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=checkout, env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=5, help="games per configuration and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against", type=Path, help="another checkout, run in turn with this one")
    a = ap.parse_args()
    checkouts = [("this", ROOT)]
    if a.against:
        checkouts.append(("other", a.against.resolve()))
    rows: dict[str, dict[str, list[float]]] = {}
    for r in range(a.rounds):
        for label, path in checkouts if r % 2 == 0 else checkouts[::-1]:
            for key, value in in_checkout(path, a.games, a.seed).items():
                rows.setdefault(key, {}).setdefault(label, []).append(value)
    for key, by in rows.items():
        cells = "  ".join(
            f"{label} {' '.join(f'{v:,.0f}' for v in vals)}" for label, vals in by.items()
        )
        line = f"{key:26} per s: {cells}"
        if "other" in by:
            ratios = [t / o for t, o in zip(by["this"], by["other"], strict=True)]
            line += "  ratio " + " ".join(f"{x:.2f}x" for x in ratios)
        print(line)
    for game, players in CONFIGS:
        env = rows[f"env {game} {players}p"]["this"]
        eng = rows[f"engine {game} {players}p"]["this"]
        shares = " ".join(f"{e / n:.2f}" for e, n in zip(env, eng, strict=True))
        print(f"env / engine, {game} {players}p: {shares}")


if __name__ == "__main__":
    main()
