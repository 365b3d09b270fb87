"""The New Buildings: every example of the digest and each building's function, via the engine.

Scenes use the fixed selection all-new (every new building on the board, no draft decisions);
a base building an example needs is put into the supply by hand.
"""

from __future__ import annotations

import pytest

from helpers.moves import pass_until_role, play
from helpers.puerto_rico import give_vp, set_doubloons, set_goods, vp

from .helpers import clear_all, end_game, give_building, give_tile, give_tiles

NB = ("new-buildings",)


@pytest.fixture
def s(game):
    st = game(4, NB, **{"building-selection": "all-new"}).new_state(21)
    clear_all(st)
    return st


def supply(s, name, n=1):
    s.g["building-supply"][name] = n  # a base building outside the selection, for this scene


def types(pieces):
    return [x["type"] for x in pieces]


def fill_ships(s):
    """Every cargo ship full (corn, sugar, coffee): nobody can load, the captain phase is short."""
    for sh, k in zip(s.g["ships"], ("corn", "sugar", "coffee"), strict=True):
        n = {"ship-5": 5, "ship-6": 6, "ship-7": 7}[sh["type"]]
        s.g["goods-supply"][k] -= n
        sh["cargo"], sh["load"] = k, n


def to_role_choice(s):
    pass_until_role(s)


# -- aqueduct --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "mill, good, extra",
    [
        ("indigo-plant", "indigo", 1),
        ("sugar-mill", "sugar", 1),
        ("small-indigo-plant", "indigo", 0),
    ],
)
def test_aqueduct_one_more_good_with_the_large_plant_only(s, mill, good, extra):
    give_building(s, 1, "aqueduct")
    give_building(s, 1, mill, workers=1)
    give_tiles(s, 1, f"{good}-plantation", 2)
    play(s, "role:craftsman", "produce")
    if extra:  # offered, and taken (declining: tests/scenarios/puerto-rico/optional-effects.yaml)
        assert s.to_move == 1 and s.legal_options() == [f"aqueduct:{good}", "pass"]
        play(s, f"aqueduct:{good}")
    assert s.p[1]["goods"][good] == 1 + extra
    assert not any(o.startswith("aqueduct:") for o in s.legal_options())


def test_aqueduct_unoccupied_does_nothing(s):
    give_building(s, 1, "aqueduct", workers=0)
    give_building(s, 1, "indigo-plant", workers=1)
    give_tiles(s, 1, "indigo-plantation", 2)
    play(s, "role:craftsman", "produce")
    assert s.p[1]["goods"]["indigo"] == 1


# -- forest house ----------------------------------------------------------------------------
def test_forest_house_example_four_forests_two_quarries_builder_pays_one(s):
    give_building(s, 0, "forest-house", workers=0)  # the saving holds unoccupied too
    give_tiles(s, 0, "forest", 4)
    give_tiles(s, 0, "quarry", 2)
    supply(s, "large-warehouse")
    set_doubloons(s, 0, 1)
    play(s, "role:builder", "build:large-warehouse")
    assert s.p[0]["doubloons"] == 0 and "large-warehouse" in types(s.p[0]["city"])


def test_forest_house_discount_is_beyond_the_quarry_column_limit(s):
    give_building(s, 1, "forest-house")
    give_tiles(s, 1, "forest", 6)
    give_tiles(s, 1, "quarry", 3)
    set_doubloons(s, 1, 10)
    play(s, "role:builder", "pass", "build:cloister")  # 10 - 3 forests - 4 column cap 3 quarries
    assert s.p[1]["doubloons"] == 10 - (10 - 3 - 3)


def test_forest_house_lays_the_plantation_face_down(s):
    give_building(s, 0, "forest-house")
    row = s.g["tile-row"][0]
    play(s, "role:settler", f"forest:{row}")
    (f,) = s.p[0]["island"]
    assert (f["type"], f["workers"]) == ("forest", 0) and s.p[0]["forest-under"] == [row]
    assert s.view(1)["players"][0]["forest-under"] != [row]  # face down for the others
    assert "forest:quarry" not in s.legal_options()  # a quarry never becomes a forest


