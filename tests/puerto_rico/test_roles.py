"""The roles, their privileges and the round: setup, settler, mayor, builder, craftsman, trader,
captain, prospector, role coins and the governor."""

from __future__ import annotations

import pytest

from helpers.moves import pass_until_role, play
from helpers.puerto_rico import set_doubloons, set_goods, vp

from .helpers import (
    BUILDING_COPIES,
    check_invariants,
    clear_all,
    give_building,
    give_tile,
    give_tiles,
    set_ship,
    set_supply,
    set_trading_house,
    ship,
    workers,
)

GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")


@pytest.fixture
def s(game4):
    st = game4.new_state(31)
    clear_all(st)
    return st


def is_role_choice(st):
    return bool(st.legal_options()) and all(o.startswith("role:") for o in st.legal_options())


# -- setup -----------------------------------------------------------------------------------
SETUP = {
    3: dict(
        doubloons=2,
        tiles=["indigo", "indigo", "corn"],
        ships=["ship-4", "ship-5", "ship-6"],
        roles=6,
        supply=55,
        ship=3,
        chips=75,
    ),
    4: dict(
        doubloons=3,
        tiles=["indigo", "indigo", "corn", "corn"],
        ships=["ship-5", "ship-6", "ship-7"],
        roles=7,
        supply=75,
        ship=4,
        chips=100,
    ),
    5: dict(
        doubloons=4,
        tiles=["indigo", "indigo", "indigo", "corn", "corn"],
        ships=["ship-6", "ship-7", "ship-8"],
        roles=8,
        supply=95,
        ship=5,
        chips=122,
    ),
}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup(games, n):
    st = games[n].new_state(5)
    want = SETUP[n]
    assert [pl["doubloons"] for pl in st.p] == [want["doubloons"]] * n
    assert [[x["type"] for x in pl["island"]] for pl in st.p] == [
        [f"{t}-plantation"] for t in want["tiles"]
    ]
    assert all(x["workers"] == 0 for pl in st.p for x in pl["island"])
    assert [x["type"] for x in st.g["ships"]] == want["ships"]
    assert all(x["load"] == 0 and x["cargo"] is None for x in st.g["ships"])
    assert len(st.legal_options()) == want["roles"]
    assert ("role:prospector" in st.legal_options()) is (n >= 4)
    assert st.g["colonist-supply"] == want["supply"]
    assert st.g["colonist-ship"] == want["ship"]
    assert st.g["vp-chips"] == want["chips"]
    assert len(st.g["tile-row"]) == n + 1
    assert st.g["quarry-stack"] == 8
    supply = {"corn": 10, "indigo": 11, "sugar": 11, "tobacco": 9, "coffee": 9}
    assert st.g["goods-supply"] == supply
    assert st.g["building-supply"] == BUILDING_COPIES
    assert st.to_move == 0 and st.g["governor"] == 0
    check_invariants(st, n)


def test_five_players_126_chips_option():
    from interpreter.engine.loader import load_game

    st = load_game("puerto-rico", players=5, options={"vp-chips-5p": 126}).new_state(1)
    assert st.g["vp-chips"] == 126


# -- settler ---------------------------------------------------------------------------------
def test_settler_privilege_quarry_for_the_settler_only(s):
    row = s.g["tile-row"]
    play(s, "role:settler")
    assert set(s.legal_options()) == {f"tile:{t}" for t in row} | {"tile:quarry", "pass"}
    play(s, f"tile:{row[0]}")
    assert s.to_move == 1
    assert "tile:quarry" not in s.legal_options()
    assert set(s.legal_options()) == {f"tile:{t}" for t in s.g["tile-row"]} | {"pass"}


def test_settler_row_is_discarded_and_refilled(s):
    row = list(s.g["tile-row"])
    stack = list(s.g["tile-stack"])
    play(s, "role:settler", f"tile:{row[0]}", "pass", "pass", "pass")
    rest = list(row)
    rest.remove(row[0])
    assert sorted(s.g["tile-discard"]) == sorted(rest)
    assert s.g["tile-row"] == list(reversed(stack[-5:]))  # drawn from the top of the stack
    assert len(s.g["tile-stack"]) == len(stack) - 5
    check_invariants(s, 4)


