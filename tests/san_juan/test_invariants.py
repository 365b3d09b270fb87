"""Every card is always somewhere, no hand limit is broken at a round start, and a player's
view hides the other hands: 300 seeded random games over 2-4 players and both overlays."""

from __future__ import annotations

import json

import pytest

from .conftest import get_game
from .helpers import all_cards, check_cards, full_deck, give_hand, hand, random_game

CONFIGS = [(), ("setup-variation",), ("new-buildings",), ("setup-variation", "new-buildings")]


@pytest.mark.parametrize("overlays", CONFIGS, ids=lambda o: "+".join(o) or "base")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_card(players, overlays):
    game = get_game(players, *overlays)
    ended = set()
    for seed in range(25):  # 12 configurations x 25 = 300 games
        s = random_game(game, seed)
        res = s.result()
        ended.add(res.trigger)
        assert len(res.scores) == players
        if res.trigger == "city-full":
            assert max(len(pl["city"]) for pl in s.p) >= 12
    assert "city-full" in ended


def test_full_deck_sizes():
    assert full_deck(get_game(3)) == 110
    s = get_game(3).new_state(1)
    assert sum(all_cards(s).values()) == 110
    s = get_game(3, "new-buildings").new_state(1)
    assert sum(all_cards(s).values()) == 143
    assert s.g["cathedral-left"] == 1
    s = get_game(3, "new-buildings", **{"added-production": "left-out"}).new_state(1)
    assert sum(all_cards(s).values()) == 139


def test_setup():
    s = get_game(4).new_state(5)
    check_cards(s)
    for seat in range(4):
        assert [b["type"] for b in s.p[seat]["city"]] == ["indigo-plant"]
        assert hand(s, seat) == 4
    assert all_cards(s)["indigo-plant"] == 10
    assert sorted(s.g["tile-order"]) == [f"tile-{i}" for i in range(1, 6)]
    assert s.to_move == 0 and s.legal_options() == [
        "role:builder",
        "role:producer",
        "role:trader",
        "role:councillor",
        "role:prospector",
    ]


def test_setup_variation_deals_5_6_7_8_and_keeps_4():
    s = get_game(4, "setup-variation").new_state(2)
    assert [hand(s, i) for i in range(4)] == [5, 4, 4, 4]
    assert s.to_move == 0 and all(o.startswith("discard:") for o in s.legal_options())
    s.apply(s.legal_options()[0])
    # seat 1 has drawn 2 more
    assert [hand(s, i) for i in range(4)] == [4, 6, 4, 4]
    while not s.legal_options()[0].startswith("role:"):
        s.apply(s.legal_options()[0])
    assert [hand(s, i) for i in range(4)] == [4, 4, 4, 4]
    assert len(s.g["discard"]) == 1 + 2 + 3 + 4
    check_cards(s)


# -- hidden information ----------------------------------------------------------------------
def _twin_states(game, seed):
    """Two states that differ only in seat 1's hand (one card swapped with a deck card)."""
    a = game.new_state(seed)
    b = a.copy()
    mine = b.p[1]["hand"][0]
    other = next(c for c in b.g["deck"] if c != mine)
    i = b.g["deck"].index(other)
    b.g["deck"][i] = mine
    b.p[1]["hand"][0] = other
    return a, b


@pytest.mark.parametrize("players", [2, 4])
def test_views_do_not_show_other_hands(players):
    game = get_game(players, "new-buildings")
    a, b = _twin_states(game, 11)
    assert a.p[1]["hand"] != b.p[1]["hand"]
    for seat in range(players):
        if seat != 1:
            assert a.view(seat) == b.view(seat)
    assert a.view(1) != b.view(1)
    v = a.view(0)
    json.dumps(v)
    assert v["players"][1]["hand"] == {"hidden": True, "count": 4}
    assert v["players"][0]["hand"] == a.p[0]["hand"]
    assert v["global"]["deck"] == {"hidden": True, "count": len(a.g["deck"])}


def test_views_stay_equal_when_both_games_go_on():
    """The same choices on both twins keep seat 0's views equal as long as seat 1's swapped card
    stays in the hand (here: roles nobody builds or pays with)."""
    game = get_game(3)
    a, b = _twin_states(game, 4)
    for s in (a, b):
        s.apply("role:prospector")
    assert a.view(0) == b.view(0)


def test_goods_are_face_down_for_everybody():
    game = get_game(3)
    s = game.new_state(3)
    s.apply("role:producer")
    while s.legal_options() and s.legal_options()[0].startswith("produce:"):
        s.apply(s.legal_options()[0])
    assert len(s.g["goods-cards"]) >= 1
    for seat in range(3):
        assert s.view(seat)["global"]["goods-cards"] == {
            "hidden": True,
            "count": len(s.g["goods-cards"]),
        }


def test_give_hand_helper_keeps_cards():
    s = get_game(3).new_state(1)
    give_hand(s, 0, "palace", "library")
    check_cards(s)
