"""Each of the 23 base buildings does what its card says, and nothing when unoccupied."""

from __future__ import annotations

import pytest

from helpers.moves import pass_until_role, play
from helpers.puerto_rico import give_vp, set_goods, vp

from .helpers import (
    check_invariants,
    clear_all,
    end_game,
    give_building,
    give_tile,
    give_tiles,
    set_ship,
    set_trading_house,
    workers,
)

GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
MILL = {
    "indigo": "small-indigo-plant",
    "sugar": "small-sugar-mill",
    "tobacco": "tobacco-storage",
    "coffee": "coffee-roaster",
}


@pytest.fixture
def s(game4):
    st = game4.new_state(21)
    clear_all(st)
    return st


def no_goods(**goods):
    return {k: goods.get(k, 0) for k in GOODS}


# -- production buildings --------------------------------------------------------------------
@pytest.mark.parametrize(
    "building, good",
    [
        ("small-indigo-plant", "indigo"),
        ("small-sugar-mill", "sugar"),
        ("indigo-plant", "indigo"),
        ("sugar-mill", "sugar"),
        ("tobacco-storage", "tobacco"),
        ("coffee-roaster", "coffee"),
    ],
)
@pytest.mark.parametrize("occupied", [True, False])
def test_production_building(s, building, good, occupied):
    give_tiles(s, 1, f"{good}-plantation", 3)
    give_building(s, 1, building, workers=1 if occupied else 0)
    play(s, "role:craftsman", *(["produce"] if occupied else []))  # asked only if he would
    assert s.p[1]["goods"][good] == (1 if occupied else 0)


@pytest.mark.parametrize(
    "building, circles", [("indigo-plant", 3), ("sugar-mill", 3), ("tobacco-storage", 3)]
)
def test_large_production_building_produces_per_worker(s, building, circles):
    good = {"indigo-plant": "indigo", "sugar-mill": "sugar", "tobacco-storage": "tobacco"}[building]
    give_tiles(s, 1, f"{good}-plantation", 3)
    give_building(s, 1, building, workers=2)
    play(s, "role:craftsman", "produce")
    assert s.p[1]["goods"][good] == 2


def test_coffee_roaster_two_circles(s):
    give_tiles(s, 1, "coffee-plantation", 3)
    give_building(s, 1, "coffee-roaster", workers=2)
    play(s, "role:craftsman", "produce")
    assert s.p[1]["goods"]["coffee"] == 2


def test_plantation_without_building_produces_nothing_but_corn(s):
    for good in GOODS:
        give_tile(s, 1, f"{good}-plantation")
    play(s, "role:craftsman", "produce")
    assert s.p[1]["goods"] == no_goods(corn=1)


def test_unoccupied_plantation_produces_nothing(s):
    give_tile(s, 1, "corn-plantation", workers=0)
    give_tile(s, 1, "indigo-plantation", workers=0)
    give_building(s, 1, "small-indigo-plant")
    play(s, "role:craftsman")
    assert s.p[1]["goods"] == no_goods()


# -- small market, large market, office ------------------------------------------------------
@pytest.mark.parametrize(
    "buildings, occupied, paid",
    [
        ((), True, 2),
        (("small-market",), True, 3),
        (("small-market",), False, 2),
        (("large-market",), True, 4),
        (("large-market",), False, 2),
        (("small-market", "large-market"), True, 5),
    ],
)
def test_markets(s, buildings, occupied, paid):
    for b in buildings:
        give_building(s, 1, b, workers=1 if occupied else 0)
    set_goods(s, 1, sugar=1)
    play(s, "role:trader", "pass", "sell:sugar")
    assert s.p[1]["doubloons"] == paid


def test_markets_add_to_the_traders_privilege(s):
    give_building(s, 0, "small-market")
    give_building(s, 0, "large-market")
    set_goods(s, 0, coffee=1)
    play(s, "role:trader", "sell:coffee")
    assert s.p[0]["doubloons"] == 4 + 1 + 3


@pytest.mark.parametrize("occupied", [True, False])
def test_office_sells_a_kind_already_there(s, occupied):
    set_trading_house(s, indigo=1)
    give_building(s, 1, "office", workers=1 if occupied else 0)
    set_goods(s, 1, indigo=1)
    play(s, "role:trader", "pass")
    assert s.to_move == 1
    assert ("sell:indigo" in s.legal_options()) is occupied