def test_settler_reshuffles_the_discard_when_the_stack_runs_out(s):
    # Leave 2 tiles in the stack; the other face-down tiles are already discarded.
    s.g["tile-discard"] += s.g["tile-stack"][:-2]
    del s.g["tile-stack"][:-2]
    top2 = list(reversed(s.g["tile-stack"]))
    row = list(s.g["tile-row"])
    play(s, "role:settler", f"tile:{row[0]}", f"tile:{row[1]}", "pass", "pass")
    # First the 2 left in the stack, then 3 from the reshuffled discard (the row's 3 included).
    assert s.g["tile-row"][:2] == top2
    assert len(s.g["tile-row"]) == 5
    assert s.g["tile-discard"] == []
    check_invariants(s, 4)


def test_settler_short_row_when_all_tiles_are_out(s):
    # Only 2 plantations remain anywhere off the islands.
    spare = s.g["tile-stack"][2:] + s.g["tile-row"]
    s.g["tile-stack"] = s.g["tile-stack"][:2]
    s.g["tile-row"] = []
    for i, t in enumerate(spare):
        s.p[1 + i % 3]["island"].append({"type": t, "workers": 0})
    play(s, "role:settler")
    assert s.legal_options() == ["tile:quarry", "pass"]
    play(s, "pass")
    pass_until_role(s)
    assert len(s.g["tile-row"]) == 2 and s.g["tile-stack"] == []
    check_invariants(s, 4)


def test_full_island_takes_no_tile(s):
    give_tiles(s, 0, "quarry", 8, workers=0)
    give_tiles(s, 0, "corn-plantation", 4, workers=0)
    play(s, "role:settler")
    assert s.legal_options() == ["pass"]


# -- mayor -----------------------------------------------------------------------------------
def test_mayor_privilege_from_the_supply_not_the_ship(s):
    supply, on_ship = s.g["colonist-supply"], s.g["colonist-ship"]
    play(s, "role:mayor", "privilege-colonist")
    assert [pl["san-juan"] for pl in s.p] == [2, 1, 1, 1]
    assert s.g["colonist-supply"] == supply - 1 - 4
    assert on_ship == 4
    check_invariants(s, 4)


def test_mayor_privilege_lost_when_the_supply_is_empty(s):
    s.p[2]["san-juan"] += s.g["colonist-supply"]
    s.g["colonist-supply"] = 0
    play(s, "role:mayor")  # no colonist in the supply: no privilege to offer
    assert [pl["san-juan"] for pl in s.p][0:2] == [1, 1]
    assert s.g["end-trigger"] == "colonists"
    check_invariants(s, 4)


def test_mayor_places_one_colonist_at_a_time_and_must_fill(s):
    give_tile(s, 0, "corn-plantation", workers=1)
    give_tile(s, 0, "sugar-plantation", workers=0)
    give_building(s, 0, "sugar-mill", workers=0)
    give_building(s, 0, "small-market", workers=0)
    play(s, "role:mayor", "privilege-colonist")
    # 1 old + 1 privilege + 1 from the ship = 3 colonists for 6 free circles; all taken back.
    assert s.p[0]["san-juan"] == 3
    assert sorted(s.legal_options()) == [
        "place:corn-plantation",
        "place:small-market",
        "place:sugar-mill",
        "place:sugar-plantation",
    ]
    assert "pass" not in s.legal_options()
    play(s, "place:small-market", "place:sugar-mill", "place:sugar-mill")
    assert workers(s.p[0]["city"], "sugar-mill") == [2]
    assert workers(s.p[0]["island"], "corn-plantation") == [0]  # moved away
    assert s.p[0]["san-juan"] == 0
    assert s.to_move != 0 or is_role_choice(s)


