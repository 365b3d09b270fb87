"""Every worked example of the base rulebook (rules/puerto-rico-en.txt), replayed on the real
engine from the real ruleset. Anna, Bob, Chris and David sit in seats 0-3; seat 0 is governor
and chooses first, so the role of each example is taken by seat 0 unless it says otherwise."""

from __future__ import annotations

import pytest

from helpers.moves import play
from helpers.puerto_rico import give_vp, set_doubloons, set_goods, vp

from .helpers import (
    check_invariants,
    clear_all,
    end_game,
    give_building,
    give_tile,
    give_tiles,
    set_ship,
    set_supply,
    set_trading_house,
    ship,
    workers,
)

ANNA, BOB, CHRIS, DAVID = range(4)


# -- the captain phase (page 6) --------------------------------------------------------------
def test_captain_phase_example(game4):
    s = game4.new_state(1)
    clear_all(s)
    set_goods(s, ANNA, corn=2, sugar=6)
    set_goods(s, BOB, sugar=2, tobacco=3)
    set_goods(s, CHRIS, corn=2, tobacco=1)
    set_goods(s, DAVID, corn=1, indigo=5)
    set_ship(s, "ship-6", "corn", 3)
    supply_before = dict(s.g["goods-supply"])
    play(s, "role:captain")

    # Anna must load corn or sugar; sugar only on the 7-ship (the 5-ship cannot take all 6).
    assert s.to_move == ANNA
    assert sorted(s.legal_options()) == ["load:corn:ship-6", "load:sugar:ship-7"]
    play(s, "load:sugar:ship-7", "privilege-vp")
    assert vp(s, ANNA) == 7  # 6 + 1 captain's privilege

    # Bob: 1 sugar fills the 7-ship, or his 3 tobacco on the empty 5-ship.
    assert s.to_move == BOB
    assert sorted(s.legal_options()) == ["load:sugar:ship-7", "load:tobacco:ship-5"]
    play(s, "load:sugar:ship-7")
    assert ship(s, "ship-7") == {"type": "ship-7", "cargo": "sugar", "load": 7}
    assert s.p[BOB]["goods"]["sugar"] == 1  # no room for his second sugar
    assert vp(s, BOB) == 1

    assert s.to_move == CHRIS
    assert sorted(s.legal_options()) == ["load:corn:ship-6", "load:tobacco:ship-5"]
    play(s, "load:tobacco:ship-5")
    assert vp(s, CHRIS) == 1

    # David has no place for his indigo: the corn on the 6-ship is his only move.
    assert s.to_move == DAVID
    assert s.legal_options() == ["load:corn:ship-6"]
    play(s, "load:corn:ship-6")
    assert vp(s, DAVID) == 1

    assert s.to_move == ANNA
    assert s.legal_options() == ["load:corn:ship-6"]
    play(s, "load:corn:ship-6")
    assert vp(s, ANNA) == 9  # the privilege only once

    assert s.to_move == BOB
    assert s.legal_options() == ["load:tobacco:ship-5"]
    play(s, "load:tobacco:ship-5")
    assert vp(s, BOB) == 4

    # Loading is over (Chris's corn and David's indigo have no place). Storage, each in turn
    # from the captain: each keeps his one barrel ("may store one good"; he could return it).
    for seat, good in ((BOB, "sugar"), (CHRIS, "corn"), (DAVID, "indigo")):
        assert s.to_move == seat and s.legal_options() == [f"keep:{good}", "pass"]
        play(s, f"keep:{good}")
    assert s.legal_options() == [
        "role:settler",
        "role:mayor",
        "role:builder",
        "role:craftsman",
        "role:trader",
        "role:prospector",
    ]
    assert s.to_move == BOB
    assert [vp(s, i) for i in range(4)] == [9, 4, 1, 1]
    # The two full ships were unloaded; the 4 tobacco stay on the 5-ship.
    assert ship(s, "ship-5") == {"type": "ship-5", "cargo": "tobacco", "load": 4}
    assert ship(s, "ship-6") == {"type": "ship-6", "cargo": None, "load": 0}
    assert ship(s, "ship-7") == {"type": "ship-7", "cargo": None, "load": 0}
    # One barrel each on the windrose; the rest went back to the supply.
    assert s.p[ANNA]["goods"] == dict.fromkeys(s.p[ANNA]["goods"], 0)
    assert s.p[BOB]["goods"]["sugar"] == 1 and sum(s.p[BOB]["goods"].values()) == 1
    assert s.p[CHRIS]["goods"]["corn"] == 1 and sum(s.p[CHRIS]["goods"].values()) == 1
    assert s.p[DAVID]["goods"]["indigo"] == 1 and sum(s.p[DAVID]["goods"].values()) == 1
    sup = s.g["goods-supply"]
    assert sup["corn"] == supply_before["corn"] + 1 + 6  # Chris's extra corn + the 6-ship
    assert sup["sugar"] == supply_before["sugar"] + 7
    assert sup["indigo"] == supply_before["indigo"] + 4
    assert sup["tobacco"] == supply_before["tobacco"]
    check_invariants(s, 4)


