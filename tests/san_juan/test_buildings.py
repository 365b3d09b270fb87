"""Each building's function, checked against the same situation without the building (so each
test fails when the function is missing), plus the expansion's examples: residence, cathedral,
park. Seat 0 is governor and chooser unless a test says otherwise."""

from __future__ import annotations

from helpers.moves import pass_until_role, play

from .cities import city, give_building, goods, scores, set_city, set_tile
from .conftest import get_game, start
from .helpers import check_cards, give_cards, give_hand, hand, stack_deck


def nb(seed: int = 1):
    return start(4, "new-buildings", seed=seed)


# -- base buildings --------------------------------------------------------------------------
def test_smithy_one_less_for_production_only():
    for with_smithy, left in ((True, 1), (False, 0)):
        s = start()
        set_city(s, 1, "smithy" if with_smithy else "well")
        give_hand(s, 1, "sugar-mill", "hero", "palace")
        play(s, "role:builder", "pass", "build:sugar-mill")
        if with_smithy:
            play(s, "pay:hero")
        assert hand(s, 1) == left and "sugar-mill" in city(s, 1)
    s = start()
    set_city(s, 1, "smithy")
    give_hand(s, 1, "well", "hero", "palace", "statue")
    play(s, "role:builder", "pass", "build:well", "pay:hero")
    assert s.to_move == 1  # a city building: the full cost 2


def test_a_payment_lists_the_cards_in_the_same_order_at_every_card():
    # paying the first hero leaves the other at the end of the hand; it keeps its place
    s = start()
    give_hand(s, 1, "statue", "hero", "well", "palace", "hero")
    play(s, "role:builder", "pass", "build:statue")
    listed = s.legal_options()
    assert sorted(listed) == ["pay:hero", "pay:palace", "pay:well"]
    play(s, "pay:hero")
    assert s.legal_options() == listed


def test_poor_house_card_with_zero_or_one_left_and_carpenter_first():
    for poor_house, after in ((True, 1), (False, 0)):
        s = start()
        set_city(s, 1, "poor-house" if poor_house else "well")
        give_hand(s, 1, "sugar-mill", "hero", "palace")
        play(s, "role:builder", "pass", "build:sugar-mill")  # pays 2 of 2: 0 left
        assert hand(s, 1) == after
    # carpenter first: 0 -> 1, then the poor house: 1 -> 2
    s = start()
    set_city(s, 1, "poor-house", "carpenter")
    give_hand(s, 1, "statue", "hero", "palace", "library")
    play(s, "role:builder", "pass", "build:statue")
    assert hand(s, 1) == 2
    # 1 left after paying: carpenter -> 2, the poor house gives nothing
    s = start()
    set_city(s, 1, "poor-house", "carpenter")
    give_hand(s, 1, "statue", "hero", "palace", "library", "well")
    play(s, "role:builder", "pass", "build:statue", "pay:hero", "pay:palace", "pay:library")
    assert hand(s, 1) == 2
    # no build, no card
    s = start()
    set_city(s, 1, "poor-house")
    give_hand(s, 1, "palace")
    play(s, "role:builder", "pass", "pass")
    assert hand(s, 1) == 1


def test_black_market_needed_to_pay_with_goods():
    s = start()
    give_building(s, 1, "indigo-plant", good=True)
    set_city(s, 1, "well")
    give_building(s, 1, "sugar-mill", good=True)
    give_hand(s, 1, "library", "statue")
    play(s, "role:builder", "pass")
    assert "build:library" not in s.legal_options()
    s = start()
    set_city(s, 1, "black-market")
    give_building(s, 1, "sugar-mill", good=True)
    give_building(s, 1, "sugar-mill", good=True)
    give_hand(s, 1, "library", "statue", "hero", "palace")  # 5 = 2 goods + 3 cards
    play(s, "role:builder", "pass", "build:library")
    play(s, "black-market:sugar-mill", "black-market:sugar-mill")
    assert hand(s, 1) == 0 and goods(s, 1) == 0 and "library" in city(s, 1)


def test_well_card_after_two_goods():
    for well, after in ((True, 5), (False, 4)):
        s = start()
        set_city(s, 1, "aqueduct", "indigo-plant", "indigo-plant", *(["well"] if well else []))
        play(s, "role:producer", "pass", "produce:indigo-plant", "produce:indigo-plant")
        assert hand(s, 1) == after
    s = start()
    set_city(s, 1, "well", "indigo-plant")
    play(s, "role:producer", "pass", "produce:indigo-plant")
    assert hand(s, 1) == 4  # only 1 good