def test_office_cannot_sell_to_a_full_trading_house(s):
    set_trading_house(s, corn=1, indigo=1, sugar=1)
    give_building(s, 1, "office")
    set_goods(s, 0, coffee=1)
    set_goods(s, 1, indigo=1)
    play(s, "role:trader", "sell:coffee")
    # The house is full after the trader's sale: the phase ends, nobody else sells.
    assert s.p[1]["goods"]["indigo"] == 1
    assert s.legal_options()[0].startswith("role:")
    # ... and the trader emptied it.
    assert sum(s.g["trading-house"].values()) == 0


# -- hacienda, construction hut, hospice (settler phase) -------------------------------------
def test_hacienda_extra_face_down_tile(s):
    give_building(s, 0, "hacienda")
    play(s, "role:settler")
    assert s.legal_options() == ["face-down-tile", "pass"]
    top = s.g["tile-stack"][-1]
    stack = len(s.g["tile-stack"])
    play(s, "face-down-tile")
    assert [x["type"] for x in s.p[0]["island"]] == [top]
    assert len(s.g["tile-stack"]) == stack - 1
    # ... then the normal turn
    row = list(s.g["tile-row"])
    assert f"tile:{row[0]}" in s.legal_options() and "tile:quarry" in s.legal_options()
    play(s, f"tile:{row[0]}")
    assert len(s.p[0]["island"]) == 2
    check_invariants(s, 4)


def test_hacienda_unoccupied_or_absent_offers_nothing(s):
    give_building(s, 0, "hacienda", workers=0)
    play(s, "role:settler")
    assert "face-down-tile" not in s.legal_options()
    assert any(o.startswith("tile:") for o in s.legal_options())


def test_hacienda_for_other_players_too(s):
    give_building(s, 2, "hacienda")
    play(s, "role:settler", "pass", "pass")
    assert s.to_move == 2 and s.legal_options() == ["face-down-tile", "pass"]


@pytest.mark.parametrize("occupied", [True, False])
def test_construction_hut_quarry_instead_of_plantation(s, occupied):
    give_building(s, 1, "construction-hut", workers=1 if occupied else 0)
    play(s, "role:settler", "pass")
    assert s.to_move == 1
    assert ("tile:quarry" in s.legal_options()) is occupied
    if occupied:
        play(s, "tile:quarry")
        assert [x["type"] for x in s.p[1]["island"]] == ["quarry"]
        assert s.to_move == 2 and "tile:quarry" not in s.legal_options()


def test_settler_with_construction_hut_takes_only_one_quarry(s):
    give_building(s, 0, "construction-hut")
    give_building(s, 0, "hacienda")
    play(s, "role:settler")
    # The hacienda's face-down tile is never a quarry, and the settler gets one quarry only.
    assert "tile:quarry" not in s.legal_options()
    play(s, "face-down-tile", "tile:quarry")
    assert [x["type"] for x in s.p[0]["island"]].count("quarry") == 1
    assert s.to_move == 1


def test_no_quarry_when_the_quarry_stack_is_empty(s):
    give_building(s, 1, "construction-hut")
    s.g["quarry-stack"] = 0
    s.p[3]["island"] += [{"type": "quarry", "workers": 0} for _ in range(8)]  # they went there
    play(s, "role:settler")
    assert "tile:quarry" not in s.legal_options()
    play(s, "pass")
    assert "tile:quarry" not in s.legal_options()
    check_invariants(s, 4)


def test_hospice_colonist_on_the_new_tile(s):
    give_building(s, 0, "hospice")
    supply = s.g["colonist-supply"]
    play(s, "role:settler", "tile:quarry")
    assert s.legal_options() == ["colonist:hospice", "pass"]  # "he may take a colonist"
    play(s, "colonist:hospice")
    assert s.p[0]["island"] == [{"type": "quarry", "workers": 1}]
    assert s.g["colonist-supply"] == supply - 1
    check_invariants(s, 4)


def test_hospice_colonist_may_be_declined(s):
    give_building(s, 0, "hospice")
    supply = s.g["colonist-supply"]
    play(s, "role:settler", "tile:quarry", "pass")
    assert s.p[0]["island"] == [{"type": "quarry", "workers": 0}]
    assert s.g["colonist-supply"] == supply and s.to_move == 1
    check_invariants(s, 4)


def test_hospice_unoccupied_gives_nothing(s):
    give_building(s, 0, "hospice", workers=0)
    play(s, "role:settler", "tile:quarry")
    assert s.p[0]["island"] == [{"type": "quarry", "workers": 0}]


