"""Every worked example of the rulebook (rules/san-juan-en.txt) on the real engine from the real
ruleset. Seat 0 is governor and chooses the first role; the example's player sits in the seat
the example needs (the chooser: seat 0; anybody else: seat 1 or 2)."""

from __future__ import annotations

from helpers.moves import pass_until_role, play

from .cities import city, give_building, goods, scores, set_city, set_tile
from .conftest import get_game, start
from .helpers import check_cards, give_cards, give_hand, hand, stack_deck, take


# -- builder ---------------------------------------------------------------------------------
def test_jaden_builder_smithy_library_builds_sugar_mill_for_nothing():
    s = start()
    set_city(s, 0, "indigo-plant", "smithy", "library")
    give_hand(s, 0, "sugar-mill", "statue", "hero", "palace")
    play(s, "role:builder")
    assert "build:sugar-mill" in s.legal_options()
    play(s, "build:sugar-mill")
    # 3 off a cost of 2: he pays nothing and keeps no surplus card
    assert hand(s, 0) == 3 and "sugar-mill" in city(s, 0)
    assert s.to_move == 1
    check_cards(s)


def test_builder_with_smithy_and_library_pays_one_for_a_statue():
    s = start()
    set_city(s, 0, "indigo-plant", "smithy", "library")
    give_hand(s, 0, "statue", "hero", "palace")
    play(s, "role:builder", "build:statue")  # 3 - 2 (privilege doubled); smithy: production only
    assert s.legal_options() == ["pay:hero", "pay:palace"]
    play(s, "pay:hero")
    assert s.p[0]["hand"] == ["palace"]


def test_cost_never_below_zero_and_no_surplus():
    s = start()
    set_city(s, 0, "indigo-plant", "quarry", "library")
    give_hand(s, 0, "smithy")
    play(s, "role:builder", "build:smithy")  # 1 - 2 - 1
    assert hand(s, 0) == 0 and "smithy" in city(s, 0)


# -- trader ----------------------------------------------------------------------------------
def test_devin_trader_sells_three_goods_for_seven_cards():
    """The example names the market stand, but a third sale needs the trading post (the market
    stand gives a card, not a sale); with the trading post and the market hall the cards drawn
    are exactly the example's 1 + 2 + 3 + 1 = 7."""
    s = start()
    set_city(s, 0, "trading-post", "market-hall")
    for b in ("indigo-plant", "tobacco-storage", "silver-smelter"):
        give_building(s, 0, b, good=True)
    set_tile(s, "tile-3")  # indigo 1, tobacco 2, silver 3
    before = hand(s, 0)
    play(s, "role:trader", "sell:indigo-plant", "sell:tobacco-storage", "sell:silver-smelter")
    assert hand(s, 0) == before + 7
    assert goods(s, 0) == 0 and s.to_move == 1
    check_cards(s)


def test_devin_as_printed_market_stand_and_market_hall_sell_two():
    s = start()
    set_city(s, 0, "market-stand", "market-hall")
    for b in ("indigo-plant", "tobacco-storage", "silver-smelter"):
        give_building(s, 0, b, good=True)
    set_tile(s, "tile-3")
    before = hand(s, 0)
    play(s, "role:trader", "sell:tobacco-storage", "sell:silver-smelter")
    assert s.to_move == 1  # two sales: action + privilege
    assert hand(s, 0) == before + 2 + 3 + 1 + 1  # market hall + market stand


def test_sarah_market_hall_one_sugar_one_coffee_draws_four():
    s = start()
    set_city(s, 0, "market-hall")
    give_building(s, 0, "sugar-mill", good=True)
    give_building(s, 0, "coffee-roaster", good=True)
    set_tile(s, "tile-1")  # sugar 1, coffee 2
    before = hand(s, 0)
    play(s, "role:trader", "sell:sugar-mill", "sell:coffee-roaster")
    assert hand(s, 0) == before + 4


def test_trading_house_tile_goes_under_the_stack_even_without_sales():
    s = start()
    for seat in range(4):
        set_city(s, seat, "indigo-plant")
    order = list(s.g["tile-order"])
    first = s.g["tile-index"]
    play(s, "role:trader")
    assert s.g["tile-index"] == (first + 1) % 5 and s.g["tile-order"] == order


