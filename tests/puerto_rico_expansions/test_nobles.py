"""The Nobles: 20 nobles beside the colonists, and the 8 buildings with each occupant's effect."""

from __future__ import annotations

import pytest

from helpers.moves import pass_until_role, play
from helpers.puerto_rico import set_doubloons, set_goods, vp

from .helpers import clear_all, end_game, give_building, give_tile, give_tiles

NOBLES = ("nobles",)


@pytest.fixture
def s(game):
    st = game(4, NOBLES).new_state(21)
    clear_all(st)
    return st


def windrose(s, seat):
    return s.p[seat]["san-juan"], s.p[seat]["san-juan-nobles"]


def nobles_of(s, seat):
    pl = s.p[seat]
    return pl["san-juan-nobles"] + sum(x["nobles"] for x in pl["island"] + pl["city"])


# -- setup, mayor, end -----------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_puts_one_noble_on_the_ship_instead_of_a_colonist(game, n):
    st = game(n, NOBLES).new_state(1)
    assert (st.g["colonist-ship"], st.g["noble-ship"]) == (n - 1, 1)
    assert st.g["noble-supply"] == 19
    assert st.g["colonist-supply"] == 100 - (n - 1)


def test_mayor_takes_the_noble_and_places_it(s):
    give_tile(s, 0, "corn-plantation", workers=0)
    give_building(s, 0, "small-market", workers=0)
    play(s, "role:mayor", "privilege-colonist")
    # ship: 3 colonists + 1 noble; the mayor gets the first piece and chooses
    assert s.to_move == 0 and s.legal_options() == ["take-noble", "take-colonist"]
    play(s, "take-noble")
    # mayor: privilege colonist + the noble; others one colonist each, all automatic
    assert windrose(s, 0) == (2, 1)
    assert [windrose(s, i) for i in (1, 2, 3)] == [(1, 0), (1, 0), (1, 0)]
    assert set(s.legal_options()) == {
        "place:corn-plantation",
        "place:small-market",
        "noble:corn-plantation",
        "noble:small-market",
    }
    play(s, "noble:small-market")
    # the last colonist fits: placed at once
    market = s.p[0]["city"][0]
    assert (market["workers"], market["nobles"]) == (1, 1)
    assert s.p[0]["island"][0]["workers"] == 1 and s.p[0]["island"][0]["nobles"] == 0
    assert windrose(s, 0) == (0, 0)


def test_declined_noble_goes_to_the_next_player(s):
    play(s, "role:mayor", "privilege-colonist", "take-colonist")
    assert s.to_move == 1 and s.legal_options() == ["take-noble", "take-colonist"]
    play(s, "take-noble")
    assert windrose(s, 1) == (1, 1)


def test_ship_refilled_with_one_noble_and_no_colonist_end(s):
    s.g["colonist-supply"] += s.g["colonist-ship"]
    s.g["colonist-ship"] = 0
    s.g["noble-supply"] += s.g["noble-ship"]
    s.g["noble-ship"] = 0
    for seat, b in enumerate(("indigo-plant", "sugar-mill", "tobacco-storage", "coffee-roaster")):
        give_building(s, seat, b, workers=0)
    s.p[1]["san-juan"] += s.g["colonist-supply"] - 2  # park almost every colonist on a windrose
    s.g["colonist-supply"] = 2
    play(s, "role:mayor", "privilege-colonist")
    pass_until_role(s)
    # 4 x 3 empty circles wanted: 1 noble + the 1 colonist left; the game does not end
    assert s.g["noble-ship"] == 1 and s.g["colonist-ship"] == 1 and s.g["colonist-supply"] == 0
    assert s.g["end-trigger"] is None


def test_each_noble_is_one_vp_at_the_end(s):
    give_tile(s, 2, "corn-plantation", workers=0, nobles=1)
    s.g["noble-supply"] -= 2
    s.p[2]["san-juan"] += 2
    s.p[2]["san-juan-nobles"] += 2
    assert end_game(s).scores[2]["components"]["nobles"] == 3


