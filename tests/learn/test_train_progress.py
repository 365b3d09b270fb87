"""``rulebook train`` tells of each self-play game as it finishes (an iteration can take many
minutes), played here or by workers, before the iteration's own line."""

from __future__ import annotations

import concurrent.futures as cf
import re
from pathlib import Path

import pytest

from interpreter.learn.train import train
from tests.helpers.training import toy_config

TOY = str(Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml")


@pytest.mark.parametrize("workers", [0, 2])
def test_a_line_per_game_then_the_iteration(tmp_path: Path, workers: int) -> None:
    cfg = toy_config(
        tmp_path / "m.npz",
        iterations=2,
        search="search:iterations=10:depth=8",
        guided_search="search:iterations=10",
        hidden=(8,),
        epochs=2,
    )
    lines: list[str] = []
    pool = cf.ThreadPoolExecutor(workers) if workers else None
    try:
        train(cfg, pool, lines.append)
    finally:
        if pool is not None:
            pool.shutdown()
    games = [re.match(r"iteration (\d)/2: game (\d)/3 played \((\d+) decisions", x) for x in lines]
    assert [(m.group(1), m.group(2)) for m in games if m] == [
        ("1", "1"),
        ("1", "2"),
        ("1", "3"),
        ("2", "1"),
        ("2", "2"),
        ("2", "3"),
    ]
    assert all(int(m.group(3)) > 0 for m in games if m)
    ends = [i for i, x in enumerate(lines) if re.match(r"iteration \d/2: \d+ games", x)]
    assert ends == [3, 7]  # each iteration's summary after its three games
