"""What both drawings of ``simulate --report`` show, taken once from a result document.

The HTML page (report.py) and the PNG figure (report_png.py) draw the same charts from the same
numbers: the bars and intervals, the histogram values and their bins, the statistics tables.
Both import this module, and neither imports the other's drawing code.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["BAR", "SEAT_RATES", "STAT_KEYS", "Charts", "Item", "bin_counts", "charts"]

BAR = "#4878a8"
SEAT_RATES = "Win rate per seat (95% Wilson interval, ties shared)"
STAT_KEYS = ("n", "mean", "sd", "min", "q10", "q25", "median", "q75", "q90", "max")

# one bar: label, value, and its 95% interval when it has one
Item = tuple[str, float, tuple[float, float] | None]


@dataclass(frozen=True)
class Charts:
    """The content of a report; each drawing lays it out (and escapes it) in its own way."""

    title: str
    players: int
    overlays: str
    bots: str
    seed: Any
    finished: int
    planned: int
    interrupted: bool
    ties: int  # games won jointly by two or more seats: each counts 1/k to its k winners
    seats: list[Item]
    bot_rates: list[Item]
    triggers: list[Item]
    families: list[Item]  # the 20 option families chosen most per game
    ids: list[Item]  # the 30 entries picked most per game
    scores: list[float]  # every seat's final score of every game
    rounds: list[float]  # every game's length
    round_bins: int  # one bin per round count between the shortest and the longest game
    stats: list[tuple[str, dict[str, Any]]]  # score, winner's score, rounds, decisions

    @property
    def ties_text(self) -> str:
        """How many games tied, said under the title (the win rates share their wins)."""
        return f"{self.ties} of {self.finished} games tied (a tie's win shared by its winners)"


def _most(entries: dict[str, Any], top: int) -> list[Item]:
    ranked = sorted(entries.items(), key=lambda kv: -kv[1]["per_game"])
    return [(name, e["per_game"], None) for name, e in ranked[:top]]


def charts(doc: dict[str, Any]) -> Charts:
    """The charts of a ``simulate`` result document (its games may be left out: empty charts)."""
    c, s, run = doc["config"], doc["summary"], doc["run"]
    games = doc.get("games", [])
    rounds = s["length"]["rounds"]
    return Charts(
        title=f"{c['game']}: {c['players']} players, {run['finished']} games",
        players=c["players"],
        overlays=", ".join(c.get("overlay_ids", c["overlays"])) or "none",
        bots=", ".join(c["seats"]),
        seed=c["seed"],
        finished=run["finished"],
        planned=c["games"],
        interrupted=bool(run.get("interrupted")),
        ties=s.get("ties", {}).get("count", 0),
        seats=[
            (f"seat {r['seat']} ({r['bot']})", r["rate"] or 0.0, tuple(r["ci95"]))
            for r in s["win_rate"]["seats"]
        ],
        bot_rates=[
            (name, r["rate"] or 0.0, tuple(r["ci95"])) for name, r in s["win_rate"]["bots"].items()
        ],
        triggers=[(t, r["rate"] or 0.0, tuple(r["ci95"])) for t, r in s["triggers"].items()],
        families=_most(s["choices"]["families"], 20),
        ids=_most(s["choices"]["ids"], 30),
        scores=[t for g in games for t in g["totals"]],
        rounds=[g["rounds"] for g in games],
        round_bins=max(1, int(rounds.get("max", 1) - rounds.get("min", 0)) + 1),
        stats=[
            ("score", s["scores"]["all"]),
            ("winner's score", s["scores"]["winner"]),
            ("rounds", rounds),
            ("decisions", s["length"]["decisions"]),
        ],
    )


def bin_counts(values: Sequence[float], bins: int) -> tuple[float, float, list[int]]:
    """``(low edge, bin width, count per bin)`` for a non-empty list of values.

    Whole numbers get bins of whole width (so no bin spans one value more than another) and
    may get fewer bins than asked; other values get ``bins`` equal ranges.  Shared by the HTML
    and the PNG report so both draw the same bars.
    """
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        width: float = max(1, math.ceil((hi - lo + 1) / bins))
        bins = max(1, math.ceil((hi - lo + 1) / width))
    else:
        if hi == lo:
            hi = lo + 1
        width = (hi - lo) / bins
    seen = Counter(min(bins - 1, int((v - lo) / width)) for v in values)
    return lo, width, [seen.get(b, 0) for b in range(bins)]