def test_market_stand_card_after_two_sales():
    for stand, extra in ((True, 1), (False, 0)):
        s = start()
        set_city(s, 0, *(["market-stand"] if stand else []))
        give_building(s, 0, "indigo-plant", good=True)
        give_building(s, 0, "indigo-plant", good=True)
        play(s, "role:trader", "sell:indigo-plant", "sell:indigo-plant")
        assert hand(s, 0) == 4 + 2 + extra


# The chapel and the library: test_chapel_and_library.py (each compared with the same play
# without the building, for every role of the library, with and without The New Buildings).


def test_tower_keeps_twelve():
    for tower, limit in ((True, 12), (False, 7)):
        s = start()
        set_city(s, 1, "tower" if tower else "well")
        give_cards(s, 1, 13)
        play(s, "role:prospector", "role:trader", "role:producer")
        pass_until_role(s)
        play(s, "role:councillor")
        pass_until_role(s)
        assert s.round == 2 and hand(s, 1) == limit


def test_carpenter_city_buildings_only_and_not_for_itself():
    for carpenter, after in ((True, 2), (False, 1)):
        s = start()
        set_city(s, 1, "carpenter" if carpenter else "well")
        give_hand(s, 1, "smithy", "hero", "palace")
        play(s, "role:builder", "pass", "build:smithy", "pay:hero")
        assert hand(s, 1) == after
    s = start()
    set_city(s, 1, "carpenter")
    give_hand(s, 1, "sugar-mill", "hero", "palace")
    play(s, "role:builder", "pass", "build:sugar-mill")
    assert hand(s, 1) == 0  # a production building: no card
    s = start()
    give_hand(s, 1, "carpenter", "hero", "palace", "statue")
    play(s, "role:builder", "pass", "build:carpenter")
    assert hand(s, 1) == 0  # works only after the phase it was built in


def test_prefecture_keeps_two_instead_of_one():
    for pref, after in ((True, 6), (False, 5)):
        s = start()
        set_city(s, 1, "prefecture" if pref else "well")
        play(s, "role:councillor")
        play(s, s.legal_options()[0])
        if not pref:
            play(s, s.legal_options()[0])
        assert hand(s, 1) == after


def test_archive_discards_from_the_whole_hand():
    s = start()
    set_city(s, 1, "archive")
    give_hand(s, 1, "palace", "well", "hero", "statue")
    play(s, "role:councillor")
    play(s, s.legal_options()[0])
    assert hand(s, 1) == 6
    play(s, "discard:palace")
    assert hand(s, 1) == 5 and "palace" not in s.p[1]["hand"]
    check_cards(s)


def test_market_hall_one_card_more():
    for hall, extra in ((True, 1), (False, 0)):
        s = start()
        set_city(s, 1, *(["market-hall"] if hall else []))
        give_building(s, 1, "indigo-plant", good=True)
        play(s, "role:trader", "sell:indigo-plant")
        assert hand(s, 1) == 4 + 1 + extra


def test_quarry_one_less_for_city_buildings_only():
    s = start()
    set_city(s, 1, "quarry")
    give_hand(s, 1, "statue", "hero", "palace", "well")
    play(s, "role:builder", "pass", "build:statue")
    assert len(s.legal_options()) == 3  # 2 of 3 cards to pay
    play(s, "pay:hero", "pay:palace")
    assert hand(s, 1) == 1
    s = start()
    set_city(s, 1, "quarry")
    give_hand(s, 1, "sugar-mill", "hero", "palace")
    play(s, "role:builder", "pass", "build:sugar-mill")
    assert hand(s, 1) == 0  # production: full cost 2


def test_monuments_score_their_vp_one_of_each_kind():
    s = start()
    set_city(s, 0, "statue", "victory-column", "hero")
    assert scores(s, 0)["components"]["buildings"] == 12
    give_hand(s, 0, "statue", "hero", "palace", "library")
    play(s, "role:builder")
    assert "build:statue" not in s.legal_options()


def test_same_production_building_twice_but_no_city_building_twice():
    s = start()
    set_city(s, 0, "indigo-plant", "well")
    give_hand(s, 0, "indigo-plant", "well", "hero")
    play(s, "role:builder")
    assert "build:indigo-plant" in s.legal_options() and "build:well" not in s.legal_options()


def test_covered_building_loses_its_function_at_once():
    # covering the quarry: the quarry does not help build the building over it
    s = start()
    set_city(s, 1, "crane", "quarry")
    give_hand(s, 1, "palace", "hero", "well")
    play(s, "role:builder", "pass", "build:palace")
    assert s.legal_options() == ["cover:quarry"]
    play(s, "cover:quarry")
    assert hand(s, 1) == 0  # 6 - 4 = 2 paid (with the quarry's function it would be 1)