# -- land office -----------------------------------------------------------------------------
def test_land_office_colonist_buys_the_top_plantation(s):
    give_building(s, 1, "land-office", workers=1)
    set_doubloons(s, 1, 3)
    top = s.g["tile-stack"][-1]
    play(s, "role:trader", "pass", "pass")  # the trader's and seat 1's sale turns
    assert s.to_move == 1 and s.legal_options() == ["buy-plantation", "pass"]
    play(s, "buy-plantation")
    assert [x["type"] for x in s.p[1]["island"]] == [top]
    assert s.p[1]["doubloons"] == 2


def test_land_office_noble_sells_a_plantation(s):
    give_building(s, 1, "land-office", workers=0, nobles=1)
    give_tile(s, 1, "quarry")
    give_tile(s, 1, "sugar-plantation", workers=0, nobles=1)
    play(s, "role:trader", "pass", "pass")
    assert s.legal_options() == ["sell-plantation:sugar-plantation", "pass"]
    play(s, "sell-plantation:sugar-plantation")
    assert [x["type"] for x in s.p[1]["island"]] == ["quarry"]
    assert s.g["tile-discard"] == ["sugar-plantation"]
    assert s.p[1]["doubloons"] == 1
    assert windrose(s, 1) == (1, 1)  # the noble on it goes to the windrose


def test_land_office_unoccupied_does_nothing(s):
    give_building(s, 1, "land-office", workers=0)
    set_doubloons(s, 1, 3)
    play(s, "role:trader", "pass", "pass")
    assert s.to_move == 2  # no land office decision for seat 1


# -- chapel ----------------------------------------------------------------------------------
@pytest.mark.parametrize("noble, doubloons, points", [(False, 1, 0), (True, 0, 1)])
def test_chapel(s, noble, doubloons, points):
    give_building(s, 2, "chapel", workers=0 if noble else 1, nobles=1 if noble else 0)
    play(s, "role:craftsman", *(["vp:chapel"] if noble else []))
    assert (s.p[2]["doubloons"], vp(s, 2)) == (doubloons, points)


# -- hunting lodge ---------------------------------------------------------------------------
def test_hunting_lodge_colonist_returns_a_plantation(s):
    give_building(s, 1, "hunting-lodge", workers=1)
    give_tile(s, 1, "coffee-plantation", workers=1)
    give_tile(s, 1, "quarry")
    play(s, "role:settler")
    while "return-plantation:coffee-plantation" not in s.legal_options():
        s.apply("pass")
    assert s.to_move == 1 and "return-plantation:quarry" not in s.legal_options()
    play(s, "return-plantation:coffee-plantation")
    assert [x["type"] for x in s.p[1]["island"]] == ["quarry"]
    assert "coffee-plantation" in s.g["tile-discard"]
    assert windrose(s, 1) == (1, 0)


@pytest.mark.parametrize("others, points", [(1, 2), (0, 0)])
def test_hunting_lodge_noble_most_empty_spaces(s, others, points):
    give_building(s, 1, "hunting-lodge", workers=0, nobles=1)
    for seat in (0, 2, 3):
        give_tiles(s, seat, "corn-plantation", others, workers=0)
    play(s, "role:settler")
    while any(o.startswith("tile:") for o in s.legal_options()):
        s.apply("pass")
    if points:
        play(s, "vp:hunting-lodge")
    assert vp(s, 1) == points  # with 0 tiles everywhere he is not alone with the most


# -- building office -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "noble, building, cost",
    # seat 1 is the builder: 1 off for the privilege too
    [
        (False, "hospice", 4 - 1 - 1),
        (False, "fortress", 10 - 1),
        (True, "hospice", 4 - 1),
        (True, "fortress", 10 - 1 - 2),
    ],
)
def test_building_office(s, noble, building, cost):
    give_building(s, 1, "building-office", workers=0 if noble else 1, nobles=1 if noble else 0)
    set_doubloons(s, 1, 10)
    play(s, "role:prospector", "role:builder", f"build:{building}")
    assert s.p[1]["doubloons"] == 10 - cost


