"""The official 2-player game applies by itself with 2 players (German: DAS SPIEL ZU ZWEIT)."""

from __future__ import annotations

from collections import Counter

from helpers.moves import play

from .helpers import expected_totals, totals

PRODUCTION = {
    "small-indigo-plant",
    "small-sugar-mill",
    "indigo-plant",
    "sugar-mill",
    "tobacco-storage",
    "coffee-roaster",
}
TILE_COPIES = {
    "corn-plantation": 10,
    "indigo-plantation": 12,
    "sugar-plantation": 11,
    "tobacco-plantation": 9,
    "coffee-plantation": 8,
}
GOODS_COUNT = {"corn": 10, "indigo": 11, "sugar": 11, "tobacco": 9, "coffee": 9}


def test_setup_numbers(game):
    s = game(2).new_state(3)
    g = s.g
    assert [pl["doubloons"] for pl in s.p] == [3, 3]
    assert [[x["type"] for x in pl["island"]] for pl in s.p] == [
        ["indigo-plantation"],
        ["corn-plantation"],
    ]
    assert g["vp-chips"] == 65
    assert (g["colonist-supply"], g["colonist-ship"]) == (40, 2)
    assert [sh["type"] for sh in g["ships"]] == ["ship-4", "ship-6"]
    assert sorted(g["roles-in-play"]) == sorted(
        ["settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"]
    )
    assert g["goods-supply"] == {k: n - 2 for k, n in GOODS_COUNT.items()}
    # three of each tile kind leave the game; three plantations face up
    assert len(g["tile-row"]) == 3
    assert g["quarry-stack"] == 8 - 3
    left = Counter(g["tile-stack"]) + Counter(g["tile-row"])
    left.update(x["type"] for pl in s.p for x in pl["island"])
    assert left == {t: n - 3 for t, n in TILE_COPIES.items()}
    for b, n in g["building-supply"].items():
        assert n == (2 if b in PRODUCTION else 1), b
    assert totals(s)["buildings"] == 6 * 2 + 17
    t = totals(s)
    for k, v in expected_totals(game(2)).items():
        assert t[k] == v, k


def test_players_alternate_until_each_chose_three_roles(game):
    s = game(2).new_state(5)
    choosers = []
    for _ in range(6):
        while not any(o.startswith("role:") for o in s.legal_options()):
            opts = s.legal_options()
            s.apply("pass" if "pass" in opts else opts[0])
        choosers.append(s.to_move)
        # take a role that needs no decision from anybody else
        roles = [o for o in s.legal_options() if o.startswith("role:")]
        s.apply("role:prospector" if "role:prospector" in roles else roles[0])
    assert choosers == [0, 1, 0, 1, 0, 1]
    while not any(o.startswith("role:") for o in s.legal_options()):
        opts = s.legal_options()
        s.apply("pass" if "pass" in opts else opts[0])
    # the new governor chooses again from all seven roles; one doubloon lies on the seventh
    assert s.g["governor"] == 1 and s.to_move == 1
    assert len([o for o in s.legal_options() if o.startswith("role:")]) == 7
    assert sum(s.g["role-coins"].values()) == 1


def test_seventh_role_gets_one_doubloon(game):
    s = game(2).new_state(1)
    play(s, "role:prospector")  # seat 0, +1
    for r in ("role:trader", "role:builder", "role:settler", "role:craftsman", "role:mayor"):
        while s.legal_options() and not any(o.startswith("role:") for o in s.legal_options()):
            opts = s.legal_options()
            s.apply("pass" if "pass" in opts else opts[0])
        play(s, r)
    while not any(o.startswith("role:") for o in s.legal_options()):
        opts = s.legal_options()
        s.apply("pass" if "pass" in opts else opts[0])
    assert s.g["role-coins"] == {**{r: 0 for r in s.g["role-coins"]}, "captain": 1}
    assert s.round == 2  # rounds count from 1


def test_two_player_game_plays_to_the_end(game):
    from .helpers import random_game

    s = random_game(game(2), 11, check="all")
    assert s.result().trigger in {"colonists", "city", "vp-chips"}