# -- councillor ------------------------------------------------------------------------------
def test_nicole_councillor_prefecture_archive_adds_five_discards_three():
    s = start()
    set_city(s, 0, "indigo-plant", "prefecture", "archive")
    play(s, "role:councillor")
    assert hand(s, 0) == 4 + 5
    assert all(o.startswith("discard:") for o in s.legal_options())
    for _ in range(3):
        play(s, s.legal_options()[-1])
    assert hand(s, 0) == 4 + 2 and s.to_move == 1
    check_cards(s)


def test_jaden_councillor_archive_prefecture_library_takes_eight_discards_six():
    s = start()
    set_city(s, 0, "prefecture", "archive", "library")
    play(s, "role:councillor")
    assert hand(s, 0) == 4 + 8
    for _ in range(6):
        assert s.to_move == 0
        play(s, s.legal_options()[0])
    assert hand(s, 0) == 4 + 2 and s.to_move == 1


def test_councillor_draws_five_keeps_one_others_two_keep_one():
    s = start()
    play(s, "role:councillor")
    assert len(s.p[0]["drawn"]) == 5 and s.to_move == 0
    play(s, s.legal_options()[0])
    assert hand(s, 0) == 5 and s.p[0]["drawn"] == []
    assert len(s.p[1]["drawn"]) == 2
    play(s, s.legal_options()[0])
    assert hand(s, 1) == 5
    check_cards(s)


def test_prefecture_keeps_two_of_two_five_eight():
    s = start()
    set_city(s, 1, "prefecture")  # not the councillor: 2 of 2, no decision
    set_city(s, 0, "prefecture")  # the councillor: 2 of 5
    play(s, "role:councillor")
    assert len(s.p[0]["drawn"]) == 5
    play(s, s.legal_options()[0], s.legal_options()[1])
    assert hand(s, 0) == 6
    assert hand(s, 1) == 6 and s.to_move == 2
    s = start()
    set_city(s, 0, "prefecture", "library")
    play(s, "role:councillor")
    assert len(s.p[0]["drawn"]) == 8
    play(s, s.legal_options()[0])
    play(s, s.legal_options()[0])
    assert hand(s, 0) == 6 and s.to_move == 1


# -- prospector and the gold mine --------------------------------------------------------------
def test_gold_mine_two_equal_costs_discard_all_four():
    s = start()
    set_city(s, 1, "indigo-plant", "gold-mine")
    stack_deck(s, "well", "library", "carpenter", "smithy", "tobacco-storage")
    discard = len(s.g["discard"])
    play(s, "role:prospector")
    assert s.p[0]["hand"][-1] == "well"  # the prospector's privilege first
    assert hand(s, 1) == 4
    assert s.g["discard"][discard:] == ["library", "carpenter", "smithy", "tobacco-storage"]
    check_cards(s)


def test_gold_mine_all_different_keeps_the_cheapest():
    s = start()
    set_city(s, 1, "indigo-plant", "gold-mine")
    stack_deck(s, "well", "quarry", "gold-mine", "tobacco-storage", "library")
    play(s, "role:prospector")
    assert s.p[1]["hand"][-1] == "gold-mine" and hand(s, 1) == 5
    assert sorted(s.g["discard"]) == ["library", "quarry", "tobacco-storage"]


def test_gold_mine_2004_edition_keeps_any_one():
    s = get_game(4, **{"gold-mine": "any-one"}).new_state(1)
    set_city(s, 1, "indigo-plant", "gold-mine")
    stack_deck(s, "well", "quarry", "gold-mine", "tobacco-storage", "library")
    play(s, "role:prospector")
    assert s.to_move == 1
    assert sorted(s.legal_options()) == [
        "gold-keep:gold-mine",
        "gold-keep:library",
        "gold-keep:quarry",
        "gold-keep:tobacco-storage",
    ]
    play(s, "gold-keep:library")
    assert s.p[1]["hand"][-1] == "library"


def test_prospector_draws_one_two_with_library():
    s = start()
    play(s, "role:prospector")
    assert hand(s, 0) == 5 and [hand(s, i) for i in (1, 2, 3)] == [4, 4, 4]
    s = start()
    set_city(s, 0, "library")
    play(s, "role:prospector")
    assert hand(s, 0) == 6