def test_forest_house_unoccupied_lays_no_forest(s):
    give_building(s, 0, "forest-house", workers=0)
    play(s, "role:settler")
    assert not any(o.startswith("forest:") for o in s.legal_options())


def test_forest_house_with_hospice_colonist_goes_to_the_windrose(s):
    give_building(s, 0, "forest-house")
    supply(s, "hospice")
    give_building(s, 0, "hospice")
    row = s.g["tile-row"][0]
    play(s, "role:settler", f"forest:{row}", "colonist:hospice")
    assert s.p[0]["san-juan"] == 1 and s.p[0]["island"][0]["workers"] == 0


def test_forest_house_with_hacienda_sees_the_tile_first(s):
    give_building(s, 0, "forest-house")
    supply(s, "hacienda")
    give_building(s, 0, "hacienda")
    top = s.g["tile-stack"][-1]
    play(s, "role:settler", "face-down-tile")
    assert s.p[0]["island"][-1]["type"] == top  # he has seen it
    play(s, "forest-face-down")
    assert s.p[0]["island"][-1]["type"] == "forest" and s.p[0]["forest-under"] == [top]


def test_forests_are_plantations_again_on_the_discard_pile(game):
    st = game(4, ("new-buildings", "nobles"), **{"building-selection": "all-new"}).new_state(2)
    clear_all(st)
    give_building(st, 0, "hunting-lodge")
    give_tile(st, 0, "forest")
    under = st.p[0]["forest-under"][0]
    play(st, "role:settler")
    while "return-plantation:forest" not in st.legal_options():
        st.apply("pass")
    play(st, "return-plantation:forest")
    assert under in st.g["tile-discard"] and "forest" not in st.g["tile-discard"]
    assert st.p[0]["forest-under"] == []


# -- black market ----------------------------------------------------------------------------
def test_black_market_harbor_example(s):
    give_building(s, 1, "black-market")
    give_tile(s, 1, "corn-plantation", workers=1)
    supply(s, "harbor")
    set_doubloons(s, 1, 6)
    set_goods(s, 1, indigo=1)
    play(s, "role:builder", "pass", "build:harbor")
    opts = s.legal_options()
    assert "pay-good:indigo" in opts and "pay-colonist:corn-plantation" in opts
    assert "pay-colonist:black-market" not in opts  # its own colonist cannot pay
    supply_before = s.g["colonist-supply"]
    play(s, "pay-good:indigo", "pay-colonist:corn-plantation")
    assert "harbor" in types(s.p[1]["city"])
    assert s.p[1]["doubloons"] == 0 and s.p[1]["goods"]["indigo"] == 0
    assert s.g["colonist-supply"] == supply_before + 1
    assert s.p[1]["island"][0]["workers"] == 0


def test_black_market_only_when_needed(s):
    give_building(s, 1, "black-market")
    set_goods(s, 1, indigo=1)
    give_vp(s, 1, 2)
    supply(s, "harbor")
    set_doubloons(s, 1, 8)
    play(s, "role:builder", "pass", "build:harbor")
    assert s.p[1]["doubloons"] == 0 and s.p[1]["goods"]["indigo"] == 1 and vp(s, 1) == 2


def test_black_market_vp_and_at_most_one_of_each(s):
    give_building(s, 1, "black-market")
    set_goods(s, 1, indigo=2)
    give_vp(s, 1, 2)
    supply(s, "harbor")
    set_doubloons(s, 1, 6)
    play(s, "role:builder", "pass", "build:harbor", "pay-vp")
    assert s.legal_options() == ["pay-good:indigo"]  # one VP only; no colonist to give
    play(s, "pay-good:indigo")
    assert vp(s, 1) == 1 and s.p[1]["goods"]["indigo"] == 1


def test_black_market_unoccupied_cannot_pay(s):
    give_building(s, 1, "black-market", workers=0)
    set_goods(s, 1, indigo=1)
    supply(s, "harbor")
    set_doubloons(s, 1, 7)
    play(s, "role:builder", "pass")
    assert "build:harbor" not in s.legal_options()