# -- The New Buildings -----------------------------------------------------------------------
def test_guard_room_limits_others_to_six():
    for guard, limits in ((True, [7, 6, 12]), (False, [7, 7, 12])):
        s = nb()
        set_city(s, 0, "guard-room" if guard else "well")
        set_city(s, 2, "tower")
        for seat in range(4):
            give_cards(s, seat, 13)
        play(s, "role:prospector", "role:trader", "role:producer")
        pass_until_role(s)
        play(s, "role:builder", "pass", "pass", "pass", "pass")
        while not s.legal_options()[0].startswith("role:"):
            play(s, s.legal_options()[0])
        assert [hand(s, i) for i in (0, 1, 2)] == limits


def test_office_building_order_office_then_chapel():
    s = nb()
    set_city(s, 1, "office-building", "chapel")
    give_hand(s, 1, "palace", "hero", "statue")
    play(s, "role:prospector", "role:trader", "role:builder", "pass", "pass", "pass", "pass")
    play(s, "role:councillor")
    for _ in range(4):
        play(s, s.legal_options()[0])
    assert s.round == 2 and s.to_move == 1
    assert s.legal_options()[0].startswith("office:")
    n = hand(s, 1)
    play(s, "office:palace", "office:hero")
    assert hand(s, 1) == n  # discarded 2, drew 2
    assert s.legal_options()[0].startswith("chapel:")  # then the chapel
    check_cards(s)


def test_hut_card_when_nobody_sold():
    s = nb()
    set_city(s, 1, "hut")
    play(s, "role:trader")
    assert hand(s, 1) == 5
    s = nb()
    set_city(s, 1, "hut")
    give_building(s, 2, "indigo-plant", good=True)
    play(s, "role:trader", "sell:indigo-plant")
    assert hand(s, 1) == 4


def test_customs_office_good_at_councillor_sells_for_two():
    s = nb()
    set_city(s, 0, "customs-office")
    play(s, "role:councillor")
    assert goods(s, 0) == 1
    for _ in range(4):
        play(s, s.legal_options()[0])
    play(s, "role:trader")
    set_tile(s, "tile-1")
    s.g["price-tile"] = "tile-1"
    before = hand(s, 0)
    while s.to_move != 0:
        play(s, "pass")
    # seat 0 is not the trader here: one sale, 2 cards whatever the tile
    play(s, "sell:customs-office")
    assert hand(s, 0) == before + 2
    check_cards(s)


def test_tavern_card_for_the_fewest_buildings_after_later_builder_phases():
    s = nb()
    set_city(s, 0, "indigo-plant", "tavern", "well")
    set_city(s, 1, "indigo-plant")
    set_city(s, 2, "indigo-plant", "smithy")
    set_city(s, 3, "indigo-plant", "archive")
    play(s, "role:builder", "pass", "pass", "pass", "pass")
    assert hand(s, 0) == 4  # seat 0 has the most
    s = nb()
    set_city(s, 1, "tavern")
    set_city(s, 2, "indigo-plant", "smithy")
    play(s, "role:builder", "pass", "pass", "pass", "pass")
    assert hand(s, 1) == 5  # fewest (1) and somebody has more
    s = nb()
    for seat in range(4):
        set_city(s, seat, "indigo-plant")
    give_building(s, 1, "tavern")
    play(s, "role:builder", "pass", "pass", "pass", "pass")
    assert hand(s, 1) == 4  # seat 1 has 2, the others 1


def test_park_nicole_library_free_jaden_cathedral_pays_one():
    s = nb()
    set_city(s, 1, "crane", "park")
    give_hand(s, 1, "library", "hero")
    play(s, "role:builder", "pass", "build:library", "cover:park")
    assert hand(s, 1) == 1 and city(s, 1) == ["crane", "library"]
    s = nb()
    set_city(s, 2, "crane", "park")
    give_hand(s, 2, "hero", "well")
    play(s, "role:builder", "pass", "pass", "build:cathedral", "cover:park", "pay:hero")
    assert hand(s, 2) == 1 and city(s, 2) == ["crane", "cathedral"]
    assert s.g["cathedral-left"] == 0
    # the builder builds it for free; so does a quarry owner
    for seat, extra in ((0, ()), (1, ("quarry",))):
        s = nb()
        set_city(s, seat, "crane", "park", *extra)
        give_hand(s, seat, "hero")
        play(s, "role:builder")
        if seat == 1:
            play(s, "pass")
        play(s, "build:cathedral", "cover:park")
        assert hand(s, seat) == 1