# -- production (page 8) ---------------------------------------------------------------------
def test_production_example(game4):
    s = game4.new_state(2)
    clear_all(s)
    give_tiles(s, ANNA, "corn-plantation", 2)
    give_tile(s, ANNA, "corn-plantation", workers=0)
    give_tile(s, ANNA, "tobacco-plantation")
    give_tile(s, ANNA, "tobacco-plantation")
    give_building(s, ANNA, "tobacco-storage", workers=1)
    give_tiles(s, ANNA, "sugar-plantation", 3)
    give_tile(s, ANNA, "sugar-plantation", workers=0)
    give_building(s, ANNA, "small-sugar-mill", workers=1)
    give_building(s, ANNA, "sugar-mill", workers=3)
    play(s, "role:craftsman", "produce")
    assert s.p[ANNA]["goods"] == {"corn": 2, "indigo": 0, "sugar": 3, "tobacco": 1, "coffee": 0}
    # The craftsman's privilege: one more of a kind he produced.
    assert s.to_move == ANNA
    assert sorted(s.legal_options()) == ["extra:corn", "extra:sugar", "extra:tobacco", "pass"]
    play(s, "extra:tobacco")
    assert s.p[ANNA]["goods"]["tobacco"] == 2
    check_invariants(s, 4)


# -- the mayor (page 4) ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "on_ship, expected",
    [
        # The book's picture: 3/2/1/1 = 6 colonists on the ship + the mayor's 1 from the supply.
        (6, [3, 2, 1, 1]),
        # Seven on the ship: the seventh goes round again, to the third player.
        (7, [3, 2, 2, 1]),
    ],
)
def test_mayor_example(game4, on_ship, expected):
    s = game4.new_state(3)
    clear_all(s)
    s.g["colonist-supply"] -= on_ship - s.g["colonist-ship"]
    s.g["colonist-ship"] = on_ship
    supply = s.g["colonist-supply"]
    play(s, "role:mayor", "privilege-colonist")
    # Nobody has a circle: every colonist waits in San Juan.
    assert [s.p[i]["san-juan"] for i in range(4)] == expected
    # The new ship: at least one per player (no empty building circles).
    assert s.g["colonist-ship"] == 4
    assert s.g["colonist-supply"] == supply - 1 - 4
    check_invariants(s, 4)


def test_mayor_example_seats_after_the_mayor(game4):
    """The mayor is not seat 0: the colonists go round from the mayor."""
    s = game4.new_state(3)
    clear_all(s)
    s.g["colonist-supply"] -= 2
    s.g["colonist-ship"] = 6
    play(s, "role:prospector")
    play(s, "role:mayor", "privilege-colonist")  # seat 1 is the mayor
    assert [s.p[i]["san-juan"] for i in range(4)] == [1, 3, 2, 1]


# -- quarries (page 5) -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "building, cost",
    [("construction-hut", 1), ("office", 3), ("harbor", 5), ("city-hall", 7)],
)
def test_three_quarries_example(game4, building, cost):
    """A player with 3 occupied quarries pays 1 / 3 / 5 / 7 (no builder's privilege)."""
    s = game4.new_state(4)
    clear_all(s)
    give_tiles(s, BOB, "quarry", 3)
    set_doubloons(s, BOB, 20)
    play(s, "role:builder", "pass")
    assert s.to_move == BOB
    play(s, f"build:{building}")
    assert s.p[BOB]["doubloons"] == 20 - cost
    check_invariants(s, 4)


@pytest.mark.parametrize(
    "building, cost",
    [("construction-hut", 0), ("office", 2), ("harbor", 4), ("city-hall", 6)],
)
def test_three_quarries_and_the_builders_privilege(game4, building, cost):
    """The privilege comes in addition to the quarries; never below 0."""
    s = game4.new_state(4)
    clear_all(s)
    give_tiles(s, ANNA, "quarry", 3)
    set_doubloons(s, ANNA, 20)
    play(s, "role:builder", f"build:{building}")
    assert s.p[ANNA]["doubloons"] == 20 - cost