def test_mayor_lists_the_places_in_the_same_order_at_every_colonist(s):
    # island: indigo, quarry, indigo; once the first indigo plantation is full, the first free
    # one lies after the quarry, and the options still list the indigo plantation first
    for tile in ("indigo-plantation", "quarry", "indigo-plantation"):
        give_tile(s, 0, tile, workers=0)
    play(s, "role:mayor", "privilege-colonist")
    assert s.p[0]["san-juan"] >= 2
    assert s.legal_options() == ["place:indigo-plantation", "place:quarry"]
    play(s, "place:indigo-plantation")
    assert workers(s.p[0]["island"], "indigo-plantation") == [1, 0]
    assert s.legal_options() == ["place:indigo-plantation", "place:quarry"]


def test_mayor_fills_automatically_and_keeps_the_rest_in_san_juan(s):
    give_tile(s, 1, "corn-plantation", workers=0)
    play(s, "role:mayor", "privilege-colonist")
    # Bob's 1 colonist fills his only circle without a question.
    assert s.p[1]["island"] == [{"type": "corn-plantation", "workers": 1}]
    assert s.p[1]["san-juan"] == 0
    s2 = s.copy()
    assert is_role_choice(s2)


def test_mayor_refills_the_ship_with_empty_building_circles(s):
    give_building(s, 1, "sugar-mill", workers=0)
    give_building(s, 2, "coffee-roaster", workers=0)
    give_building(s, 3, "tobacco-storage", workers=0)
    give_tiles(s, 3, "corn-plantation", 5, workers=0)  # island circles do not count
    supply = s.g["colonist-supply"]
    play(s, "role:mayor", "privilege-colonist")
    pass_until_role(s)
    empty_circles = sum(
        {"sugar-mill": 3, "coffee-roaster": 2, "tobacco-storage": 3}[b["type"]] - b["workers"]
        for pl in s.p
        for b in pl["city"]
    )
    assert s.g["colonist-ship"] == max(4, empty_circles)
    assert s.g["colonist-supply"] == supply - 1 - s.g["colonist-ship"]
    check_invariants(s, 4)


# -- builder ---------------------------------------------------------------------------------
def test_builder_privilege_only_when_building(s):
    set_doubloons(s, 0, 3)
    play(s, "role:builder", "pass")
    assert s.p[0]["doubloons"] == 3


def test_builder_privilege_for_the_builder_only(s):
    for seat in range(4):
        set_doubloons(s, seat, 5)
    play(s, "role:builder", "build:office")
    assert s.p[0]["doubloons"] == 1
    play(s, "build:office")
    assert s.p[1]["doubloons"] == 0
    assert s.g["building-supply"]["office"] == 0
    assert "build:office" not in s.legal_options()  # no copy left
    check_invariants(s, 4)


@pytest.mark.parametrize(
    "building, paid",
    [
        ("small-market", 0),  # 1 - 1 (column 1)
        ("hacienda", 1),  # 2 - 1
        ("sugar-mill", 2),  # 4 - 2 (column 2)
        ("tobacco-storage", 2),  # 5 - 3 (column 3)
        ("wharf", 6),  # 9 - 3
        ("guild-hall", 6),  # 10 - 4 (column 4)
    ],
)
def test_quarry_discount_capped_by_column(s, building, paid):
    give_tiles(s, 1, "quarry", 5)
    give_tile(s, 1, "quarry", workers=0)  # unoccupied: no discount
    set_doubloons(s, 1, 10)
    play(s, "role:builder", "pass", f"build:{building}")
    assert s.p[1]["doubloons"] == 10 - paid


def test_unoccupied_quarries_give_no_discount(s):
    give_tiles(s, 1, "quarry", 3, workers=0)
    set_doubloons(s, 1, 10)
    play(s, "role:builder", "pass", "build:factory")
    assert s.p[1]["doubloons"] == 3


def test_builder_cannot_afford(s):
    set_doubloons(s, 1, 2)
    play(s, "role:builder", "pass")
    opts = s.legal_options()
    assert "build:small-market" in opts and "build:hacienda" in opts
    assert "build:small-warehouse" not in opts and "build:indigo-plant" not in opts


