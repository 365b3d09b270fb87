"""Write a simulation: the JSON document (config, run, summary, games) and a CSV of the games."""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interpreter.diagnostics.errors import ConfigError
from interpreter.engine.savefile import winners_of
from interpreter.engine.standings import tiebreak_text
from interpreter.simulate.summary import FORMAT, summarise

__all__ = ["csv_header", "read_result", "write_csv", "write_json"]


def _atomic_write(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".sim-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_json(path: str, document: dict[str, Any]) -> None:
    """The whole document, pretty enough to read, written atomically."""
    _atomic_write(path, json.dumps(document, indent=1) + "\n")


def csv_header(seats: Sequence[str], components: Sequence[str]) -> list[str]:
    cols = ["index", "seed", "winner", "winner_bot", "winners", "rounds", "decisions", "trigger"]
    for i in range(len(seats)):
        cols += [f"bot_{i}", f"total_{i}", f"tiebreak_{i}"]
        cols += [f"{c}_{i}" for c in components]
    return cols


def write_csv(path: str, document: dict[str, Any]) -> None:
    """One row per finished game: who won, length, end trigger, every seat's score.

    ``winner`` is the first winner; ``winners`` every seat of a full tie, space-separated
    (``0 2``), so a count of wins can share each tie among its winners as the summary does.
    """
    seats = document["config"]["seats"]
    games = document["games"]
    components = list(games[0]["components"][0]) if games and games[0]["components"] else []
    text = io.StringIO(newline="")
    w = csv.writer(text)
    w.writerow(csv_header(seats, components))
    for r in games:
        by_seat = r.get("seats", seats)  # a seat-rotated game names its own bots
        row: list[Any] = [
            r["index"],
            r["seed"],
            r["winner"],
            by_seat[r["winner"]],
            " ".join(map(str, winners_of(r))),
            r["rounds"],
            r["decisions"],
            r["trigger"],
        ]
        for i, bot in enumerate(by_seat):
            row += [bot, r["totals"][i], tiebreak_text(r["tiebreaks"][i])]
            row += [r["components"][i].get(c, "") for c in components]
        w.writerow(row)
    _atomic_write(path, text.getvalue())


def read_result(path: str) -> dict[str, Any]:
    """Read a ``simulate --out`` file back; a ConfigError names the file when it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a text file") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ConfigError(
            f'{path}: not a simulation result (expected "format": "{FORMAT}"; '
            "write one with 'rulebook simulate --out')"
        )
    for key in ("config", "summary", "run"):
        if not isinstance(doc.get(key), dict):
            raise ConfigError(f"{path}: the result has no '{key}' object")
    if "ties" not in doc["summary"] and isinstance(doc.get("games"), list) and doc["games"]:
        # written before ties were shared (each credited to its lowest seat): summarised again
        # from its games, so that it counts wins as a result written now does
        doc["summary"] = summarise(doc["games"], doc["config"]["seats"])
    return doc