def test_three_quarries_exact_money_is_enough(game4):
    s = game4.new_state(4)
    clear_all(s)
    give_tiles(s, BOB, "quarry", 3)
    set_doubloons(s, BOB, 7)
    play(s, "role:builder", "pass")
    assert "build:city-hall" in s.legal_options()
    assert "build:wharf" in s.legal_options()  # 9 - 3 = 6
    set_doubloons(s, BOB, 6)
    s2 = game4.new_state(4)
    clear_all(s2)
    give_tiles(s2, BOB, "quarry", 3)
    set_doubloons(s2, BOB, 6)
    play(s2, "role:builder", "pass")
    assert "build:city-hall" not in s2.legal_options()
    assert "build:wharf" in s2.legal_options()


# -- the buildings' examples (pages 9-11) ----------------------------------------------------
def test_small_market_example(game4):
    """Anna sells a corn and receives 1 doubloon (she is not the trader)."""
    s = game4.new_state(5)
    clear_all(s)
    give_building(s, ANNA, "small-market")
    set_goods(s, ANNA, corn=1)
    play(s, "role:prospector")  # Anna 1 doubloon
    set_doubloons(s, ANNA, 0)
    play(s, "role:trader")  # Bob is the trader; Bob, Chris and David have nothing to sell
    play(s, "pass", "pass", "pass")
    assert s.to_move == ANNA
    play(s, "sell:corn")
    assert s.p[ANNA]["doubloons"] == 1
    assert s.g["trading-house"]["corn"] == 1


def test_small_and_large_market_example(game4):
    s = game4.new_state(5)
    clear_all(s)
    give_building(s, BOB, "small-market")
    give_building(s, BOB, "large-market")
    set_goods(s, BOB, indigo=1)
    play(s, "role:trader", "pass", "sell:indigo")
    assert s.p[BOB]["doubloons"] == 1 + 3


def test_office_example(game4):
    """The trading house holds a tobacco; Bob and Chris, each with an occupied office, sell one."""
    s = game4.new_state(6)
    clear_all(s)
    set_trading_house(s, tobacco=1)
    give_building(s, BOB, "office")
    give_building(s, CHRIS, "office")
    set_goods(s, BOB, tobacco=1)
    set_goods(s, CHRIS, tobacco=1)
    set_goods(s, DAVID, tobacco=1)  # David has no office: he cannot
    play(s, "role:trader", "pass")
    assert s.to_move == BOB and "sell:tobacco" in s.legal_options()
    play(s, "sell:tobacco")
    assert s.to_move == CHRIS and "sell:tobacco" in s.legal_options()
    play(s, "sell:tobacco")
    assert s.g["trading-house"]["tobacco"] == 3
    assert s.p[BOB]["doubloons"] == 3 and s.p[CHRIS]["doubloons"] == 3
    assert s.to_move != DAVID or "sell:tobacco" not in s.legal_options()
    assert s.p[DAVID]["goods"]["tobacco"] == 1
    check_invariants(s, 4)


def test_factory_example(game4):
    """David: 3 corn, 3 sugar, 1 tobacco occupied; no corn and only 2 sugar in the supply."""
    s = game4.new_state(7)
    clear_all(s)
    give_building(s, DAVID, "factory")
    give_tiles(s, DAVID, "corn-plantation", 3)
    give_tiles(s, DAVID, "sugar-plantation", 3)
    give_tile(s, DAVID, "tobacco-plantation")
    give_building(s, DAVID, "sugar-mill", workers=3)
    give_building(s, DAVID, "tobacco-storage", workers=1)
    set_supply(s, "corn", 0, park_on=BOB)
    set_supply(s, "sugar", 2, park_on=BOB)
    play(s, "role:craftsman", "produce")
    assert s.p[DAVID]["goods"] == {"corn": 0, "indigo": 0, "sugar": 2, "tobacco": 1, "coffee": 0}
    assert s.p[DAVID]["doubloons"] == 1
    check_invariants(s, 4)


def _harbor_wharf_setup(game4):
    s = game4.new_state(8)
    clear_all(s)
    give_building(s, BOB, "harbor")
    give_building(s, BOB, "wharf")
    set_goods(s, BOB, tobacco=5, sugar=2)
    set_ship(s, "ship-5", "tobacco", 2)  # the "tobacco ship": room for 3
    set_ship(s, "ship-6", "sugar", 1)  # the "sugar ship"
    set_ship(s, "ship-7", "corn", 1)
    return s


