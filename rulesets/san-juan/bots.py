"""San Juan bots, loaded by the engine's plugin mechanism (interpreter/bots/plugins.py).

``sj-heuristic`` decides only from its seat's view (its own hand, every city) and the legal
option ids. It reads the cards' costs, victory points and kinds from this folder's
ruleset.yaml once; cards a variant adds get middling values.

* roles: builder when a good building is affordable, producer for empty production buildings,
  trader for goods to sell, councillor otherwise (prospector last);
* build the card worth most (victory points, then cost: a 6-cost violet card beats an indigo
  plant), production buildings early; pay, discard and tuck under the chapel the cheapest
  cards; keep the dearest; produce and sell the most valuable goods.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

RULESET = Path(__file__).resolve().parent / "ruleset.yaml"
GOOD_VALUE = {"indigo": 1, "sugar": 2, "tobacco": 3, "coffee": 4, "silver": 5}


@cache
def cards() -> dict[str, dict[str, Any]]:
    """Static attributes of the base ruleset's cards, read once per process."""
    from interpreter.compose.rulefiles import load_rules_data
    from interpreter.load.schema import to_plain

    data = to_plain(load_rules_data(str(RULESET))[0])
    cat = data["catalogs"]["cards"]
    defaults = cat.get("defaults", {})
    return {k: {**defaults, **(v or {})} for k, v in cat["entries"].items()}


def _card(name: str) -> dict[str, Any]:
    return cards().get(name, {"cost": 3, "vp": 2, "kind": "city", "produces": "none"})


class HeuristicBot:
    """Scores every legal option from the seat's view; takes the best."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}:sj-heuristic")

    def _hand(self, me: Mapping[str, Any]) -> list[str]:
        hand = me.get("hand")
        return list(hand) if isinstance(hand, list) else []

    def card_value(self, name: str, me: Mapping[str, Any], rnd: int) -> float:
        c = _card(name)
        value = c.get("vp", 1) * 2.0 + c.get("cost", 1) * 0.6
        if c.get("kind") == "production":
            value += max(0.0, 3.0 - rnd * 0.3) + GOOD_VALUE.get(c.get("produces"), 0) * 0.3
        if c.get("cost", 0) >= 6:
            value += 2.0
        if any(b["type"] == name for b in me["city"]) and c.get("kind") != "production":
            value -= 20.0  # a violet building only once per city
        return value

    def _role_value(self, role: str, me: Mapping[str, Any], rnd: int) -> float:
        hand = self._hand(me)
        city = me["city"]
        if role == "builder":
            best = 0.0
            for c in set(hand):
                if _card(c).get("cost", 9) - 1 <= len(hand) - 1:
                    best = max(best, self.card_value(c, me, rnd))
            return 1.0 + best * 0.5
        if role == "producer":
            empty = [
                b for b in city if _card(b["type"]).get("kind") == "production" and not b["good"]
            ]
            return len(empty) * 1.6 + (0.5 if empty else 0.0)
        if role == "trader":
            full = [b for b in city if b.get("good")]
            return len(full) * 2.0 + (1.0 if full else 0.0)
        if role == "councillor":
            return 2.5
        return 1.5  # prospector, or a role a variant adds

    def score(self, option: str, view: Mapping[str, Any]) -> float:
        me = view["players"][self.seat]
        rnd = view["round"]
        family, _, rest = option.partition(":")
        if family == "role":
            return self._role_value(rest, me, rnd)
        if family == "build":
            return 10.0 + self.card_value(rest, me, rnd)
        if family in ("pay", "discard"):
            return 10.0 - self.card_value(rest, me, rnd)
        if family == "chapel":
            return 5.0 - self.card_value(rest, me, rnd) * 0.5
        if family in ("keep", "gold-keep"):
            return self.card_value(rest, me, rnd)
        if family in ("produce", "sell"):
            return 1.0 + GOOD_VALUE.get(_card(rest).get("produces"), 0)
        if family in ("no-cover", "keep-goods", "use-library"):
            return 0.5
        return 0.0  # pass, cover, black-market and anything unknown

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        if not legal:
            raise ValueError("no legal options to choose from")
        if len(legal) == 1:
            return legal[0]
        return max((self.score(o, view), self.rng.random(), o) for o in legal)[2]


BOTS = {
    "sj-heuristic": (
        "San Juan: builds the most valuable card it can, pays with the cheapest, produces "
        "and sells the dearest goods (decides from its own view)",
        lambda seat, seed: HeuristicBot(seat, seed),
        "Heuristic bot",
    ),
}