# -- black market, crane, quarry --------------------------------------------------------------
def test_marie_black_market_library_for_three_cards():
    s = start()
    set_city(s, 1, "black-market")
    give_building(s, 1, "indigo-plant", good=True)
    give_building(s, 1, "tobacco-storage", good=True)
    give_hand(s, 1, "library", "statue", "hero", "palace", "well")
    play(s, "role:builder", "pass")
    play(s, "build:library")
    assert sorted(s.legal_options()) == [
        "black-market:indigo-plant",
        "black-market:tobacco-storage",
    ]
    play(s, "black-market:indigo-plant")
    assert "keep-goods" in s.legal_options()
    play(s, "black-market:tobacco-storage", "pay:statue", "pay:hero", "pay:palace")
    assert s.p[1]["hand"] == ["well"] and goods(s, 1) == 0 and "library" in city(s, 1)
    check_cards(s)


def test_nicole_crane_covers_chapel_with_palace_pays_three():
    s = start()
    set_city(s, 1, "crane", "chapel")
    s.p[1]["under-cards"].extend([take(s, "well"), take(s, "well")])
    give_hand(s, 1, "palace", "statue", "hero", "smithy")
    play(s, "role:builder", "pass", "build:palace")
    assert sorted(s.legal_options()) == ["cover:chapel"]  # 6 > 3 cards: only over the chapel
    play(s, "cover:chapel")
    assert hand(s, 1) == 0 and city(s, 1) == ["crane", "palace"]
    assert s.p[1]["covered"] == ["chapel"]
    # the chapel is covered, the cards under it still score
    sc = scores(s, 1)["components"]
    assert sc["cards-under"] == 2 and sc["buildings"] == 1
    check_cards(s)


def test_jaden_crane_covers_coffee_roaster_with_statue_pays_nothing():
    s = start()
    set_city(s, 2, "crane", "coffee-roaster")
    give_hand(s, 2, "statue", "hero", "palace")
    play(s, "role:builder", "pass", "pass", "build:statue")
    # 3 cards > 2 left in hand: only over the coffee roaster
    assert s.legal_options() == ["cover:coffee-roaster"]
    play(s, "cover:coffee-roaster")
    assert hand(s, 2) == 2  # he does not keep the 1 card difference
    assert city(s, 2) == ["crane", "statue"]


def test_crane_rules_no_crane_no_same_building_good_lost_and_rebuild():
    s = start()
    set_city(s, 1, "crane", "statue")
    give_building(s, 1, "indigo-plant", good=True)
    give_hand(s, 1, "indigo-plant", "well")
    play(s, "role:builder", "pass", "build:indigo-plant")
    # not over the crane, not over the same building
    assert sorted(s.legal_options()) == ["cover:statue", "no-cover"]
    s2 = start(seed=2)
    set_city(s2, 1, "crane", "sugar-mill")
    give_building(s2, 1, "indigo-plant", good=True)
    give_hand(s2, 1, "tobacco-storage", "well", "smithy")
    discard = len(s2.g["discard"])
    play(s2, "role:builder", "pass", "build:tobacco-storage", "cover:indigo-plant")
    # the good is lost, and 3 - 1 = 2 cards paid
    assert goods(s2, 1) == 0 and len(s2.g["discard"]) == discard + 1 + 2
    check_cards(s2)
    # a covered building may be built again
    s3 = start(seed=3)
    set_city(s3, 1, "crane", "well")
    s3.p[1]["covered"].append(take(s3, "statue"))
    give_hand(s3, 1, "statue", "hero", "palace", "library")
    play(s3, "role:builder", "pass", "build:statue")
    assert "cover:well" in s3.legal_options()


def test_nicole_builder_with_quarry_builds_crane_for_free():
    s = start()
    set_city(s, 0, "quarry")
    give_hand(s, 0, "crane", "well")
    play(s, "role:builder", "build:crane")
    assert s.p[0]["hand"] == ["well"] and s.to_move == 1


def test_devin_builder_quarry_library_three_less_for_city_buildings():
    s = start()
    set_city(s, 0, "quarry", "library")
    give_hand(s, 0, "victory-column", "well", "hero")
    play(s, "role:builder", "build:victory-column")
    assert s.legal_options() == ["pay:well", "pay:hero"]