# -- storehouse ------------------------------------------------------------------------------
def test_storehouse_keeps_three_more_barrels(s):
    give_building(s, 1, "storehouse")
    set_goods(s, 1, corn=2, sugar=2, coffee=1)
    fill_ships(s)
    play(s, "role:captain")
    to_storage = [o for o in s.legal_options()]
    assert s.to_move == 1 and "stow:corn" in to_storage
    play(s, "stow:corn", "stow:corn", "stow:sugar", "keep:sugar")
    assert s.p[1]["goods"] == {"corn": 2, "indigo": 0, "sugar": 2, "tobacco": 0, "coffee": 0}


def test_storehouse_unoccupied_keeps_one(s):
    give_building(s, 1, "storehouse", workers=0)
    set_goods(s, 1, corn=2, sugar=2)
    fill_ships(s)
    play(s, "role:captain")
    assert not any(o.startswith("stow:") for o in s.legal_options())


# -- guest house -----------------------------------------------------------------------------
def test_guest_house_example_storehouse_then_library(s):
    gh = give_building(s, 1, "guest-house", workers=2)
    give_building(s, 1, "storehouse", workers=0)
    give_building(s, 1, "library", workers=0)
    set_goods(s, 1, corn=3, sugar=1)
    fill_ships(s)
    play(s, "role:captain", "pass")  # no move at the start of the captain phase
    assert s.to_move == 1
    play(s, "pass")  # nor before his loading turn (nothing can be loaded)
    # near its end, his storage turn: a guest into the storehouse, used at once
    assert s.to_move == 1
    play(s, "guest:storehouse", "pass", "stow:corn", "stow:corn", "stow:corn", "keep:sugar")
    assert s.p[1]["goods"]["corn"] == 3 and s.p[1]["goods"]["sugar"] == 1
    assert gh["workers"] == 1
    pass_until_role(s)  # he moves nobody at the end of the phase
    assert s.to_move == 1
    # he chooses the trader and at the start of that phase moves the second guest to the library
    play(s, "role:trader", "guest:library")
    assert gh["workers"] == 0
    play(s, "sell:corn")
    assert s.p[1]["doubloons"] == 0 + 2  # corn 0 + the doubled privilege


def guest_moves(s):
    return sorted(o for o in s.legal_options() if o.startswith("guest"))


def test_guest_moves_before_his_own_turn_during_the_phase(s):
    """A non-chooser keeps his guest at the start of the builder phase and moves it onto his
    quarry when his turn comes (after seeing the others build): it works at once."""
    gh = give_building(s, 1, "guest-house", workers=1)
    give_tile(s, 1, "quarry", workers=0)
    give_tile(s, 1, "indigo-plantation", workers=0)
    set_doubloons(s, 1, 1)
    play(s, "role:builder")
    assert s.to_move == 1  # the start of the phase: any free circle
    assert guest_moves(s) == ["guest:indigo-plantation", "guest:quarry"]
    play(s, "pass", "pass")  # he keeps the guest; the builder (seat 0) builds nothing
    assert s.to_move == 1  # his turn: only where a guest would start working at once
    assert guest_moves(s) == ["guest:quarry"]
    assert "build:forest-house" not in s.legal_options()
    play(s, "guest:quarry")
    assert gh["workers"] == 0 and s.p[1]["island"][0]["workers"] == 1
    play(s, "build:forest-house")  # 2 - 1 for the occupied quarry
    assert s.p[1]["doubloons"] == 0 and "forest-house" in types(s.p[1]["city"])


def test_guest_moves_not_asked_twice_of_the_chooser(s):
    give_building(s, 0, "guest-house", workers=1)
    give_tile(s, 0, "quarry", workers=0)
    play(s, "role:builder")
    assert guest_moves(s) == ["guest:quarry"]
    play(s, "pass")  # his first turn follows at once: no second question
    assert s.to_move == 0 and not guest_moves(s) and "pass" in s.legal_options()