def test_harbor_and_wharf_example(game4):
    s = _harbor_wharf_setup(game4)
    play(s, "role:captain")  # Anna is captain and has nothing
    assert s.to_move == BOB
    assert sorted(s.legal_options()) == [
        "load:sugar:ship-6",
        "load:tobacco:ship-5",
        "own-ship:sugar",
        "own-ship:tobacco",
    ]
    play(s, "load:tobacco:ship-5", "vp:harbor")
    assert vp(s, BOB) == 3 + 1
    assert s.to_move == BOB
    play(s, "load:sugar:ship-6", "vp:harbor")
    assert vp(s, BOB) == 4 + 2 + 1
    assert s.legal_options() == ["own-ship:tobacco", "pass"]  # the wharf is optional
    play(s, "own-ship:tobacco", "vp:harbor")
    assert vp(s, BOB) == 7 + 2 + 1
    assert sum(s.p[BOB]["goods"].values()) == 0
    # The tobacco ship was full and is emptied; the sugar ship is not.
    assert ship(s, "ship-5")["load"] == 0
    assert ship(s, "ship-6") == {"type": "ship-6", "cargo": "sugar", "load": 3}
    check_invariants(s, 4)


def test_harbor_and_wharf_example_all_tobacco_on_the_wharf(game4):
    s = _harbor_wharf_setup(game4)
    play(s, "role:captain", "own-ship:tobacco", "vp:harbor")
    assert vp(s, BOB) == 5 + 1
    play(s, "load:sugar:ship-6", "vp:harbor")
    assert vp(s, BOB) == 6 + 2 + 1
    # The tobacco ship is not full and keeps its 2 barrels.
    assert ship(s, "ship-5") == {"type": "ship-5", "cargo": "tobacco", "load": 2}


def _bonus(result, seat):
    return result.scores[seat]["components"]["large-buildings"]


def test_guild_hall_example(game4):
    s = game4.new_state(9)
    clear_all(s)
    give_building(s, ANNA, "guild-hall")
    for b in ("small-sugar-mill", "sugar-mill", "small-indigo-plant", "coffee-roaster"):
        give_building(s, ANNA, b, workers=0)
    r = end_game(s)
    assert _bonus(r, ANNA) == 6
    assert r.scores[ANNA]["components"]["buildings"] == 4 + 1 + 2 + 1 + 3


def test_residence_example(game4):
    s = game4.new_state(10)
    clear_all(s)
    give_building(s, ANNA, "residence")
    give_tiles(s, ANNA, "quarry", 4, workers=0)
    give_tiles(s, ANNA, "corn-plantation", 6, workers=0)
    r = end_game(s)
    assert len(s.p[ANNA]["island"]) == 10
    assert _bonus(r, ANNA) == 5


def test_fortress_example(game4):
    s = game4.new_state(11)
    clear_all(s)
    give_building(s, ANNA, "fortress")  # 1
    give_building(s, ANNA, "sugar-mill", workers=3)  # 4
    give_tiles(s, ANNA, "sugar-plantation", 6)  # 10
    give_tiles(s, ANNA, "quarry", 4)  # 14
    s.g["colonist-supply"] -= 6
    s.p[ANNA]["san-juan"] = 6  # 20
    r = end_game(s)
    assert _bonus(r, ANNA) == 6


def test_customs_house_example(game4):
    s = game4.new_state(12)
    clear_all(s)
    give_building(s, ANNA, "customs-house")
    give_vp(s, ANNA, 23)
    r = end_game(s)
    assert _bonus(r, ANNA) == 5
    assert r.scores[ANNA]["components"]["vp-chips"] == 23


def test_city_hall_example(game4):
    s = game4.new_state(13)
    clear_all(s)
    give_building(s, ANNA, "city-hall")
    for b in (
        "hacienda",
        "harbor",
        "office",
        "construction-hut",
        "large-warehouse",
        "residence",
    ):
        give_building(s, ANNA, b, workers=0)
    give_building(s, ANNA, "sugar-mill", workers=0)  # not violet: does not count
    r = end_game(s)
    assert _bonus(r, ANNA) == 7


def test_prospector_with_two_doubloons_gets_three(game4):
    """Page 7: a prospector card with 2 doubloons on it gives 3 in total."""
    s = game4.new_state(14)
    clear_all(s)
    s.g["bank"] -= 2
    s.g["role-coins"]["prospector"] = 2
    play(s, "role:prospector")
    assert s.p[ANNA]["doubloons"] == 3
    assert s.g["role-coins"]["prospector"] == 0
    check_invariants(s, 4)


def test_examples_keep_workers_where_placed(game4):
    """Sanity of the helpers themselves: pieces are where the examples put them."""
    s = game4.new_state(15)
    clear_all(s)
    give_building(s, ANNA, "sugar-mill", workers=2)
    assert workers(s.p[ANNA]["city"], "sugar-mill") == [2]
    check_invariants(s, 4)