def test_cannot_build_a_building_twice(s):
    give_building(s, 1, "small-market", workers=0)
    set_doubloons(s, 1, 20)
    play(s, "role:builder", "pass")
    assert "build:small-market" not in s.legal_options()
    assert "build:small-indigo-plant" in s.legal_options()


def test_no_building_without_city_spaces(s):
    for b in (
        "small-indigo-plant",
        "small-sugar-mill",
        "indigo-plant",
        "sugar-mill",
        "tobacco-storage",
        "coffee-roaster",
        "small-market",
        "hacienda",
        "construction-hut",
        "small-warehouse",
        "hospice",
    ):
        give_building(s, 1, b, workers=0)
    set_doubloons(s, 1, 30)
    play(s, "role:builder", "pass")
    opts = s.legal_options()
    assert "build:office" in opts
    assert not any(f"build:{b}" in opts for b in ("guild-hall", "residence", "city-hall"))
    play(s, "build:office")
    assert s.g["end-trigger"] == "city"
    check_invariants(s, 4)


def test_full_city_of_large_buildings_builds_nothing(game4):
    st = game4.new_state(32)
    clear_all(st)
    for b in ("guild-hall", "residence", "fortress", "customs-house", "city-hall"):
        give_building(st, 0, b, workers=0)
    give_building(st, 0, "wharf", workers=0)
    give_building(st, 0, "harbor", workers=0)
    set_doubloons(st, 0, 30)
    play(st, "role:builder")
    assert st.legal_options() == ["pass"]


# -- craftsman -------------------------------------------------------------------------------
def test_craftsman_privilege_only_a_produced_kind(s):
    give_tile(s, 0, "corn-plantation")
    give_tile(s, 0, "indigo-plantation")  # no indigo plant: no indigo
    give_tile(s, 1, "sugar-plantation")
    give_building(s, 1, "small-sugar-mill")
    play(s, "role:craftsman", "produce", "produce")
    assert s.to_move == 0 and s.legal_options() == ["extra:corn", "pass"]
    play(s, "extra:corn")
    assert s.p[0]["goods"] == {"corn": 2, "indigo": 0, "sugar": 0, "tobacco": 0, "coffee": 0}
    assert s.p[1]["goods"]["sugar"] == 1
    check_invariants(s, 4)


def test_craftsman_without_production_gets_no_extra(s):
    give_tile(s, 1, "corn-plantation")
    play(s, "role:craftsman", "produce")
    assert is_role_choice(s)
    assert sum(s.p[0]["goods"].values()) == 0 and s.p[1]["goods"]["corn"] == 1


def test_craftsman_extra_not_from_an_empty_supply(s):
    give_tile(s, 0, "corn-plantation")
    give_tile(s, 0, "indigo-plantation")
    give_building(s, 0, "small-indigo-plant")
    set_supply(s, "corn", 1, park_on=3)
    play(s, "role:craftsman", "produce")
    assert s.legal_options() == ["extra:indigo", "pass"]


def test_production_in_order_from_the_craftsman(s):
    """Short supply: the craftsman produces first, then clockwise."""
    for seat in range(4):
        give_tile(s, seat, "corn-plantation")
    set_supply(s, "corn", 2, park_on=0)
    parked = s.p[0]["goods"]["corn"]
    # seat 1 is the craftsman; seats 3 and 0 are not asked: nothing left to produce
    play(s, "role:prospector", "role:craftsman", "produce", "produce")
    assert [s.p[i]["goods"]["corn"] for i in range(4)] == [parked, 1, 1, 0]
    check_invariants(s, 4)


# -- trader ----------------------------------------------------------------------------------
def test_trader_privilege_only_when_selling(s):
    set_goods(s, 0, indigo=1)
    play(s, "role:trader", "pass")
    assert s.p[0]["doubloons"] == 0


