"""Helpers to build rulebook situations on a real Puerto Rico state, keeping every total sane.

Every helper moves things between a supply and a player (never creates or destroys them), so the
conservation checks in `totals` hold after an example has been set up and played.
"""

from __future__ import annotations

import random
from typing import Any

from helpers.puerto_rico import GOODS, finish_game, set_doubloons, set_goods
from interpreter.engine.invariant_checks import check_invariants as check_ruleset_invariants

GOODS_TOTAL = 50
DOUBLOONS_TOTAL = 54
ISLAND_TILES_TOTAL = 58
COLONISTS_START = {3: 55 + 3, 4: 75 + 4, 5: 95 + 5}
VP_CHIPS_START = {3: 75, 4: 100, 5: 122}
BUILDING_COPIES = {
    "small-indigo-plant": 4,
    "small-sugar-mill": 4,
    "indigo-plant": 3,
    "sugar-mill": 3,
    "tobacco-storage": 3,
    "coffee-roaster": 3,
    "small-market": 2,
    "hacienda": 2,
    "construction-hut": 2,
    "small-warehouse": 2,
    "hospice": 2,
    "office": 2,
    "large-market": 2,
    "large-warehouse": 2,
    "factory": 2,
    "university": 2,
    "harbor": 2,
    "wharf": 2,
    "guild-hall": 1,
    "residence": 1,
    "fortress": 1,
    "customs-house": 1,
    "city-hall": 1,
}
CIRCLES = {"indigo-plant": 3, "sugar-mill": 3, "tobacco-storage": 3, "coffee-roaster": 2}
LARGE = {"guild-hall", "residence", "fortress", "customs-house", "city-hall"}


# -- moving pieces ---------------------------------------------------------------------------
def _take_colonists(s: Any, n: int) -> None:
    assert s.g["colonist-supply"] >= n, "not enough colonists in the supply for this example"
    s.g["colonist-supply"] -= n


def give_building(s: Any, seat: int, name: str, workers: int = 1) -> dict:
    """Build `name` for free for `seat` (from the building supply), `workers` from the supply."""
    assert s.g["building-supply"][name] > 0, f"no {name} left"
    assert 0 <= workers <= CIRCLES.get(name, 1)
    s.g["building-supply"][name] -= 1
    _take_colonists(s, workers)
    piece = {"type": name, "workers": workers}
    s.p[seat]["city"].append(piece)
    return piece


def give_tile(s: Any, seat: int, name: str, workers: int = 1) -> dict:
    """Put an island tile from the stacks (a quarry: the quarry stack) on `seat`'s island."""
    if name == "quarry":
        assert s.g["quarry-stack"] > 0
        s.g["quarry-stack"] -= 1
    else:
        for pile in ("tile-stack", "tile-discard", "tile-row"):
            if name in s.g[pile]:
                s.g[pile].remove(name)
                break
        else:
            raise AssertionError(f"no {name} left")
    _take_colonists(s, workers)
    piece = {"type": name, "workers": workers}
    s.p[seat]["island"].append(piece)
    return piece


def give_tiles(s: Any, seat: int, name: str, n: int, workers: int = 1) -> None:
    for _ in range(n):
        give_tile(s, seat, name, workers)


def set_supply(s: Any, good: str, n: int, park_on: int) -> None:
    """Leave exactly n barrels of `good` in the supply; the rest go to seat `park_on`'s goods."""
    extra = s.g["goods-supply"][good] - n
    assert extra >= 0
    s.g["goods-supply"][good] = n
    s.p[park_on]["goods"][good] += extra


def set_ship(s: Any, ship: str, cargo: str | None, load: int) -> None:
    """Give a cargo ship `load` barrels of `cargo` from the supply (returning its old load)."""
    sh = next(x for x in s.g["ships"] if x["type"] == ship)
    if sh["cargo"] is not None:
        s.g["goods-supply"][sh["cargo"]] += sh["load"]
    sh["cargo"], sh["load"] = None, 0
    if cargo is not None and load > 0:
        assert s.g["goods-supply"][cargo] >= load
        s.g["goods-supply"][cargo] -= load
        sh["cargo"], sh["load"] = cargo, load


def ship(s: Any, name: str) -> dict:
    return next(x for x in s.g["ships"] if x["type"] == name)


def set_trading_house(s: Any, **goods: int) -> None:
    th = s.g["trading-house"]
    for k in GOODS:
        s.g["goods-supply"][k] += th[k]
        th[k] = 0
    for k, n in goods.items():
        s.g["goods-supply"][k] -= n
        th[k] = n


