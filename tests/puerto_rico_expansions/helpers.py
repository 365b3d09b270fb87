"""Helpers for the 2-player game and the expansions: moving pieces, conservation, random play.

Like tests/puerto_rico/helpers.py, every helper moves things between a supply and a player
(never creates or destroys them), so the conservation checks hold after a scene is set up.
Nobles are counted inside `workers`/`san-juan` (the occupants) and again in `nobles` /
`san-juan-nobles` (which of them are nobles), as the nobles overlay does.
"""

from __future__ import annotations

import random
from typing import Any

from helpers.puerto_rico import finish_game, set_doubloons, set_goods
from interpreter.engine.invariant_checks import check_invariants as check_ruleset_invariants


def attr(s: Any, name: str, key: str) -> Any:
    """A catalog entry's static attribute (cost, circles, ...)."""
    return s.game.env.attrs[name][key]


def give_building(s: Any, seat: int, name: str, workers: int = 1, nobles: int = 0) -> dict:
    """Build `name` for free for `seat`; `workers` colonists from the supply, `nobles` nobles."""
    assert s.g["building-supply"][name] > 0, f"no {name} left"
    s.g["building-supply"][name] -= 1
    _take(s, workers, nobles)
    assert workers + nobles <= attr(s, name, "circles")
    piece = _piece(s, name)
    piece["workers"] = workers + nobles
    if nobles:
        piece["nobles"] = nobles
    s.p[seat]["city"].append(piece)
    return piece


def _piece(s: Any, name: str) -> dict:
    return {"type": name, **s.game.env.piece_defaults[name]}


def _take(s: Any, colonists: int, nobles: int) -> None:
    assert s.g["colonist-supply"] >= colonists, "not enough colonists in the supply"
    s.g["colonist-supply"] -= colonists
    if nobles:
        assert s.g["noble-supply"] >= nobles, "not enough nobles in the supply"
        s.g["noble-supply"] -= nobles


def give_tile(s: Any, seat: int, name: str, workers: int = 1, nobles: int = 0) -> dict:
    """Put an island tile from the stacks on `seat`'s island (a forest: a plantation face down)."""
    under = None
    if name == "quarry":
        assert s.g["quarry-stack"] > 0
        s.g["quarry-stack"] -= 1
    else:
        want = name
        if name == "forest":
            want = next(t for t in s.g["tile-stack"] if t != "quarry")
            under = want
        for pile in ("tile-stack", "tile-discard", "tile-row"):
            if want in s.g[pile]:
                s.g[pile].remove(want)
                break
        else:
            raise AssertionError(f"no {name} left")
    piece = _piece(s, name)
    if under is not None:
        s.p[seat]["forest-under"].append(under)
        workers = nobles = 0
    _take(s, workers, nobles)
    piece["workers"] = workers + nobles
    if nobles:
        piece["nobles"] = nobles
    s.p[seat]["island"].append(piece)
    return piece


def give_tiles(s: Any, seat: int, name: str, n: int, workers: int = 1) -> None:
    for _ in range(n):
        give_tile(s, seat, name, workers)


def clear_player(s: Any, seat: int, doubloons: int = 0) -> None:
    """Strip a seat to nothing: tiles back to the stack, occupants and goods to the supplies."""
    pl = s.p[seat]
    for x in pl["island"] + pl["city"]:
        n = x.get("nobles", 0)
        s.g["colonist-supply"] += x["workers"] - n
        if n:
            s.g["noble-supply"] += n
    for x in pl["island"]:
        if x["type"] == "quarry":
            s.g["quarry-stack"] += 1
        elif x["type"] == "forest":
            s.g["tile-stack"].insert(0, pl["forest-under"].pop())
        else:
            s.g["tile-stack"].insert(0, x["type"])
    for b in pl["city"]:
        s.g["building-supply"][b["type"]] += 1
    pl["island"], pl["city"] = [], []
    n = pl.get("san-juan-nobles", 0)
    s.g["colonist-supply"] += pl["san-juan"] - n
    if n:
        s.g["noble-supply"] += n
        pl["san-juan-nobles"] = 0
    pl["san-juan"] = 0
    set_goods(s, seat)
    set_doubloons(s, seat, doubloons)


def clear_all(s: Any, doubloons: int = 0) -> None:
    for seat in range(len(s.p)):
        clear_player(s, seat, doubloons)