# -- producer and the library ----------------------------------------------------------------
def _producing(s, seat: int) -> int:
    n = 0
    while s.to_move == seat and any(o.startswith("produce:") for o in s.legal_options()):
        play(s, next(o for o in s.legal_options() if o.startswith("produce:")))
        n += 1
    return n


def test_aqueduct_two_three_four_goods():
    for seat, extra, produced in ((1, (), 2), (0, (), 3), (0, ("library",), 4)):
        s = start()
        set_city(s, seat, "aqueduct", *extra, *["indigo-plant"] * 5)
        play(s, "role:producer")
        if seat == 1:
            _producing(s, 0)
        assert _producing(s, seat) == produced
        assert goods(s, seat) == produced


def test_producer_one_two_three_with_library():
    for seat, extra, produced in ((1, (), 1), (0, (), 2), (0, ("library",), 3)):
        s = start()
        set_city(s, seat, *extra, *["sugar-mill"] * 4)
        play(s, "role:producer")
        if seat == 1:
            _producing(s, 0)
        assert _producing(s, seat) == produced


def _selling(s, seat: int) -> int:
    n = 0
    while s.to_move == seat and any(o.startswith("sell:") for o in s.legal_options()):
        play(s, next(o for o in s.legal_options() if o.startswith("sell:")))
        n += 1
    return n


def test_trading_post_two_three_four_goods():
    for seat, extra, sold in ((1, (), 2), (0, (), 3), (0, ("library",), 4)):
        s = start()
        set_city(s, seat, "trading-post", *extra)
        for _ in range(5):
            give_building(s, seat, "indigo-plant", good=True)
        play(s, "role:trader")
        if seat == 1:
            _selling(s, 0)
        assert _selling(s, seat) == sold


# -- game end buildings ----------------------------------------------------------------------
def test_nicole_guild_hall_nine():
    s = start()
    set_city(s, 0, *["indigo-plant"] * 3, "sugar-mill", "tobacco-storage", "tobacco-storage")
    give_building(s, 0, "guild-hall")
    assert scores(s, 0)["components"]["bonus"] == 9


def test_guild_hall_2004_edition_two_per_production_building():
    s = get_game(4, **{"guild-hall": "two-per-building"}).new_state(1)
    set_city(s, 0, *["indigo-plant"] * 3, "sugar-mill", "tobacco-storage", "guild-hall")
    assert scores(s, 0)["components"]["bonus"] == 10


def test_jaden_city_hall_nine():
    s = start()
    city_buildings = ("poor-house", "aqueduct", "carpenter", "chapel", "quarry", "library")
    set_city(s, 0, "indigo-plant", *city_buildings, "statue", "palace", "city-hall")
    assert scores(s, 0)["components"]["bonus"] == 9


def test_devin_triumphal_arch_six_and_city_hall_four():
    s = start()
    set_city(s, 0, "statue", "hero", "triumphal-arch")
    assert scores(s, 0)["components"]["bonus"] == 6
    give_building(s, 0, "city-hall")
    assert scores(s, 0)["components"]["bonus"] == 6 + 4
    set_city(s, 0)
    set_city(s, 1, "statue", "hero", "victory-column", "triumphal-arch")
    assert scores(s, 1)["components"]["bonus"] == 8
    set_city(s, 2, "statue", "triumphal-arch")
    assert scores(s, 2)["components"]["bonus"] == 4


def test_marie_palace_34_becomes_42():
    s = start()
    # 5 + 4 + 3 + 3 + 2 = 17 VP of buildings, 17 cards under the chapel: 34
    set_city(s, 0, "palace", "hero", "victory-column", "statue", "library", "chapel")
    for c in ("indigo-plant",) * 5 + ("sugar-mill",) * 6 + ("well", "smithy") * 3:
        s.p[0]["under-cards"].append(take(s, c))
    sc = scores(s, 0)
    assert sc["components"] == {"buildings": 17, "cards-under": 17, "bonus": 0, "palace": 8}
    assert sc["total"] == 42
    check_cards(s)


def test_palace_is_counted_last_on_the_bonus_too():
    s = start()
    set_city(s, 0, "palace", "statue", "hero", "triumphal-arch")  # 8 + 6 = 14
    assert scores(s, 0)["components"]["palace"] == 3


