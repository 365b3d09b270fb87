"""The collector: loads coverage builds of games and adds up their counters by rule point.

The same point compiled in several builds (two player counts, a base with and without an
overlay, a rule function inlined at several call sites) is one key, so a point ran when any
of its copies ran.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.engine import machine
from interpreter.engine.game import Game
from interpreter.engine.loader import load_game_and_data
from interpreter.model.probes import Point, Probes

__all__ = ["Coverage", "count_grants", "coverage_build"]


class Coverage:
    """Counts of every rule point of the games it loaded (or was given)."""

    def __init__(self) -> None:
        self._live: list[Probes] = []  # read when the report is made
        self._given: Counter[Point] = Counter()
        self._known: set[Point] = set()

    # -- games ------------------------------------------------------------------------------
    def load_game_and_data(
        self,
        name_or_path: str,
        players: int,
        overlays: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
    ) -> tuple[Game, Any]:
        """A coverage build of a game (as engine.loader's), counted in this collector."""
        game, data = coverage_build(name_or_path, players, overlays, options)
        probes = game.rules.probes
        assert probes is not None, "a coverage build counts"
        self._live.append(probes)
        return game, data

    def load_game(
        self,
        name_or_path: str,
        players: int,
        overlays: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
    ) -> Game:
        return self.load_game_and_data(name_or_path, players, overlays, options)[0]

    def add(self, probes: Probes, counts: Mapping[int, int] | None = None) -> None:
        """The points of `probes` with `counts` (index -> runs) that ran elsewhere (a worker
        process); its own counters when None."""
        self._known.update(probes.points)
        if counts is None:
            counts = dict(enumerate(probes.counts))
        for k, n in counts.items():
            if n:
                self._given[probes.points[int(k)]] += n

    # -- results ----------------------------------------------------------------------------
    def totals(self) -> dict[Point, int]:
        """Every known point -> how often it ran (0: never)."""
        out: Counter[Point] = Counter(dict.fromkeys(self._known, 0))
        out.update(self._given)
        for probes in self._live:
            for point, n in zip(probes.points, probes.counts, strict=True):
                out[point] += n
        return dict(out)


def coverage_build(
    name_or_path: str,
    players: int,
    overlays: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
) -> tuple[Game, Any]:
    """engine.loader.load_game_and_data, compiled with counters (``game.rules.probes``)."""
    game, data = load_game_and_data(name_or_path, players, overlays, options, Probes())
    count_grants(game)
    return game, data


def count_grants(game: Game) -> None:
    """Make `game` (a coverage build) count each entry's grant whenever a rule reads an
    ability that an active piece of that entry adds to."""
    rules = game.rules
    probes = rules.probes
    assert probes is not None, "a coverage build counts"
    points = probes.grants
    if not points:
        return
    counts = probes.counts
    abilities = rules.env.abilities
    plain = game.ability

    def ability(s: Any, who: Any, name: str) -> int:
        granted = abilities.get(name) or {}
        seat = s.p[who]
        for area in rules.player_areas:
            for piece in seat[area]:
                k = points.get((piece["type"], name))
                if k is not None and granted.get(piece["type"]):
                    if machine.is_active(rules, s, piece):
                        counts[k] += 1
        return plain(s, who, name)

    game.ability = ability
    rules.env.runtime["ability"] = ability