def test_hospice_takes_from_the_ship_when_the_supply_is_empty(s):
    give_building(s, 0, "hospice")
    s.p[3]["san-juan"] += s.g["colonist-supply"]
    s.g["colonist-supply"] = 0
    ship = s.g["colonist-ship"]
    play(s, "role:settler", "tile:quarry", "colonist:hospice")
    assert s.p[0]["island"] == [{"type": "quarry", "workers": 1}]
    assert s.g["colonist-ship"] == ship - 1
    check_invariants(s, 4)


def test_hospice_without_any_colonist_goes_without(s):
    give_building(s, 0, "hospice")
    s.p[3]["san-juan"] += s.g["colonist-supply"] + s.g["colonist-ship"]
    s.g["colonist-supply"] = s.g["colonist-ship"] = 0
    play(s, "role:settler", "tile:quarry")
    assert s.p[0]["island"] == [{"type": "quarry", "workers": 0}]
    check_invariants(s, 4)


def test_hospice_no_colonist_for_the_hacienda_tile(s):
    give_building(s, 0, "hospice")
    give_building(s, 0, "hacienda")
    play(s, "role:settler", "face-down-tile")
    assert s.p[0]["island"][0]["workers"] == 0
    play(s, "tile:quarry", "colonist:hospice")
    assert s.p[0]["island"][1] == {"type": "quarry", "workers": 1}


# -- small and large warehouse (end of the captain phase) -----------------------------------
def _blocked_captain(s, seat, **goods):
    """All three ships full of other kinds: `seat` cannot load anything."""
    set_ship(s, "ship-5", "tobacco", 5)
    set_ship(s, "ship-6", "coffee", 6)
    set_ship(s, "ship-7", "sugar", 7)
    set_goods(s, seat, **goods)


def test_no_warehouse_keeps_one_barrel_of_a_chosen_kind(s):
    _blocked_captain(s, 0, corn=3, indigo=2, sugar=1)
    play(s, "role:captain")
    assert s.to_move == 0
    assert s.legal_options() == ["keep:corn", "keep:indigo", "keep:sugar", "pass"]
    play(s, "keep:indigo")
    assert s.p[0]["goods"] == no_goods(indigo=1)
    check_invariants(s, 4)


@pytest.mark.parametrize("answer, kept", [("keep:corn", 1), ("pass", 0)])
def test_single_kind_one_barrel_kept_or_returned(s, answer, kept):
    """ "Each player may store one good": he may return it too (a kept barrel must be loaded)."""
    _blocked_captain(s, 0, corn=3)
    play(s, "role:captain")
    assert s.legal_options() == ["keep:corn", "pass"]
    play(s, answer)
    assert s.p[0]["goods"] == no_goods(corn=kept)
    assert s.legal_options()[0].startswith("role:")
    check_invariants(s, 4)


@pytest.mark.parametrize("occupied", [True, False])
def test_small_warehouse_keeps_one_whole_kind(s, occupied):
    give_building(s, 0, "small-warehouse", workers=1 if occupied else 0)
    _blocked_captain(s, 0, corn=3, indigo=2, sugar=1)
    play(s, "role:captain")
    if not occupied:
        assert s.legal_options() == ["keep:corn", "keep:indigo", "keep:sugar", "pass"]
        return
    assert s.legal_options() == ["store:corn", "store:indigo", "store:sugar", "pass"]
    play(s, "store:corn")
    assert s.legal_options() == ["keep:indigo", "keep:sugar", "pass"]
    play(s, "keep:sugar")
    assert s.p[0]["goods"] == no_goods(corn=3, sugar=1)
    check_invariants(s, 4)


def test_small_warehouse_with_two_kinds_asks_which_kind(s):
    """One whole kind + the single barrel of the other: which kind is stored matters."""
    give_building(s, 0, "small-warehouse")
    _blocked_captain(s, 0, corn=3, indigo=2)
    play(s, "role:captain")
    assert s.legal_options() == ["store:corn", "store:indigo", "pass"]
    play(s, "store:indigo", "keep:corn")
    assert s.p[0]["goods"] == no_goods(corn=1, indigo=2)
    assert s.legal_options()[0].startswith("role:")


def test_small_warehouse_and_single_barrel_together_keep_everything(s):
    give_building(s, 0, "small-warehouse")
    _blocked_captain(s, 0, corn=3, indigo=1)
    play(s, "role:captain", "store:corn", "keep:indigo")
    assert s.legal_options()[0].startswith("role:")
    assert s.p[0]["goods"] == no_goods(corn=3, indigo=1)


