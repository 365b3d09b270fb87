"""Helpers for the cities of a real San Juan state: build, clear and read them, the trader's
tile, and the score.

Buildings come from the deck and go back to it (see helpers.py: no card is created or lost).
"""

from __future__ import annotations

from typing import Any

from .helpers import take


def give_building(s: Any, seat: int, card: str, good: bool = False) -> dict:
    """Build `card` for `seat` for free (from the deck); `good`: a face-down good on it too."""
    take(s, card)
    piece = {"type": card, "good": 0, "fresh": 0}
    s.p[seat]["city"].append(piece)
    if good:
        load_good(s, piece)
    return piece


def load_good(s: Any, piece: dict) -> None:
    assert piece["good"] == 0
    s.g["goods-cards"].append(s.g["deck"].pop(0))
    piece["good"] = 1


def clear_city(s: Any, seat: int) -> None:
    """Back to the deck: every building of `seat` and the goods on them."""
    for b in s.p[seat]["city"]:
        if b["good"]:
            s.g["deck"].insert(0, s.g["goods-cards"].pop())
        if b["type"] != "cathedral":
            s.g["deck"].insert(0, b["type"])
        elif "cathedral-left" in s.g:
            s.g["cathedral-left"] += 1
    s.p[seat]["city"].clear()


def set_city(s: Any, seat: int, *cards: str) -> None:
    clear_city(s, seat)
    for c in cards:
        give_building(s, seat, c)


def set_tile(s: Any, tile: str) -> None:
    """The trader's next tile is `tile` (order of the others unchanged)."""
    s.g["tile-index"] = s.g["tile-order"].index(tile)


def city(s: Any, seat: int) -> list[str]:
    return [b["type"] for b in s.p[seat]["city"]]


def goods(s: Any, seat: int) -> int:
    return sum(b["good"] for b in s.p[seat]["city"])


def score(s: Any) -> Any:
    """Score a copy of the state now (the game-end rules of the ruleset), return the result."""
    c = s.copy()
    s.game.finish(c)
    return c.result()


def scores(s: Any, seat: int) -> dict:
    return score(s).scores[seat]