def test_guest_moves_after_production_before_the_extra_good(s):
    """A guest moved into the library after production: the craftsman's privilege is doubled."""
    gh = give_building(s, 0, "guest-house", workers=1)
    give_building(s, 0, "library", workers=0)
    supply(s, "small-indigo-plant")
    give_building(s, 0, "small-indigo-plant")
    give_tile(s, 0, "corn-plantation")
    give_tile(s, 0, "indigo-plantation")
    play(s, "role:craftsman", "pass", "produce")  # the start of the phase: he keeps his guest
    assert s.p[0]["goods"]["corn"] == 1 and s.p[0]["goods"]["indigo"] == 1  # produced
    assert s.to_move == 0 and guest_moves(s) == ["guest:library"]
    play(s, "guest:library", "extra:corn", "extra:indigo")
    assert gh["workers"] == 0
    assert s.p[0]["goods"]["corn"] == 2 and s.p[0]["goods"]["indigo"] == 2


def test_guest_moves_on_a_loading_turn_wharf_once_the_ships_are_full(s):
    give_building(s, 1, "guest-house", workers=1)
    supply(s, "wharf")
    give_building(s, 1, "wharf", workers=0)
    set_goods(s, 1, tobacco=2)
    fill_ships(s)
    play(s, "role:captain", "pass")  # the start of the phase
    assert s.to_move == 1 and guest_moves(s) == ["guest:wharf"]  # his loading turn
    play(s, "guest:wharf", "own-ship:tobacco")
    assert s.p[1]["goods"]["tobacco"] == 0 and vp(s, 1) == 2


def test_no_guest_moves_in_the_mayor_phase(s):
    """'... zu Beginn, während oder am Ende aller anderen Phasen': not the mayor's own."""
    give_building(s, 0, "guest-house", workers=2)
    give_building(s, 0, "library", workers=0)
    give_building(s, 0, "church", workers=0)
    play(s, "role:mayor", "privilege-colonist")
    seen = []
    while not any(o.startswith("role:") for o in s.legal_options()):
        seen += s.legal_options()
        s.apply(s.legal_options()[0])
    assert not any(o.startswith("guest") for o in seen), seen
    gh = next(b for b in s.p[0]["city"] if b["type"] == "guest-house")
    assert gh["workers"] == 2  # the mayor filled it again
    give_tile(s, 0, "quarry", workers=0)
    play(s, "role:settler")  # any other phase: moves again
    assert guest_moves(s) == ["guest:quarry"]


# -- trading post ----------------------------------------------------------------------------
def test_trading_post_sells_to_the_supply_without_markets(s):
    give_building(s, 0, "trading-post")
    supply(s, "large-market")
    give_building(s, 0, "large-market")
    set_goods(s, 0, coffee=1)
    s.g["trading-house"]["coffee"] = 1
    s.g["goods-supply"]["coffee"] -= 1
    play(s, "role:trader", "post:coffee")
    assert s.p[0]["doubloons"] == 4 + 1  # price and the trader's privilege, no market
    assert s.g["trading-house"]["coffee"] == 1


# -- church ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "building, points",
    [("aqueduct", 0), ("storehouse", 0), ("guest-house", 1), ("lighthouse", 1), ("cloister", 2)],
)
def test_church(s, building, points):
    give_building(s, 1, "church")
    set_doubloons(s, 1, 10)
    play(s, "role:builder", "pass", f"build:{building}")
    if points:  # offered: a violet building need not be used
        assert s.legal_options() == ["vp:church", "pass"]
        play(s, "vp:church")
    assert vp(s, 1) == points


def test_church_not_for_itself(s):
    set_doubloons(s, 1, 10)
    play(s, "role:builder", "pass", "build:church")
    assert vp(s, 1) == 0


# -- small wharf -----------------------------------------------------------------------------
def test_small_wharf_mixed_kinds_one_vp_per_two_need_not_load_all(s):
    give_building(s, 1, "small-wharf")
    set_goods(s, 1, corn=2, sugar=2, coffee=1)
    play(s, "role:prospector", "role:captain")
    while s.to_move != 1:
        s.apply(s.legal_options()[0])
    play(s, "small-wharf", "small-wharf:corn", "small-wharf:sugar", "small-wharf:coffee")
    play(s, "done", "privilege-vp")
    assert vp(s, 1) == 1 + 1  # 3 goods: 1 VP, and the captain's privilege
    assert s.p[1]["goods"]["corn"] == 1 and s.p[1]["goods"]["sugar"] == 1