def test_large_warehouse_keeps_two_whole_kinds(s):
    give_building(s, 0, "large-warehouse")
    _blocked_captain(s, 0, corn=3, indigo=2, sugar=2)
    play(s, "role:captain")
    assert s.legal_options() == ["store:corn", "store:indigo", "store:sugar", "pass"]
    play(s, "store:corn")
    assert s.legal_options() == ["store:indigo", "store:sugar", "pass"]
    play(s, "store:sugar", "keep:indigo")
    # 2 whole kinds + 1 barrel of the third.
    assert s.p[0]["goods"] == no_goods(corn=3, indigo=1, sugar=2)
    assert s.legal_options()[0].startswith("role:")
    check_invariants(s, 4)


def test_large_warehouse_with_four_kinds(s):
    give_building(s, 0, "large-warehouse")
    set_ship(s, "ship-5", "tobacco", 5)
    set_ship(s, "ship-6", "coffee", 6)
    set_ship(s, "ship-7", "sugar", 7)
    set_goods(s, 0, corn=3, indigo=2, sugar=2, tobacco=2)
    play(s, "role:captain", "store:corn", "store:tobacco")
    assert s.legal_options() == ["keep:indigo", "keep:sugar", "pass"]
    play(s, "keep:indigo")
    assert s.p[0]["goods"] == no_goods(corn=3, indigo=1, tobacco=2)
    check_invariants(s, 4)


def test_both_warehouses_keep_three_whole_kinds(s):
    give_building(s, 0, "small-warehouse")
    give_building(s, 0, "large-warehouse")
    set_ship(s, "ship-5", "corn", 5)
    set_ship(s, "ship-6", "indigo", 6)
    set_ship(s, "ship-7", "sugar", 7)
    set_goods(s, 0, corn=2, indigo=2, sugar=2, tobacco=2, coffee=2)
    play(s, "role:captain", "store:corn", "store:indigo", "store:coffee")
    assert s.legal_options() == ["keep:sugar", "keep:tobacco", "pass"]
    play(s, "keep:tobacco")
    assert s.p[0]["goods"] == no_goods(corn=2, indigo=2, coffee=2, tobacco=1)
    check_invariants(s, 4)


def test_wharf_owner_who_can_load_may_not_pass(s):
    give_building(s, 0, "wharf")
    set_goods(s, 0, corn=2)
    play(s, "role:captain")
    assert "pass" not in s.legal_options()
    assert "own-ship:corn" in s.legal_options() and "load:corn:ship-5" in s.legal_options()


def test_warehouse_does_not_protect_from_loading(s):
    give_building(s, 0, "large-warehouse")
    set_goods(s, 0, corn=3)
    play(s, "role:captain")
    # 3 corn fit on every empty ship: any of them (none may be skipped).
    assert s.legal_options() == ["load:corn:ship-5", "load:corn:ship-6", "load:corn:ship-7"]


# -- factory ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kinds, paid", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_factory_pays_by_kinds(s, kinds, paid):
    give_building(s, 1, "factory")
    for good in GOODS[:kinds]:
        give_tile(s, 1, f"{good}-plantation")
        if good in MILL:
            give_building(s, 1, MILL[good])
    play(s, "role:craftsman", *(["produce"] if kinds else []))
    assert sum(s.p[1]["goods"].values()) == kinds
    assert s.p[1]["doubloons"] == paid
    check_invariants(s, 4)


def test_factory_unoccupied_pays_nothing(s):
    give_building(s, 1, "factory", workers=0)
    give_tile(s, 1, "corn-plantation")
    give_tile(s, 1, "indigo-plantation")
    give_building(s, 1, "small-indigo-plant")
    play(s, "role:craftsman")
    assert s.p[1]["doubloons"] == 0


def test_factory_counts_kinds_not_barrels_and_not_the_extra_good(s):
    give_building(s, 0, "factory")
    give_tiles(s, 0, "corn-plantation", 3)
    give_tile(s, 0, "indigo-plantation")
    give_building(s, 0, "small-indigo-plant")
    play(s, "role:craftsman", "produce")
    assert s.p[0]["doubloons"] == 1
    play(s, "extra:corn")
    assert s.p[0]["doubloons"] == 1
    assert s.p[0]["goods"] == no_goods(corn=4, indigo=1)