# -- conservation ----------------------------------------------------------------------------
def totals(s: Any) -> dict[str, int]:
    """Every conserved quantity, summed over all the places it can be (nobles and forests too)."""
    g, ps = s.g, s.p
    pieces = [x for pl in ps for x in pl["island"] + pl["city"]]
    nobles_on = sum(x.get("nobles", 0) for x in pieces)
    windrose_nobles = sum(pl.get("san-juan-nobles", 0) for pl in ps)
    return {
        "doubloons": g["bank"]
        + sum(pl["doubloons"] for pl in ps)
        + sum(g["role-coins"].values())
        - g["minted"],
        "goods": sum(g["goods-supply"].values())
        + sum(g["trading-house"].values())
        + sum(sh["load"] for sh in g["ships"])
        + sum(sum(pl["goods"].values()) for pl in ps)
        # aside for a moment: in the storehouse, on the small wharf
        + sum(sum(pl.get("stowed", {}).values()) for pl in ps)
        + sum(sum(pl.get("small-wharf-load", {}).values()) for pl in ps),
        "colonists": g["colonist-supply"]
        + g["colonist-ship"]
        + sum(x["workers"] for x in pieces)
        - nobles_on
        + sum(pl["san-juan"] for pl in ps)
        - windrose_nobles,
        "nobles": g.get("noble-supply", 0) + g.get("noble-ship", 0) + nobles_on + windrose_nobles,
        "vp-chips": g["vp-chips"] + sum(pl["vp-chips"] for pl in ps),
        "tiles": len(g["tile-stack"])
        + len(g["tile-row"])
        + len(g["tile-discard"])
        + g["quarry-stack"]
        + sum(len(pl["island"]) for pl in ps),
        "buildings": sum(g["building-supply"].values()) + sum(len(pl["city"]) for pl in ps),
    }


def expected_totals(game: Any) -> dict[str, int]:
    """What `totals` must be throughout a game of this configuration."""
    n = game.players
    two = n == 2
    nobles = "nobles" in game.overlays
    vp5 = int(game.options.get("vp-chips-5p", 122))
    return {
        "doubloons": 54,
        "goods": 50 - (10 if two else 0),
        "colonists": 100 if nobles else {2: 42, 3: 58, 4: 79, 5: 100}[n],
        "nobles": 20 if nobles else 0,
        "vp-chips": {2: 65, 3: 75, 4: 100, 5: vp5}[n],
        "tiles": 58 - (18 if two else 0),
    }


def check_invariants(s: Any, want: dict[str, int] | None = None, buildings: int = 0) -> None:
    """The ruleset's own `invariants:` (base game and overlays) hold on `s`, and the board."""
    check_ruleset_invariants(s)
    check_board(s, f"seed {s.seed}, decision {s.decisions}, round {s.round}")


def check_board(s: Any, where: str) -> None:
    """No count below 0; every piece's occupants within its circles; nobles within occupants."""
    for part in (s.g, *s.p):
        for key, v in part.items():
            if type(v) is int:
                assert v >= 0, (key, where)
            elif type(v) is dict:
                assert min(v.values(), default=0) >= 0, (key, where)
    for pl in s.p:
        assert 0 <= pl.get("san-juan-nobles", 0) <= pl["san-juan"], where
        forests = sum(1 for x in pl["island"] if x["type"] == "forest")
        assert len(pl.get("forest-under", [])) == forests, where
        assert len(pl["island"]) <= 12, where
        for x in pl["island"] + pl["city"]:
            assert 0 <= x.get("nobles", 0) <= x["workers"], (x, where)
            assert x["workers"] <= attr(s, x["type"], "circles"), (x, where)
            if x["type"] == "forest":
                assert x["workers"] == 0, where


def random_game(game: Any, seed: int, check: str = "phase") -> Any:
    """A seeded game with random legal choices; invariants at every role choice or decision."""
    rnd = random.Random(seed)
    s = game.new_state(seed)
    s.log = None
    want = expected_totals(game)
    while not any(o.startswith("role:") for o in s.legal_options()):  # the setup draft
        opts = s.legal_options()
        s.apply(opts[rnd.randrange(len(opts))])
    buildings = totals(s)["buildings"]
    check_invariants(s, want, buildings)
    while not s.is_over:
        opts = s.legal_options()
        assert opts and len(opts) == len(set(opts)), (seed, opts)
        s.apply(opts[rnd.randrange(len(opts))])
        at_role = check == "phase" and any(o.startswith("role:") for o in s.pending or ())
        if check == "all" or at_role:
            check_invariants(s, want, buildings)
    check_invariants(s, want, buildings)
    return s


QUIET_ROLES = (
    "role:prospector",
    "role:prospector-2",
    "role:trader",
    "role:builder",
    "role:settler",
    "role:craftsman",
    "role:captain",
    "role:mayor",
)


def end_game(s: Any) -> Any:
    """Note an end trigger, finish the round quietly (passing), return the result."""
    return finish_game(s, QUIET_ROLES)