@pytest.mark.parametrize("mode, extra", [("per-load", 1), ("per-kind", 2)])
def test_small_wharf_with_harbor_option(game, mode, extra):
    st = game(4, NB, **{"building-selection": "all-new", "harbor-small-wharf": mode}).new_state(21)
    clear_all(st)
    give_building(st, 0, "small-wharf")
    supply(st, "harbor")
    give_building(st, 0, "harbor")
    set_goods(st, 0, corn=1, sugar=1)
    play(st, "role:captain", "small-wharf", "small-wharf:corn", "small-wharf:sugar")
    play(st, "privilege-vp", "vp:harbor")
    assert vp(st, 0) == 1 + 1 + extra  # 2 goods, captain, harbor


# -- lighthouse ------------------------------------------------------------------------------
def test_lighthouse_doubloon_per_loading_and_one_for_the_captain(s):
    give_building(s, 0, "lighthouse")
    give_building(s, 1, "lighthouse")
    set_goods(s, 1, corn=1)
    play(s, "role:captain")
    assert s.p[0]["doubloons"] == 1  # the captain, without loading
    play(s, "load:corn:ship-5")
    assert s.p[1]["doubloons"] == 1


# -- specialty factory -----------------------------------------------------------------------
def test_specialty_factory_best_kind_minus_one_corn_ignored(s):
    give_building(s, 0, "specialty-factory")
    give_tiles(s, 0, "corn-plantation", 3)
    give_tiles(s, 0, "sugar-plantation", 2)
    give_building(s, 0, "sugar-mill", workers=2)
    play(s, "role:craftsman", "produce", "extra:sugar")
    assert s.p[0]["doubloons"] == 3 - 1  # 2 sugar + the extra; 3 corn do not count


# -- library ---------------------------------------------------------------------------------
def test_library_settler_first_quarry_then_the_last_plantation(s):
    give_building(s, 0, "library")
    play(s, "role:settler", "tile:quarry")
    for _ in range(3):
        opts = s.legal_options()
        s.apply(next(o for o in opts if o.startswith("tile:") and o != "tile:quarry"))
    left = s.g["tile-row"][0]
    assert s.to_move == 0 and "tile:quarry" not in s.legal_options()
    play(s, f"tile:{left}")
    assert types(s.p[0]["island"]) == ["quarry", left]


def test_library_settler_hospice_only_first_tile_hut_may_take_quarry(s):
    give_building(s, 0, "library")
    supply(s, "hospice")
    supply(s, "construction-hut")
    give_building(s, 0, "hospice")
    give_building(s, 0, "construction-hut")
    play(s, "role:settler", "tile:quarry", "colonist:hospice")
    play(s, "pass", "pass", "pass", "tile:quarry")
    assert [x["workers"] for x in s.p[0]["island"]] == [1, 0]


def test_library_craftsman_two_goods_of_different_kinds(s):
    give_building(s, 0, "library")
    give_tiles(s, 0, "corn-plantation", 1)
    give_tiles(s, 0, "sugar-plantation", 1)
    give_building(s, 0, "small-sugar-mill")
    play(s, "role:craftsman", "produce", "extra:corn")
    assert "extra:corn" not in s.legal_options() and "extra:sugar" in s.legal_options()
    play(s, "extra:sugar")
    assert s.p[0]["goods"]["corn"] == 2 and s.p[0]["goods"]["sugar"] == 2


@pytest.mark.parametrize(
    "roles, check",
    [
        (["role:prospector"], lambda s: s.p[0]["doubloons"] == 2),
        (
            ["role:mayor", "privilege-colonist", "privilege-colonist"],
            lambda s: s.p[0]["san-juan"] + sum(x["workers"] for x in s.p[0]["city"]) >= 3,
        ),
    ],
)
def test_library_doubles_other_privileges(s, roles, check):
    give_building(s, 0, "library")
    play(s, *roles)
    assert check(s)


def test_library_builder_two_off_and_captain_two_vp(s):
    give_building(s, 0, "library")
    set_doubloons(s, 0, 3)
    play(s, "role:builder", "build:guest-house")  # 4 - 2
    assert s.p[0]["doubloons"] == 1
    pass_until_role(s)
    while s.to_move != 0:
        opts = s.legal_options()
        s.apply(next((o for o in opts if o in ("role:prospector", "role:trader", "pass")), opts[0]))
        pass_until_role(s)
    set_goods(s, 0, corn=1)
    play(s, "role:captain", "load:corn:ship-5", "privilege-vp")
    assert vp(s, 0) == 1 + 2


