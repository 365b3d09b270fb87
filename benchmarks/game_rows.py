"""The JSON-lines files the strength benchmarks write, one finished game a line: read back to
resume a run where it stopped, and to table the results (strength_table.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Every whole game in `path` (none when it does not exist yet)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue  # a line cut short when a run was stopped mid-write
    return rows


def finished_games(path: Path, key: Callable[[dict[str, Any]], tuple]) -> dict[tuple, dict]:
    """The games an earlier run of the same command wrote to `path`, by `key(row)`."""
    return {key(row): row for row in read_rows(path)}