# -- university ------------------------------------------------------------------------------
def test_university_colonist_on_the_new_building(s):
    give_building(s, 0, "university")
    s.p[0]["doubloons"] = 10
    s.g["bank"] -= 10
    supply = s.g["colonist-supply"]
    play(s, "role:builder", "build:sugar-mill", "colonist:university")
    assert workers(s.p[0]["city"], "sugar-mill") == [1]  # one colonist, not three
    assert s.g["colonist-supply"] == supply - 1
    check_invariants(s, 4)


def test_university_colonist_may_be_declined(s):
    give_building(s, 0, "university")
    supply = s.g["colonist-supply"]
    play(s, "role:builder", "build:small-market")
    assert s.legal_options() == ["colonist:university", "pass"]
    play(s, "pass")
    assert workers(s.p[0]["city"], "small-market") == [0]
    assert s.g["colonist-supply"] == supply and s.to_move == 1
    check_invariants(s, 4)


def test_university_unoccupied_gives_nothing(s):
    give_building(s, 0, "university", workers=0)
    play(s, "role:builder", "build:small-market")
    assert workers(s.p[0]["city"], "small-market") == [0]


def test_university_from_the_ship_then_none(s):
    give_building(s, 1, "university")
    give_building(s, 2, "university")
    s.p[3]["san-juan"] += s.g["colonist-supply"] + s.g["colonist-ship"] - 1
    s.g["colonist-supply"], s.g["colonist-ship"] = 0, 1
    s.p[1]["doubloons"] = s.p[2]["doubloons"] = 2
    s.g["bank"] -= 4
    play(s, "role:builder", "pass", "build:hacienda", "colonist:university")
    assert workers(s.p[1]["city"], "hacienda") == [1]
    assert s.g["colonist-ship"] == 0
    play(s, "build:hacienda")
    assert workers(s.p[2]["city"], "hacienda") == [0]
    check_invariants(s, 4)


# -- harbor and wharf ------------------------------------------------------------------------
@pytest.mark.parametrize("occupied, gained", [(True, 3 + 1 + 1 + 1), (False, 3 + 1)])
def test_harbor_one_vp_per_loading(s, occupied, gained):
    give_building(s, 1, "harbor", workers=1 if occupied else 0)
    set_goods(s, 1, corn=2, indigo=1)
    set_goods(s, 0, sugar=1)
    play(s, "role:captain", "load:sugar:ship-5", "privilege-vp")
    play(s, "load:corn:ship-7", *(["vp:harbor"] if occupied else []))
    play(s, "load:indigo:ship-6", *(["vp:harbor"] if occupied else []))
    assert vp(s, 1) == gained - 1


def test_harbor_captain_privilege_and_harbor_both_count(s):
    give_building(s, 0, "harbor")
    set_goods(s, 0, corn=2)
    play(s, "role:captain", "load:corn:ship-5")
    assert s.legal_options() == ["privilege-vp", "pass"]  # the privilege first, then the harbor
    play(s, "privilege-vp", "vp:harbor")
    assert vp(s, 0) == 2 + 1 + 1


def test_wharf_once_per_captain_phase(s):
    give_building(s, 0, "wharf")
    _blocked_captain(s, 0, corn=2, indigo=3)
    play(s, "role:captain")
    assert s.legal_options() == ["own-ship:corn", "own-ship:indigo", "pass"]
    play(s, "own-ship:indigo", "privilege-vp")
    assert vp(s, 0) == 3 + 1
    # No second wharf shipment: loading ends and a corn is kept.
    assert s.legal_options() == ["keep:corn", "pass"]
    play(s, "keep:corn")
    assert s.p[0]["goods"] == no_goods(corn=1)
    assert s.legal_options()[0].startswith("role:")
    check_invariants(s, 4)


def test_wharf_available_again_next_captain_phase(s, game4):
    give_building(s, 0, "wharf")
    _blocked_captain(s, 0, corn=2)
    play(s, "role:captain", "own-ship:corn", "privilege-vp")
    end_round_quietly = ("role:prospector", "role:builder", "role:settler")
    # finish the round: the others take quiet roles and pass
    for role in end_round_quietly:
        play(s, role)
        pass_until_role(s)
    # Round 2: seat 1 is governor.
    assert s.g["governor"] == 1
    _blocked_captain(s, 0, indigo=2)
    play(s, "role:captain")
    while s.to_move != 0:
        play(s, s.legal_options()[0])
    assert "own-ship:indigo" in s.legal_options()