def test_trader_one_sale_each_different_kinds(s):
    set_goods(s, 0, indigo=2, coffee=1)
    set_goods(s, 1, indigo=1, corn=1)
    play(s, "role:trader", "sell:coffee")
    assert s.p[0]["doubloons"] == 5
    assert s.to_move == 1
    assert s.legal_options() == ["sell:corn", "sell:indigo", "pass"]
    play(s, "sell:indigo")
    assert s.p[1]["doubloons"] == 1
    assert s.to_move == 2  # Chris has nothing: pass only
    assert s.legal_options() == ["pass"]
    play(s, "pass", "pass")
    # Only one sale each: Anna's second indigo stays; the house keeps its 2 goods.
    assert s.p[0]["goods"]["indigo"] == 2
    assert s.g["trading-house"] == {"corn": 0, "indigo": 1, "sugar": 0, "tobacco": 0, "coffee": 1}
    assert is_role_choice(s)
    check_invariants(s, 4)


def test_trader_cannot_sell_a_kind_already_in_the_house(s):
    set_trading_house(s, indigo=1, coffee=1)
    set_goods(s, 0, indigo=2, coffee=1, corn=1)
    play(s, "role:trader")
    assert s.legal_options() == ["sell:corn", "pass"]


def test_corn_sells_for_nothing(s):
    set_goods(s, 1, corn=1)
    play(s, "role:trader", "pass", "sell:corn")
    assert s.p[1]["doubloons"] == 0 and s.g["trading-house"]["corn"] == 1


def test_trading_house_empties_only_when_full(s):
    set_trading_house(s, corn=1, indigo=1)
    set_goods(s, 0, sugar=1)
    set_goods(s, 2, tobacco=1)
    supply = dict(s.g["goods-supply"])
    play(s, "role:trader", "sell:sugar", "pass", "sell:tobacco")
    # Full after Chris: emptied into the supply; David gets no turn.
    assert sum(s.g["trading-house"].values()) == 0
    assert s.g["goods-supply"]["corn"] == supply["corn"] + 1
    assert s.g["goods-supply"]["tobacco"] == supply["tobacco"] + 1
    assert is_role_choice(s)
    check_invariants(s, 4)


# -- captain ---------------------------------------------------------------------------------
def test_captain_privilege_once_and_only_when_loading(s):
    set_goods(s, 0, corn=1, indigo=1)
    play(s, "role:captain", "load:corn:ship-5")
    assert s.legal_options() == ["privilege-vp", "pass"]
    play(s, "privilege-vp")
    assert vp(s, 0) == 2
    play(s, "load:indigo:ship-6")
    assert vp(s, 0) == 3


def test_captain_who_loads_nothing_gets_no_privilege(s):
    set_goods(s, 1, corn=1)
    play(s, "role:captain")
    assert s.to_move == 1
    play(s, "load:corn:ship-5")
    assert vp(s, 0) == 0 and vp(s, 1) == 1


def test_captain_non_captain_gets_no_privilege(s):
    set_goods(s, 1, corn=2)
    set_goods(s, 0, sugar=1)
    play(s, "role:captain", "load:sugar:ship-5", "privilege-vp", "load:corn:ship-6")
    assert vp(s, 1) == 2


@pytest.mark.parametrize(
    "n, ships",
    [
        (4, ["ship-5", "ship-6", "ship-7"]),
        (5, ["ship-5", "ship-6", "ship-7"]),
        (6, ["ship-6", "ship-7"]),
        (7, ["ship-7"]),
        (9, ["ship-7"]),  # takes the most; 2 stay behind
    ],
)
def test_largest_ship_that_takes_all(s, n, ships):
    set_goods(s, 0, sugar=n)
    play(s, "role:captain")
    assert s.legal_options() == [f"load:sugar:{x}" for x in ships]
    play(s, f"load:sugar:{ships[0]}", "privilege-vp")
    assert vp(s, 0) == min(n, int(ships[0][-1])) + 1


def test_one_kind_per_ship_and_no_two_ships_of_a_kind(s):
    set_ship(s, "ship-5", "corn", 1)
    set_ship(s, "ship-6", "indigo", 1)
    set_goods(s, 0, corn=6, sugar=2)
    play(s, "role:captain")
    # Corn only on the corn ship (not the bigger empty 7-ship); sugar on the empty one.
    assert s.legal_options() == ["load:corn:ship-5", "load:sugar:ship-7"]
    play(s, "load:corn:ship-5")
    assert ship(s, "ship-5") == {"type": "ship-5", "cargo": "corn", "load": 5}
    assert s.p[0]["goods"]["corn"] == 2