# -- royal supplier --------------------------------------------------------------------------
def test_royal_supplier_one_good_per_noble_of_different_kinds(s):
    give_building(s, 1, "royal-supplier", workers=1)
    give_tile(s, 1, "corn-plantation", workers=0, nobles=1)
    s.g["noble-supply"] -= 1
    s.p[1]["san-juan"] += 1
    s.p[1]["san-juan-nobles"] += 1
    set_goods(s, 1, corn=3, coffee=1)
    play(s, "role:prospector", "role:captain")
    while s.to_move != 1:
        s.apply(s.legal_options()[0])
    assert set(s.legal_options()) == {"supply:corn", "supply:coffee", "pass"}
    play(s, "supply:corn")
    assert set(s.legal_options()) == {"supply:coffee", "pass"}  # not corn twice
    play(s, "supply:coffee")
    assert vp(s, 1) == 2 and s.p[1]["goods"]["corn"] == 2 and s.p[1]["goods"]["coffee"] == 0


def test_royal_supplier_without_nobles_does_nothing(s):
    give_building(s, 1, "royal-supplier", workers=1)
    set_goods(s, 1, corn=3)
    play(s, "role:prospector", "role:captain")
    assert not any(o.startswith("supply:") for o in s.legal_options())


# -- villa -----------------------------------------------------------------------------------
@pytest.mark.parametrize("nobles_left, villa_noble", [(5, 1), (0, 0)])
def test_villa(s, nobles_left, villa_noble):
    give_building(s, 0, "villa", workers=1)
    give_building(s, 0, "indigo-plant", workers=0)
    s.p[2]["san-juan-nobles"] += s.g["noble-supply"] - nobles_left
    s.p[2]["san-juan"] += s.g["noble-supply"] - nobles_left
    s.g["noble-supply"] = nobles_left
    play(s, "role:mayor", "privilege-colonist")
    play(s, "take-colonist", "take-colonist", "take-colonist")  # seat 3: the noble
    # seat 0: the villa's own colonist, the privilege, one from the ship and the villa's piece
    if villa_noble:
        play(s, "noble:indigo-plant")
    assert sum(b["workers"] for b in s.p[0]["city"]) == 4
    assert nobles_of(s, 0) == villa_noble
    assert s.g["noble-supply"] == max(0, nobles_left - villa_noble - 1)  # 1 onto the ship


# -- jeweler, royal garden -------------------------------------------------------------------
def test_jeweler_pays_per_noble_and_is_a_large_production_building(s):
    give_building(s, 2, "jeweler", workers=0, nobles=1)
    give_tile(s, 2, "corn-plantation", workers=0, nobles=1)
    give_building(s, 2, "guild-hall", workers=1)
    play(s, "role:craftsman", "produce")
    assert s.p[2]["doubloons"] == 2
    assert end_game(s).scores[2]["components"]["large-buildings"] == 2


def test_jeweler_unoccupied_pays_nothing(s):
    give_building(s, 2, "jeweler", workers=0)
    give_tile(s, 2, "corn-plantation", workers=0, nobles=1)
    play(s, "role:craftsman")
    assert s.p[2]["doubloons"] == 0


@pytest.mark.parametrize("occupied, bonus", [(True, 3), (False, 0)])
def test_royal_garden(s, occupied, bonus):
    give_building(s, 0, "royal-garden", workers=0, nobles=1 if occupied else 0)
    give_tile(s, 0, "corn-plantation", workers=0, nobles=1)
    s.g["noble-supply"] -= 1
    s.p[0]["san-juan"] += 1
    s.p[0]["san-juan-nobles"] += 1
    sc = end_game(s).scores[0]["components"]
    assert sc["large-buildings"] == bonus
    assert sc["nobles"] == (3 if occupied else 2)


def test_land_office_works_when_the_trading_house_is_full(s):
    give_building(s, 2, "land-office", workers=1)
    set_doubloons(s, 2, 1)
    set_goods(s, 0, corn=1)
    for k in ("indigo", "tobacco", "coffee"):
        s.g["trading-house"][k] = 1
        s.g["goods-supply"][k] -= 1
    play(s, "role:trader", "sell:corn")
    assert s.to_move == 2 and s.legal_options() == ["buy-plantation", "pass"]