def test_wharf_unoccupied_offers_nothing(s):
    give_building(s, 0, "wharf", workers=0)
    _blocked_captain(s, 0, corn=2)
    play(s, "role:captain")
    assert s.legal_options() == ["keep:corn", "pass"]  # no own-ship: straight to storage


def test_wharf_may_take_a_kind_that_is_on_a_ship(s):
    give_building(s, 1, "wharf")
    set_ship(s, "ship-5", "corn", 1)
    set_goods(s, 1, corn=6)
    play(s, "role:captain")
    assert s.legal_options() == ["load:corn:ship-5", "own-ship:corn"]
    play(s, "own-ship:corn")
    assert vp(s, 1) == 6 and s.p[1]["goods"]["corn"] == 0


# -- large buildings -------------------------------------------------------------------------
LARGE_SETUPS = {
    "guild-hall": lambda st: give_building(st, 0, "indigo-plant", workers=0),
    "residence": lambda st: give_tiles(st, 0, "corn-plantation", 3, workers=0),
    "fortress": lambda st: give_building(st, 0, "sugar-mill", workers=3),
    "customs-house": lambda st: give_vp(st, 0, 8),
    "city-hall": lambda st: give_building(st, 0, "hacienda", workers=0),
}
LARGE_BONUS = {"guild-hall": 2, "residence": 4, "fortress": 1, "customs-house": 2, "city-hall": 2}


@pytest.mark.parametrize("building", sorted(LARGE_SETUPS))
@pytest.mark.parametrize("occupied", [True, False])
def test_large_building_scores_extra_only_when_occupied(s, building, occupied):
    give_building(s, 0, building, workers=1 if occupied else 0)
    LARGE_SETUPS[building](s)
    r = end_game(s)
    assert r.scores[0]["components"]["large-buildings"] == (
        LARGE_BONUS[building] if occupied else 0
    )
    # The building's own 4 VP count either way.
    assert r.scores[0]["components"]["buildings"] >= 4


@pytest.mark.parametrize("filled, bonus", [(0, 4), (5, 4), (9, 4), (10, 5), (11, 6), (12, 7)])
def test_residence_table(s, filled, bonus):
    give_building(s, 0, "residence")
    give_tiles(s, 0, "indigo-plantation", filled, workers=0)
    assert end_game(s).scores[0]["components"]["large-buildings"] == bonus


@pytest.mark.parametrize("colonists, bonus", [(1, 0), (2, 0), (3, 1), (5, 1), (6, 2), (20, 6)])
def test_fortress_counts_san_juan_too(s, colonists, bonus):
    give_building(s, 0, "fortress")
    s.g["colonist-supply"] -= colonists - 1
    s.p[0]["san-juan"] = colonists - 1
    assert end_game(s).scores[0]["components"]["large-buildings"] == bonus


def test_customs_house_counts_paper_vp(s):
    give_building(s, 0, "customs-house")
    s.g["vp-chips"] -= 6
    s.p[0]["vp-chips"] = 6
    s.p[0]["vp-paper"] = 2
    r = end_game(s)
    assert r.scores[0]["components"]["large-buildings"] == 2
    assert r.scores[0]["components"]["vp-chips"] == 8


def test_wharf_owner_who_declines_is_not_asked_again(s):
    give_building(s, 1, "wharf")
    set_ship(s, "ship-5", "indigo", 5)  # full: Bob's indigo has no ship
    set_goods(s, 1, indigo=2)
    set_goods(s, 0, corn=1, sugar=1)
    play(s, "role:captain", "load:corn:ship-6", "privilege-vp")
    assert s.to_move == 1 and s.legal_options() == ["own-ship:indigo", "pass"]
    play(s, "pass", "load:sugar:ship-7")
    # Bob declined: loading ends without asking him again; storage follows.
    assert s.to_move == 1 and s.legal_options() == ["keep:indigo", "pass"]
    play(s, "keep:indigo")
    assert s.legal_options()[0].startswith("role:")
    assert s.p[1]["goods"] == no_goods(indigo=1) and vp(s, 1) == 0


def test_hacienda_filling_the_last_island_space(s):
    give_building(s, 0, "hacienda")
    give_tiles(s, 0, "quarry", 8, workers=0)
    give_tiles(s, 0, "corn-plantation", 3, workers=0)
    play(s, "role:settler", "face-down-tile")
    assert len(s.p[0]["island"]) == 12
    # No space left for a face-up tile (or a quarry): nothing but pass.
    assert s.to_move == 0 and s.legal_options() == ["pass"]