def test_full_ship_blocks_its_kind(s):
    set_ship(s, "ship-5", "corn", 5)
    set_goods(s, 1, corn=2)
    set_goods(s, 0, indigo=1)
    play(s, "role:captain", "load:indigo:ship-6", "privilege-vp")
    # Bob's corn has nowhere to go: no loading decision for him, loading ends; his storage.
    assert s.to_move == 1 and s.legal_options() == ["keep:corn", "pass"]
    play(s, "keep:corn")
    assert is_role_choice(s)
    assert s.p[1]["goods"]["corn"] == 1  # kept one barrel at the end
    assert ship(s, "ship-5")["load"] == 0  # the full corn ship was emptied


def test_must_load_if_able(s):
    set_goods(s, 0, coffee=1)
    play(s, "role:captain")
    assert "pass" not in s.legal_options()


def test_one_kind_per_turn_and_repeated_turns(s):
    set_goods(s, 0, corn=1, indigo=1, sugar=1)
    set_goods(s, 1, coffee=1)
    play(s, "role:captain", "load:corn:ship-5", "privilege-vp")
    assert s.to_move == 1
    play(s, "load:coffee:ship-6")
    assert s.to_move == 0
    assert s.legal_options() == ["load:indigo:ship-7", "load:sugar:ship-7"]
    play(s, "load:sugar:ship-7")
    # Indigo has no ship left; Bob has nothing: loading is over. Storage: the captain first.
    assert s.to_move == 0 and s.legal_options() == ["keep:indigo", "pass"]
    play(s, "keep:indigo")
    assert is_role_choice(s)
    assert s.p[0]["goods"]["indigo"] == 1
    assert vp(s, 0) == 3


def test_partial_ships_stay_loaded(s):
    set_goods(s, 0, corn=2)
    play(s, "role:captain", "load:corn:ship-5")
    assert ship(s, "ship-5") == {"type": "ship-5", "cargo": "corn", "load": 2}


# -- prospector, role coins, governor --------------------------------------------------------
def test_prospector_takes_one_doubloon(s):
    bank = s.g["bank"]
    play(s, "role:prospector")
    assert s.p[0]["doubloons"] == 1 and s.g["bank"] == bank - 1
    assert s.to_move == 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_role_coins_and_governor_rotation(games, n):
    st = games[n].new_state(7)
    clear_all(st)
    roles = [o.split(":")[1] for o in st.legal_options()]
    coins = dict.fromkeys(roles, 0)
    for rnd in range(n + 1):
        assert st.g["governor"] == rnd % n and st.to_move == rnd % n
        taken = []
        while not st.is_over and is_role_choice(st):
            if len(taken) == n:
                break
            seat = st.to_move
            # take the role with the most coins
            best = max((o for o in st.legal_options()), key=lambda o: coins[o.split(":")[1]])
            r = best.split(":")[1]
            before = st.p[seat]["doubloons"]
            play(st, best)
            gained = coins[r] + (1 if r.startswith("prospector") else 0)
            pass_until_role(st)
            assert st.p[seat]["doubloons"] == before + gained, (rnd, r)
            assert st.g["role-coins"][r] == 0
            coins[r] = 0
            taken.append(r)
        assert len(taken) == n
        for r in roles:
            if r not in taken:
                coins[r] += 1
        assert {r: st.g["role-coins"][r] for r in roles} == coins
    check_invariants(st, n)


@pytest.mark.parametrize("n, biggest", [(3, "ship-6"), (5, "ship-8")])
def test_ships_by_player_count(games, n, biggest):
    st = games[n].new_state(3)
    clear_all(st)
    set_goods(st, 0, corn=10)
    play(st, "role:captain")
    assert st.legal_options() == [f"load:corn:{biggest}"]
    play(st, f"load:corn:{biggest}", "privilege-vp")
    assert vp(st, 0) == int(biggest[-1]) + 1
    check_invariants(st, n)