def test_library_unoccupied_single_privilege(s):
    give_building(s, 0, "library", workers=0)
    play(s, "role:prospector")
    assert s.p[0]["doubloons"] == 1


# -- union hall ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "goods, points", [({"corn": 3, "indigo": 2, "coffee": 1}, 2), ({"corn": 4, "coffee": 2}, 3)]
)
def test_union_hall_examples(s, goods, points):
    give_building(s, 1, "union-hall")
    set_goods(s, 1, **goods)
    play(s, "role:prospector", "role:captain", "vp:union-hall")
    assert vp(s, 1) == points  # before anybody loads


# -- statue, cloister ------------------------------------------------------------------------
def test_statue_takes_no_colonist_and_is_worth_8(s):
    b = give_building(s, 0, "statue", workers=0)
    assert s.game.env.attrs["statue"]["circles"] == 0
    r = end_game(s)
    assert b["workers"] == 0 and r.scores[0]["components"]["buildings"] == 8


def test_cloister_example_six_vp(s):
    give_building(s, 0, "cloister")
    give_tiles(s, 0, "forest", 6)
    give_tiles(s, 0, "quarry", 3)
    give_tiles(s, 0, "corn-plantation", 2)
    give_tile(s, 0, "coffee-plantation")
    assert end_game(s).scores[0]["components"]["large-buildings"] == 6


@pytest.mark.parametrize(
    "tiles, points",
    [
        ({"quarry": 3}, 1),
        ({"quarry": 2, "corn-plantation": 2}, 0),
        ({"forest": 6, "quarry": 3, "corn-plantation": 3}, 10),
    ],
)
def test_cloister_triples(s, tiles, points):
    give_building(s, 0, "cloister")
    for name, n in tiles.items():
        give_tiles(s, 0, name, n)
    assert end_game(s).scores[0]["components"]["large-buildings"] == points


def test_cloister_unoccupied_scores_nothing(s):
    give_building(s, 0, "cloister", workers=0)
    give_tiles(s, 0, "quarry", 3)
    assert end_game(s).scores[0]["components"]["large-buildings"] == 0


def test_small_wharf_may_be_declined_and_is_usable_again_next_captain_phase(s):
    give_building(s, 0, "small-wharf")
    set_goods(s, 0, corn=2)
    fill_ships(s)
    play(s, "role:captain")
    assert set(s.legal_options()) == {"small-wharf", "pass"}  # nothing else can take corn
    play(s, "small-wharf", "small-wharf:corn", "small-wharf:corn", "privilege-vp")
    assert vp(s, 0) == 1 + 1
    pass_until_role(s)
    for _ in range(3):  # the others choose quiet roles; a new round, seat 1 governs
        opts = s.legal_options()
        s.apply(next(o for o in ("role:prospector", "role:trader", "role:builder") if o in opts))
        pass_until_role(s)
    set_goods(s, 0, sugar=2)
    fill_ships(s)
    while s.to_move != 0:
        opts = s.legal_options()
        s.apply(next((o for o in opts if o in ("role:prospector", "role:trader", "pass")), opts[0]))
        pass_until_role(s)
    play(s, "role:captain")
    assert set(s.legal_options()) == {"small-wharf", "pass"}
    play(s, "pass", "keep:sugar")
    assert s.p[0]["goods"]["sugar"] == 1  # the declined goods, but one, go back to the supply


def test_trading_post_still_sells_when_the_trading_house_is_full(s):
    give_building(s, 2, "trading-post")
    set_goods(s, 0, corn=1)
    set_goods(s, 2, sugar=1)
    for k in ("indigo", "tobacco", "coffee"):
        s.g["trading-house"][k] = 1
        s.g["goods-supply"][k] -= 1
    play(s, "role:trader", "sell:corn")  # the fourth good: the house is full
    assert s.to_move == 2 and set(s.legal_options()) == {"post:sugar", "pass"}  # seat 1 skipped
    play(s, "post:sugar")
    assert s.p[2]["doubloons"] == 2
