"""The three end triggers (noted mid-round, the game ends at the end of that round), scoring
and the tie-break."""

from __future__ import annotations

import pytest

from helpers.moves import pass_until_role, play
from helpers.puerto_rico import give_vp, set_doubloons, set_goods, vp

from .helpers import check_invariants, clear_all, end_game, give_building


@pytest.fixture
def s(game4):
    st = game4.new_state(41)
    clear_all(st)
    return st


def finish_round(st):
    """Take quiet roles (passing) until the game is over or a new round starts."""
    start = st.round
    while not st.is_over and st.round == start:
        opts = st.legal_options()
        for oid in ("pass", "role:prospector", "role:trader", "role:builder", "role:settler"):
            if oid in opts:
                st.apply(oid)
                break
        else:
            st.apply(opts[0])


def test_colonists_short_at_the_end_of_a_mayor_phase(s):
    s.p[3]["san-juan"] += s.g["colonist-supply"] - 3
    s.g["colonist-supply"] = 3
    play(s, "role:mayor", "privilege-colonist")
    # 1 privilege, 4 from the ship; the supply (2) cannot give the 4 the new ship needs.
    assert s.g["end-trigger"] == "colonists"
    assert s.g["colonist-ship"] == 2 and s.g["colonist-supply"] == 0
    # The round goes on: the other three still choose roles.
    assert not s.is_over and s.to_move == 1
    finish_round(s)
    assert s.is_over
    assert len([h for h in s.history if h.startswith("role:")]) == 4
    r = s.result()
    assert r.trigger == "colonists" and r.rounds == 1
    check_invariants(s, 4)


def test_colonists_exactly_enough_is_no_trigger(s):
    s.p[3]["san-juan"] += s.g["colonist-supply"] - 5
    s.g["colonist-supply"] = 5
    play(s, "role:mayor", "privilege-colonist")
    assert s.g["end-trigger"] is None
    assert s.g["colonist-ship"] == 4 and s.g["colonist-supply"] == 0
    finish_round(s)
    assert not s.is_over and s.round == 2


@pytest.mark.parametrize("supply, trigger", [(20, None), (7, None), (6, "colonists")])
def test_colonist_ship_needs_the_empty_building_circles(s, supply, trigger):
    give_building(s, 1, "sugar-mill", workers=0)
    give_building(s, 1, "coffee-roaster", workers=0)
    give_building(s, 2, "indigo-plant", workers=0)
    s.p[3]["san-juan"] += s.g["colonist-supply"] - supply
    s.g["colonist-supply"] = supply
    play(s, "role:mayor", "privilege-colonist")
    pass_until_role(s)
    # Bob and Chris placed 1 colonist each: 4 + 2 empty building circles remain.
    assert s.g["end-trigger"] == trigger
    if trigger is None:
        assert s.g["colonist-ship"] == 6
        assert s.g["colonist-supply"] == supply - 1 - 6
    else:
        assert s.g["colonist-ship"] == supply - 1 and s.g["colonist-supply"] == 0
    check_invariants(s, 4)


def test_twelfth_city_space_ends_the_game_after_the_round(s):
    for b in ("guild-hall", "residence", "fortress", "customs-house", "city-hall"):
        give_building(s, 2, b, workers=0)
    give_building(s, 2, "small-market", workers=0)
    set_doubloons(s, 2, 5)
    play(s, "role:builder", "pass", "pass", "build:small-indigo-plant")
    assert s.g["end-trigger"] == "city"
    assert not s.is_over
    finish_round(s)
    assert s.is_over and s.result().trigger == "city" and s.result().rounds == 1
    assert s.result().scores[2]["components"]["buildings"] == 5 * 4 + 1 + 1


def test_eleven_spaces_are_no_trigger(s):
    for b in ("guild-hall", "residence", "fortress", "customs-house"):
        give_building(s, 2, b, workers=0)
    give_building(s, 2, "small-market", workers=0)
    set_doubloons(s, 2, 5)
    play(s, "role:builder", "pass", "pass", "build:small-indigo-plant")
    assert s.g["end-trigger"] is None


def test_last_vp_chip_ends_the_game_and_paper_vp_count(s):
    give_vp(s, 3, s.g["vp-chips"] - 2)  # only 2 chips left
    set_goods(s, 0, corn=3)
    set_goods(s, 1, indigo=2)
    play(s, "role:captain", "load:corn:ship-5", "privilege-vp")
    # 3 + 1 VP: 2 chips, 2 on paper; the trigger is noted.
    assert s.p[0]["vp-chips"] == 2 and s.p[0]["vp-paper"] == 2
    assert s.g["vp-chips"] == 0 and s.g["end-trigger"] == "vp-chips"
    # Loading goes on, on paper.
    play(s, "load:indigo:ship-6")
    assert s.p[1]["vp-paper"] == 2 and vp(s, 1) == 2
    assert not s.is_over
    finish_round(s)
    r = s.result()
    assert r.trigger == "vp-chips" and r.rounds == 1
    assert r.scores[0]["components"]["vp-chips"] == 4
    assert r.scores[1]["components"]["vp-chips"] == 2
    check_invariants(s, 4)


def test_end_waits_for_the_end_of_the_round(s):
    """Triggered by the first role of the round: all players still choose a role."""
    s.p[3]["san-juan"] += s.g["colonist-supply"]
    s.g["colonist-supply"] = 0
    play(s, "role:mayor")
    assert s.g["end-trigger"] == "colonists"
    chosen = 1
    while not s.is_over:
        opts = s.legal_options()
        if opts[0].startswith("role:"):
            chosen += 1
        s.apply("pass" if "pass" in opts else opts[0])
    assert chosen == 4


def test_scoring_components(s):
    give_vp(s, 1, 12)
    give_building(s, 1, "harbor", workers=0)  # 3 VP unoccupied
    give_building(s, 1, "city-hall", workers=1)  # 4 + 2 violet buildings
    r = end_game(s)
    assert r.scores[1]["components"] == {"vp-chips": 12, "buildings": 7, "large-buildings": 2}
    assert r.scores[1]["total"] == 21
    assert r.winner == 1 and r.winners == [1]


def test_tie_break_doubloons_and_goods(s):
    give_vp(s, 1, 5)
    give_vp(s, 2, 5)
    set_doubloons(s, 1, 4)
    set_doubloons(s, 2, 2)
    set_goods(s, 2, corn=1, sugar=2)  # 2 + 3 = 5 > 4
    r = end_game(s)
    assert r.scores[1]["total"] == r.scores[2]["total"] == 5
    assert r.scores[2]["tiebreak"] == 5 and r.scores[1]["tiebreak"] == 4
    assert r.winner == 2 and r.winners == [2]


def test_full_tie_shares_the_win(s):
    give_vp(s, 1, 5)
    give_vp(s, 2, 5)
    set_doubloons(s, 1, 3)
    set_doubloons(s, 2, 3)
    r = end_game(s)
    assert r.winners == [1, 2]


def test_vp_beat_money(s):
    give_vp(s, 1, 6)
    give_vp(s, 2, 5)
    set_doubloons(s, 2, 30)
    assert end_game(s).winner == 1