def test_tie_break_hand_plus_goods():
    s = start()
    set_city(s, 0, "statue", "smithy")  # 4 VP
    set_city(s, 1, "chapel", "well")
    give_building(s, 1, "indigo-plant", good=True)  # 4 VP
    give_cards(s, 0, 2)
    give_cards(s, 1, 2)
    res = scores(s, 0), scores(s, 1)
    assert res[0]["total"] == res[1]["total"] == 4
    assert res[0]["tiebreak"] == 2 and res[1]["tiebreak"] == 3
    from .cities import score

    assert score(s).winner == 1


# -- rounds, 2 players, game end --------------------------------------------------------------
def test_two_player_round_governor_other_governor():
    s = start(2)
    assert s.to_move == 0
    play(s, "role:prospector")
    assert s.to_move == 1
    play(s, "role:councillor")
    pass_until_role(s)
    assert s.to_move == 0 and s.round == 1
    play(s, "role:trader")
    pass_until_role(s)
    assert s.round == 2 and s.to_move == 1 and s.g["governor"] == 1
    assert len(s.legal_options()) == 5


def test_two_player_library_once_a_round():
    s = start(2)
    set_city(s, 0, "library")
    play(s, "role:prospector")
    assert s.legal_options() == ["use-library", "save-library"]
    play(s, "use-library")
    assert hand(s, 0) == 6
    play(s, "role:builder", "pass", "pass")
    play(s, "role:councillor")  # the governor again: no library now, 5 cards
    assert len(s.p[0]["drawn"]) == 5
    s = start(2)
    set_city(s, 0, "library")
    play(s, "role:prospector", "save-library")
    assert hand(s, 0) == 5
    play(s, "role:builder", "pass", "pass", "role:councillor")
    assert len(s.p[0]["drawn"]) == 8


def test_game_ends_at_the_end_of_the_builder_phase_with_a_twelfth_building():
    s = start()
    set_city(s, 1, *["coffee-roaster"] * 8, "well", "tower", "archive")
    give_hand(s, 1, "sugar-mill", "statue", "hero")
    give_hand(s, 2, "indigo-plant", "well")
    play(s, "role:builder", "pass", "build:sugar-mill")  # pays statue and hero (all he has)
    assert len(s.p[1]["city"]) == 12 and not s.is_over
    play(s, "build:indigo-plant", "pass")  # the others still build in this phase
    assert s.is_over and s.result().trigger == "city-full"
    assert s.round == 1 and s.history == [
        "role:builder",
        "pass",
        "build:sugar-mill",
        "build:indigo-plant",
        "pass",
    ]
    assert len(s.p[2]["city"]) == 2
    check_cards(s)


def test_round_start_chapel_then_hand_limit():
    s = start()
    set_city(s, 1, "chapel")
    set_city(s, 2, "tower")
    give_cards(s, 1, 8)
    give_cards(s, 2, 13)
    give_cards(s, 3, 9)
    play(s, "role:councillor")
    for _ in range(4):  # everybody keeps one
        play(s, s.legal_options()[0])
    play(s, "role:prospector", "role:trader", "role:builder", "pass", "pass", "pass", "pass")
    assert [hand(s, i) for i in range(4)] == [5, 10, 14, 10]
    # round 2: seat 1 (governor) may put a card under the chapel first ...
    assert s.round == 2 and s.to_move == 1
    assert s.legal_options()[-1] == "pass"
    assert all(o.startswith("chapel:") for o in s.legal_options()[:-1])
    play(s, s.legal_options()[0])
    assert hand(s, 1) == 9 and len(s.p[1]["under-cards"]) == 1
    # ... then nobody keeps more than 7 cards (12 with a tower), discarding one at a time
    assert s.to_move == 1 and s.legal_options()[0].startswith("discard:")
    while not s.legal_options()[0].startswith("role:"):
        play(s, s.legal_options()[0])
    assert [hand(s, i) for i in range(4)] == [5, 7, 12, 7]
    assert scores(s, 1)["components"]["cards-under"] == 1
    check_cards(s)


def test_during_a_round_hands_may_exceed_seven():
    s = start()
    give_cards(s, 0, 7)
    set_city(s, 0, "library")
    play(s, "role:prospector")
    assert hand(s, 0) == 9 and s.to_move == 1
