"""Puerto Rico bots, loaded by the engine's plugin mechanism (interpreter/bots/plugins.py).

``pr-heuristic`` decides only from its seat's view and the legal option ids, like every bot. It
reads the static facts it needs (building costs and victory points, which good a tile or
building makes, ship capacities, prices) from this folder's ruleset.yaml once; pieces added by a
variant that the base ruleset does not know get middling default values.

Each option gets a score; the best one is taken (ties broken by the seat's seeded generator):

* roles: what the role is worth to this seat now (goods it would produce, sell or ship, what it
  could build, free circles it could fill, coins lying on the role);
* build: large buildings and victory points first, then production buildings for goods the
  seat grows but cannot process, then strong violet buildings; never pass when it can build;
* tiles: a quarry early, then plantations that feed an empty production building, valuable
  goods first; colonists go to production pairs and violet buildings before idle plantations;
* produce always; sell, craft, store and keep the most valuable good; load the kind the seat
  holds most of; take every barrel offered (the craftsman's and the aqueduct's extra good) and
  keep every barrel it may at the end of the captain phase (warehouses, the storehouse, the
  windrose's one barrel), the most valuable first, never returning one it could keep;
* a colonist or victory points offered (hospice, university, the mayor's and the captain's
  privileges, harbor, ...): taken, unless taking would bring on the end of the game (the colonist
  supply short of the next ship, the last VP chips) while another seat is ahead.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

RULESET = Path(__file__).resolve().parent / "ruleset.yaml"

# How much a strong violet building helps beyond its victory points (a house opinion).
VIOLET_BONUS = {
    "small-market": 2.0,
    "large-market": 3.0,
    "factory": 4.0,
    "harbor": 4.5,
    "wharf": 4.5,
    "office": 1.5,
    "hacienda": 0.5,
    "construction-hut": 1.0,
    "small-warehouse": 1.5,
    "large-warehouse": 1.5,
    "hospice": 1.5,
    "university": 1.0,
}


@cache
def facts() -> dict[str, Any]:
    """Static data of the base ruleset, read once per process."""
    from interpreter.compose.rulefiles import load_rules_data
    from interpreter.load.schema import to_plain

    data = to_plain(load_rules_data(str(RULESET))[0])
    cats = data["catalogs"]
    bdefaults = cats["buildings"].get("defaults", {})
    buildings = {k: {**bdefaults, **(v or {})} for k, v in cats["buildings"]["entries"].items()}
    tdefaults = cats["tiles"].get("defaults", {})
    tiles = {k: {**tdefaults, **(v or {})} for k, v in cats["tiles"]["entries"].items()}
    ships = {k: (v or {}).get("capacity", 0) for k, v in cats["cargo-ships"]["entries"].items()}
    return {
        "buildings": buildings,
        "tiles": tiles,
        "ships": ships,
        "price": data["tables"]["price"],
        "needs-building": data["tables"]["needs-building"],
        "city-spaces": data["tables"]["city-spaces"],
        "island-spaces": data["tables"]["island-spaces"],
    }


def _capacity(ship: str) -> int:
    known = facts()["ships"].get(ship)
    if known is not None:
        return known
    digits = re.findall(r"\d+", ship)
    return int(digits[-1]) if digits else 6


class HeuristicBot:
    """Scores every legal option from the seat's view; takes the best."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}:pr-heuristic")

    # -- what the seat has -------------------------------------------------------------------
    def _production(self, me: Mapping[str, Any]) -> dict[str, int]:
        f = facts()
        grown: dict[str, int] = {}
        for tile in me["island"]:
            good = f["tiles"].get(tile["type"], {}).get("good")
            if good and good != "none":
                grown[good] = grown.get(good, 0) + tile["workers"]
        made: dict[str, int] = {}
        for b in me["city"]:
            good = f["buildings"].get(b["type"], {}).get("good")
            if good and good != "none":
                made[good] = made.get(good, 0) + b["workers"]
        out = {}
        for good, n in grown.items():
            out[good] = n if not f["needs-building"].get(good, 1) else min(n, made.get(good, 0))
        return out

    def _building_value(self, b: str, me: Mapping[str, Any], rnd: int) -> float:
        f = facts()
        info = f["buildings"].get(b)
        if info is None:  # a building a variant added: worth its place, no more
            return 4.0
        vp = info.get("vp", 1)
        value = vp * (2.0 + min(rnd, 15) * 0.15)
        if info.get("size") == "large" and info.get("kind") == "violet":
            value += 8.0
        good = info.get("good")
        if info.get("kind") == "production" and good and good != "none":
            grown = sum(
                t["workers"] + 1
                for t in me["island"]
                if f["tiles"].get(t["type"], {}).get("good") == good
            )
            has = sum(
                f["buildings"].get(x["type"], {}).get("circles", 1)
                for x in me["city"]
                if f["buildings"].get(x["type"], {}).get("good") == good
            )
            value += 3.0 * min(max(0, grown - has), info.get("circles", 1))
            value += f["price"].get(good, 0) * 0.7
        value += VIOLET_BONUS.get(b, 0.0) * max(0.2, 1 - rnd / 18)
        return value

    def _role_value(self, role: str, me: Mapping[str, Any], g: Mapping[str, Any], view) -> float:
        f = facts()
        coins = g["role-coins"].get(role, 0)
        goods = me["goods"]
        prod = self._production(me)
        rnd = view["round"]
        if role == "craftsman":
            v = sum(n * (1 + f["price"].get(k, 0) * 0.5) for k, n in prod.items())
            v += 1 if any(prod.values()) else 0
        elif role == "trader":
            house = g["trading-house"]
            if sum(house.values()) >= 4:
                v = 0.0
            else:
                sellable = [k for k, n in goods.items() if n > 0 and house.get(k, 0) == 0]
                v = max((f["price"][k] + 1.0 for k in sellable), default=0.0)
        elif role == "captain":
            total = sum(goods.values())
            v = total * 1.1 + (1 if total else 0)
        elif role == "builder":
            quarries = sum(t["workers"] for t in me["island"] if t["type"] == "quarry")
            money = me["doubloons"] + 1
            best = 0.0
            for b, left in g["building-supply"].items():
                info = f["buildings"].get(b)
                if not left or info is None or any(x["type"] == b for x in me["city"]):
                    continue
                cost = max(0, info["cost"] - 1 - min(quarries, info.get("column", 1)))
                if cost <= me["doubloons"] and money > 0:
                    best = max(best, self._building_value(b, me, rnd))
            v = best * 0.6
        elif role == "mayor":
            free = sum(x.get("circles", 1) for x in self._pieces(me)) - sum(
                x["workers"] for x in me["island"] + me["city"]
            )
            free = max(0, free - me["san-juan"])
            v = min(free, 1 + g["colonist-ship"] // max(1, len(view["players"]))) * 1.5
        elif role == "settler":
            v = 2.5 if len(me["island"]) < f["island-spaces"] else 0.0
            v += 1.0 if rnd < 6 else 0.0
        else:  # prospector (and anything a variant adds)
            v = 1.0
        return v + coins

    def _pieces(self, me: Mapping[str, Any]) -> list[dict[str, Any]]:
        f = facts()
        out = []
        for t in me["island"]:
            out.append({"circles": f["tiles"].get(t["type"], {}).get("circles", 1)})
        for b in me["city"]:
            out.append({"circles": f["buildings"].get(b["type"], {}).get("circles", 1)})
        return out

    def _tile_value(self, tile: str, me: Mapping[str, Any], rnd: int) -> float:
        f = facts()
        if tile == "quarry":
            return 4.0 if rnd < 8 else 1.5
        good = f["tiles"].get(tile, {}).get("good", "none")
        price = f["price"].get(good, 1)
        grown = sum(1 for t in me["island"] if f["tiles"].get(t["type"], {}).get("good") == good)
        cap = sum(
            f["buildings"].get(b["type"], {}).get("circles", 1)
            for b in me["city"]
            if f["buildings"].get(b["type"], {}).get("good") == good
        )
        value = 1.5 + price * 0.5
        if not f["needs-building"].get(good, 1):
            value += 1.5
        elif cap > grown:
            value += 3.0
        return value

    def _place_value(self, piece: str, me: Mapping[str, Any]) -> float:
        """Colonists go where they make something: a violet building, or the missing half of
        a production pair (a plantation whose building has a free circle, or the reverse)."""
        f = facts()
        if piece in f["buildings"]:
            info = f["buildings"][piece]
            if info.get("kind") == "violet":
                return 6.0 + info.get("vp", 1)
            good = info.get("good")
            grown, made = self._manned(me, good)
            return (5.0 if grown > made else 1.5) + f["price"].get(good, 0)
        if piece == "quarry":
            return 3.5
        good = f["tiles"].get(piece, {}).get("good", "none")
        if not f["needs-building"].get(good, 1):
            return 3.0
        grown, made = self._manned(me, good)
        return (5.0 if made > grown else 1.0) + f["price"].get(good, 0)

    def _manned(self, me: Mapping[str, Any], good: Any) -> tuple[int, int]:
        """Colonists on plantations of ``good`` and on buildings that process it."""
        f = facts()
        grown = sum(
            t["workers"] for t in me["island"] if f["tiles"].get(t["type"], {}).get("good") == good
        )
        made = sum(
            b["workers"]
            for b in me["city"]
            if f["buildings"].get(b["type"], {}).get("good") == good
        )
        return grown, made

    def _offer_value(self, view: Mapping[str, Any], ends_game: bool) -> float:
        """Worth of taking an offered colonist or VP; below 0 (pass) to decline.

        Taking what brings on the end of the game (``ends_game``) is declined by a seat that is
        behind on the buildings everybody can see, to play longer."""
        if not ends_game:
            return 2.0
        f = facts()
        players = view["players"]

        def built_vp(p: Mapping[str, Any]) -> int:
            return sum(f["buildings"].get(b["type"], {}).get("vp", 1) for b in p["city"])

        mine = built_vp(players[self.seat])
        behind = any(built_vp(p) > mine for i, p in enumerate(players) if i != self.seat)
        return -1.0 if behind else 2.0

    # -- the decision --------------------------------------------------------------------------
    def score(self, option: str, view: Mapping[str, Any]) -> float:
        f = facts()
        me = view["players"][self.seat]
        g = view["global"]
        rnd = view["round"]
        family, _, rest = option.partition(":")
        if family == "role":
            return self._role_value(rest, me, g, view)
        if family == "build":
            return self._building_value(rest, me, rnd)
        if family == "tile":
            return self._tile_value(rest, me, rnd)
        if family == "face-down-tile":
            return 1.0
        if family == "produce":
            return 3.0
        if family in ("colonist", "privilege-colonist"):
            # the colonist that leaves the supply short of the next ship's minimum
            return self._offer_value(view, g["colonist-supply"] - 1 < len(view["players"]))
        if family in ("vp", "privilege-vp"):
            # what a card's `may:` offers waits in may-CATALOG until it is asked
            if family == "vp":
                offered = me["may-buildings"].get(rest, 0)
            else:
                offered = me["may-roles"].get("captain", 0)
            return self._offer_value(view, g["vp-chips"] <= offered)
        if family == "place":
            return self._place_value(rest, me)
        if family in ("sell", "extra", "keep", "aqueduct", "stow"):
            return 1.0 + f["price"].get(rest, 0)
        if family == "store":
            return me["goods"].get(rest, 0) * (1.0 + f["price"].get(rest, 0))
        if family == "load":
            good, _, ship = rest.partition(":")
            return 2.0 + min(me["goods"].get(good, 0), _capacity(ship))
        if family == "own-ship":
            return 2.5 + me["goods"].get(rest, 0)
        return 0.0  # pass and anything unknown

    def choose(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        if not legal:
            raise ValueError("no legal options to choose from")
        if len(legal) == 1:
            return legal[0]
        scored = [(self.score(o, view), self.rng.random(), o) for o in legal]
        return max(scored)[2]


BOTS = {
    "pr-heuristic": (
        "Puerto Rico: scores each option from its own view (roles by what they bring now, "
        "big buildings first, most valuable goods)",
        lambda seat, seed: HeuristicBot(seat, seed),
        "Heuristic bot",
    ),
}
