"""What the new-game page offers: the games, their expansions and options, the bots."""

from __future__ import annotations

from typing import Any

from interpreter.bots import BOTS
from interpreter.load.catalog import list_games

__all__ = ["games_listing"]


def games_listing() -> dict[str, Any]:
    """Games (players, overlays, options with their choices and texts) and bot names."""
    games = []
    for info in list_games():
        games.append(
            {
                "name": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "overlays": [
                    {"name": o.name, "title": o.title, "options": [_option(x) for x in o.options]}
                    for o in info.overlays
                ],
                "options": [_option(x) for x in info.options],
            }
        )
    bots = [{"name": spec.name, "doc": spec.doc, "game": spec.game} for spec in BOTS.values()]
    return {"games": games, "bots": bots}


def _option(info: Any) -> dict[str, Any]:
    return {"name": info.name, "default": info.default, "choices": info.choices, "doc": info.doc}
