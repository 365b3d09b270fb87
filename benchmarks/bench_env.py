"""Steps per second of random play through the PettingZoo environment, against the engine's
own decisions per second through ``state.apply`` on the same seeded games.

    python benchmarks/bench_env.py                      # PR 4p and SJ 3p, 3 rounds
    python benchmarks/bench_env.py --games 10 --rounds 5
    python benchmarks/bench_env.py --against /path/to/other/checkout

A step is one ``env.step`` plus the ``env.last()`` (the observation of the agent to move) that
precedes it, what every agent loop does; the random agent draws from the action mask with
Python's ``random`` (numpy's ``Generator.choice`` alone costs about as much as a decision). With ``--against``, each round runs this checkout and
the other one in turn (each in its own process, ``PYTHONPATH`` pointing at it), so a busy
machine slows both alike; read the ratio. CPU time (``time.process_time``) is measured, not
wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [("puerto-rico", 4), ("san-juan", 3)]


def env_steps(game: str, players: int, games: int, seed: int) -> tuple[int, float]:
    """Random games through the PettingZoo env: (steps, CPU seconds)."""
    import random

    import numpy as np

    from interpreter.agents import make_env

    env = make_env(game, players=players)
    env.reset(seed=seed)  # builds the spaces (cached) before the clock starts
    steps = 0
    start = time.process_time()
    for g in range(games):
        env.reset(seed=seed + g)
        rng = random.Random(seed + g)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps, time.process_time() - start


def engine_steps(game: str, players: int, games: int, seed: int) -> tuple[int, float]:
    """The same number of random games through ``state.apply``: (decisions, CPU seconds)."""
    import random

    from interpreter.engine.loader import load_game

    g = load_game(game, players, [])
    steps = 0
    start = time.process_time()
    for i in range(games):
        s = g.new_state(seed + i)
        s.log = None
        rng = random.Random(seed + i)
        while not s.is_over:
            s.apply(rng.choice(s.legal_options()))
            steps += 1
    return steps, time.process_time() - start


def measure(games: int, seed: int) -> dict[str, float]:
    out = {}
    for game, players in CONFIGS:
        steps, secs = env_steps(game, players, games, seed)
        out[f"env {game} {players}p"] = steps / secs
        steps, secs = engine_steps(game, players, games, seed)
        out[f"engine {game} {players}p"] = steps / secs
    return out


def in_checkout(checkout: Path, games: int, seed: int) -> dict[str, float]:
    code = (
        f"import sys, json; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); "
        f"from bench_env import measure; print(json.dumps(measure({games}, {seed})))"
    )
    env = dict(os.environ, PYTHONPATH=str(checkout))
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
    checkouts = [("this", ROOT)] + ([("other", a.against.resolve())] if a.against else [])
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