def clear_player(s: Any, seat: int, doubloons: int = 0) -> None:
    """Strip a seat to nothing: tiles back to the stack, colonists and goods to the supplies."""
    pl = s.p[seat]
    for x in pl["island"]:
        s.g["colonist-supply"] += x["workers"]
        if x["type"] == "quarry":
            s.g["quarry-stack"] += 1
        else:
            s.g["tile-stack"].insert(0, x["type"])
    for b in pl["city"]:
        s.g["colonist-supply"] += b["workers"]
        s.g["building-supply"][b["type"]] += 1
    pl["island"], pl["city"] = [], []
    s.g["colonist-supply"] += pl["san-juan"]
    pl["san-juan"] = 0
    set_goods(s, seat)
    set_doubloons(s, seat, doubloons)


def clear_all(s: Any, doubloons: int = 0) -> None:
    for seat in range(len(s.p)):
        clear_player(s, seat, doubloons)


def workers(pieces: list[dict], name: str) -> list[int]:
    return [x["workers"] for x in pieces if x["type"] == name]


# -- conservation ----------------------------------------------------------------------------
def totals(s: Any) -> dict[str, int]:
    """Every conserved quantity of the base game, summed over all the places it can be."""
    g, ps = s.g, s.p
    goods = (
        sum(g["goods-supply"].values())
        + sum(g["trading-house"].values())
        + sum(sh["load"] for sh in g["ships"])
        + sum(sum(pl["goods"].values()) for pl in ps)
    )
    colonists = (
        g["colonist-supply"]
        + g["colonist-ship"]
        + sum(
            pl["san-juan"]
            + sum(x["workers"] for x in pl["island"])
            + sum(b["workers"] for b in pl["city"])
            for pl in ps
        )
    )
    return {
        "doubloons": g["bank"] + sum(pl["doubloons"] for pl in ps) + sum(g["role-coins"].values()),
        "minted": g["minted"],
        "goods": goods,
        "colonists": colonists,
        "vp-chips": g["vp-chips"] + sum(pl["vp-chips"] for pl in ps),
        "tiles": len(g["tile-stack"])
        + len(g["tile-row"])
        + len(g["tile-discard"])
        + g["quarry-stack"]
        + sum(len(pl["island"]) for pl in ps),
        "buildings": sum(g["building-supply"].values()) + sum(len(pl["city"]) for pl in ps),
    }


def check_invariants(s: Any, players: int | None = None, vp_chips: int | None = None) -> None:
    """The ruleset's own `invariants:` (rulesets/puerto-rico) hold on `s`: doubloons, goods,
    colonists, VP chips, tiles and buildings conserved, occupants within circles."""
    check_ruleset_invariants(s)


def check_non_negative(s: Any, where: str = "") -> None:
    """Every count in the state (counters, bags, loads, workers) is >= 0."""
    nums: list[int] = []
    for part in (s.g, *s.p):
        for v in part.values():
            t = type(v)
            if t is int:
                nums.append(v)
            elif t is dict:
                nums.extend(v.values())
            elif t is list and v and type(v[0]) is dict:
                nums.extend(x.get("workers", x.get("load", 0)) for x in v)
    assert min(nums) >= 0, (where, [(k, v) for k, v in s.g.items()], s.p)


def random_game(game: Any, seed: int, check: str = "none") -> Any:
    """Play a seeded game with random legal choices. check: none, phase (at role choices), all."""
    rnd = random.Random(seed)
    s = game.new_state(seed)
    s.log = None
    players = game.players
    if check != "none":
        check_invariants(s, players)
    while not s.is_over:
        opts = s.legal_options()
        assert opts, f"no options but the game is not over (seed {seed})"
        oid = opts[rnd.randrange(len(opts))]
        s.apply(oid)
        if check == "all" or (check == "phase" and s.decisions % 7 == 0):
            check_invariants(s, players)
    if check != "none":
        check_invariants(s, players)
    return s


# Roles that change least when a test only wants the round to end.
QUIET_ROLES = (
    "role:prospector",
    "role:prospector-2",
    "role:trader",
    "role:builder",
    "role:settler",
    "role:craftsman",
    "role:mayor",
    "role:captain",
)


def end_game(s: Any) -> Any:
    """Note an end trigger, finish the round quietly (base game roles first), return the result."""
    return finish_game(s, QUIET_ROLES)