def test_bank_once_a_game_any_number_of_cards():
    s = nb()
    set_city(s, 1, "bank")
    give_hand(s, 1, "palace", "hero", "statue")
    play(s, "role:prospector", "role:trader", "role:builder", "pass", "pass", "pass", "pass")
    play(s, "role:councillor")
    for _ in range(4):
        play(s, s.legal_options()[0])
    assert s.to_move == 1 and s.legal_options()[0].startswith("bank:")
    play(s, "bank:palace", "bank:hero", "pass")
    assert s.p[1]["under-cards"] == ["palace", "hero"]
    assert scores(s, 1)["components"]["cards-under"] == 2
    # never again
    while not s.legal_options()[0].startswith("role:"):
        play(s, s.legal_options()[0])
    for role in ("role:prospector", "role:trader", "role:councillor"):
        play(s, role)
        pass_until_role(s)
    play(s, "role:builder")
    while s.round == 2:
        play(s, "pass")
    assert not any(o.startswith("bank:") for o in s.legal_options())


def test_harbor_sold_goods_go_under_it_for_one_vp():
    s = nb()
    set_city(s, 0, "harbor")
    give_building(s, 0, "indigo-plant", good=True)
    give_building(s, 0, "indigo-plant", good=True)
    discard = len(s.g["discard"])
    play(s, "role:trader", "sell:indigo-plant", "sell:indigo-plant")
    assert len(s.g["discard"]) == discard and len(s.g["under-harbor"]) == 2
    assert s.p[0]["harbor-count"] == 2 and hand(s, 0) == 6
    assert scores(s, 0)["components"]["cards-under"] == 2
    check_cards(s)


def test_goldsmith_keeps_a_card_nobody_has_built():
    s = nb()
    set_city(s, 1, "goldsmith")
    stack_deck(s, "well", "library")
    play(s, "role:prospector")
    assert s.p[1]["hand"][-1] == "library"
    s = nb()
    set_city(s, 1, "goldsmith")
    give_building(s, 3, "library")
    stack_deck(s, "well", "library")
    discard = list(s.g["discard"])
    play(s, "role:prospector")
    assert hand(s, 1) == 4 and s.g["discard"] == [*discard, "library"]


def test_residence_marie_seven_devin_ten():
    s = nb()
    set_city(
        s,
        0,
        "indigo-plant",
        "indigo-plant",
        "sugar-mill",
        "black-market",
        "well",
        "tobacco-storage",
        "tobacco-storage",
        "aqueduct",
        "palace",
        "guild-hall",
        "residence",
    )
    set_city(
        s,
        1,
        "indigo-plant",
        "indigo-plant",
        "archive",
        "gold-mine",
        "guard-room",
        "customs-office",
        "carpenter",
        "tobacco-storage",
        "aqueduct",
        "palace",
        "city-hall",
        "residence",
    )
    marie = scores(s, 0)["components"]["bonus"]
    guild = 5 + 3  # guild hall: 5 production buildings, 3 kinds
    assert marie == 7 + guild
    # city hall: archive, gold mine, guard room, customs office, carpenter, aqueduct, palace,
    # city hall, residence
    city_hall = 9
    assert scores(s, 1)["components"]["bonus"] == 10 + city_hall
    check_cards(s)


def test_cathedral_devin_ten_for_six_others_six_cost_buildings():
    s = nb()
    set_city(s, 0)
    s.p[0]["city"].append({"type": "cathedral", "good": 0, "fresh": 0})
    s.g["cathedral-left"] = 0
    set_city(s, 1, "guild-hall", "city-hall", "residence")
    set_city(s, 2, "guild-hall", "city-hall", "palace")
    set_city(s, 3, "indigo-plant")
    assert scores(s, 0)["components"]["bonus"] == 10
    check_cards(s)


def test_cathedral_built_from_the_table_only_once():
    s = nb()
    give_cards(s, 0, 6)
    play(s, "role:builder", "build:cathedral")
    assert s.g["cathedral-left"] == 0
    while s.to_move == 0:
        play(s, s.legal_options()[0])
    assert "cathedral" in city(s, 0) and hand(s, 0) == 0
    give_cards(s, 1, 8)
    assert "build:cathedral" not in s.legal_options()
    check_cards(s)


def test_new_buildings_deck_and_options():
    s = nb()
    assert s.g["cathedral-left"] == 1
    s2 = get_game(4, "new-buildings", **{"tavern-cost": 2, "goldsmith-vp": 2}).new_state(1)
    set_city(s2, 0, "goldsmith")
    assert scores(s2, 0)["components"]["buildings"] == 2
    give_hand(s2, 0, "tavern", "well")
    play(s2, "role:builder", "build:tavern")
    assert hand(s2, 0) == 0  # the builder pays 1 of cost 2
