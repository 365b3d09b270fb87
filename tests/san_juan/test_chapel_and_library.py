"""The chapel and the library, each played through the real engine from the real ruleset and
compared with the same play without the building, so that every test fails when the building's
function is missing.

Library (rules: "Library - all phases"): the chooser's privilege of every role is doubled -
councillor 8 cards to choose from (instead of 5), builder 2 cards less (instead of 1), producer
up to 3 goods (instead of 2), trader up to 3 goods (instead of 2), prospector 2 cards (instead
of 1). It does nothing for a player who did not choose the role (no privilege to double).

Chapel (rules: "Chapel - beginning of a round" and "GAME END"): at the start of a round its
owner may put 1 hand card face down under it; each such card is 1 VP at the end. The game is
played to its real end (a 12th building) with two cards tucked in two round starts. The chapel
has no ruleset option of its own (the options are gold-mine, guild-hall and the expansion's
added-production, tavern-cost, goldsmith-vp); it is implemented twice (the base round start, and
the round start that The New Buildings replaces, which also replaces `under-vp`), so it is
played with and without that overlay, with 2 and 3 players.
"""

from __future__ import annotations

import pytest

from helpers.moves import play

from .cities import city, give_building, set_city
from .conftest import start
from .helpers import check_cards, give_hand, hand

# A stand-in for the building under test: no function in any phase, so "without the building"
# is the same city size (the stand-in's VP does not matter for the library tests).
STAND_IN = "statue"
ROLES = ("councillor", "builder", "producer", "trader", "prospector")


def choose_role(s, role: str) -> None:
    """Seat 0 (the governor) takes `role`; with 2 players he uses his library now if asked."""
    assert s.to_move == 0
    play(s, f"role:{role}")
    if "use-library" in s.legal_options():
        play(s, "use-library")


def until_seat(s, seat: int) -> None:
    """Let the players before `seat` in this phase do as little as possible."""
    while s.to_move != seat:
        opts = s.legal_options()
        play(s, "pass" if "pass" in opts else opts[0])


# -- library: one measure per role ---------------------------------------------------------
def councillor(s, seat: int) -> int:
    """Cards the seat draws to choose from (it keeps 1 of them either way)."""
    choose_role(s, "councillor")
    until_seat(s, seat)
    drawn = len(s.p[seat]["drawn"])
    before, discard = hand(s, seat), len(s.g["discard"])
    play(s, next(o for o in s.legal_options() if o.startswith("keep:")))
    assert hand(s, seat) == before + 1 and len(s.g["discard"]) == discard + drawn - 1
    return drawn


def builder(s, seat: int) -> int:
    """Cards the seat pays for a hero (cost 5)."""
    give_hand(s, seat, "hero", "statue", "statue", "victory-column", "victory-column", "palace")
    choose_role(s, "builder")
    until_seat(s, seat)
    play(s, "build:hero")
    while s.to_move == seat and s.legal_options()[0].startswith("pay:"):
        play(s, s.legal_options()[0])
    assert "hero" in city(s, seat)
    return 5 - hand(s, seat)


def producer(s, seat: int) -> int:
    """Goods the seat may produce (it has 5 empty indigo plants)."""
    for _ in range(5):
        give_building(s, seat, "indigo-plant")
    choose_role(s, "producer")
    until_seat(s, seat)
    made = 0
    while s.to_move == seat and "produce:indigo-plant" in s.legal_options():
        play(s, "produce:indigo-plant")
        made += 1
    return made


def trader(s, seat: int) -> int:
    """Goods the seat may sell (it has 5 loaded indigo plants)."""
    for _ in range(5):
        give_building(s, seat, "indigo-plant", good=True)
    choose_role(s, "trader")
    until_seat(s, seat)
    sold, before = 0, hand(s, seat)
    while s.to_move == seat and "sell:indigo-plant" in s.legal_options():
        play(s, "sell:indigo-plant")
        sold += 1
    assert hand(s, seat) == before + sold  # indigo sells for 1 on every tile
    return sold


def prospector(s, seat: int) -> int:
    """Cards the seat draws in the prospector phase."""
    before = hand(s, seat)
    choose_role(s, "prospector")
    return hand(s, seat) - before


MEASURE = {
    "councillor": councillor,
    "builder": builder,
    "producer": producer,
    "trader": trader,
    "prospector": prospector,
}
# (without the library, with it) for the chooser, from the rulebook's list of doubled privileges
# (the builder pays the hero's 5 less 1 or 2); a non-chooser gets the action only, either way.
CHOOSER = {
    "councillor": (5, 8),
    "builder": (4, 3),
    "producer": (2, 3),
    "trader": (2, 3),
    "prospector": (1, 2),
}
OTHER = {"councillor": 2, "builder": 5, "producer": 1, "trader": 1, "prospector": 0}


def measure(players: int, role: str, seat: int, library: bool) -> int:
    s = start(players)
    set_city(s, seat, "library" if library else STAND_IN)
    got = MEASURE[role](s, seat)
    check_cards(s)
    return got


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("role", ROLES)
def test_library_doubles_the_choosers_privilege(players, role):
    without, with_library = (measure(players, role, 0, lib) for lib in (False, True))
    assert (without, with_library) == CHOOSER[role]


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("role", ROLES)
def test_library_gives_nothing_to_a_player_who_did_not_choose(players, role):
    assert measure(players, role, 1, False) == measure(players, role, 1, True) == OTHER[role]


# -- chapel --------------------------------------------------------------------------------
# 10 buildings besides the chapel (or a stand-in with the chapel's 2 VP and no function in the
# phases played here): the well built in round 3 is the 12th and ends the game.
CITY = ("indigo-plant",) * 5 + ("sugar-mill",) * 5
CHAPEL_STAND_IN = "aqueduct"  # 2 VP like the chapel; works only in the producer phase
QUIET_ROLES = ("role:prospector", "role:trader", "role:councillor")


def play_to_the_end_tucking_cards(players: int, overlays: tuple, chapel: bool):
    """Seat 1 owns a chapel (or the stand-in). Rounds 1 and 2: prospector, trader, councillor
    only. Whenever a chapel decision comes (only at a round start), seat 1 puts the hero, then
    the statue under it. In round 3 seat 1 takes the builder and builds the well, his 12th
    building, which ends the game. Returns the final state and the rounds with a chapel
    decision."""
    s = start(players, *overlays)
    set_city(s, 1, *CITY, "chapel" if chapel else CHAPEL_STAND_IN)
    give_hand(s, 1, "hero", "statue", "well")
    tuck = iter(("hero", "statue"))
    chapel_rounds = []
    while not s.is_over:
        opts = s.legal_options()
        if any(o.startswith("chapel:") for o in opts):
            assert s.to_move == 1 and opts[-1] == "pass"
            chapel_rounds.append(s.round)
            card = next(tuck)
            hand_before = list(s.p[1]["hand"])
            play(s, f"chapel:{card}")
            assert s.p[1]["under-cards"][-1] == card
            hand_before.remove(card)
            assert s.p[1]["hand"] == hand_before
        elif opts[0].startswith("role:"):
            if s.round == 3 and s.to_move == 1:
                play(s, "role:builder", "build:well")
            else:
                play(s, next(r for r in QUIET_ROLES if r in opts))
        else:
            play(s, "pass" if "pass" in opts else opts[0])
    assert s.round == 3 and s.result().trigger == "city-full"
    assert "well" in city(s, 1) and len(s.p[1]["city"]) == 12
    check_cards(s)
    return s, chapel_rounds


@pytest.mark.parametrize("overlays", [(), ("new-buildings",)], ids=["base", "new-buildings"])
@pytest.mark.parametrize("players", [3, 2])
def test_cards_under_the_chapel_count_one_vp_each_at_the_end(players, overlays):
    with_chapel, rounds = play_to_the_end_tucking_cards(players, overlays, True)
    without, no_rounds = play_to_the_end_tucking_cards(players, overlays, False)
    # a chapel decision at the start of every round after the first, only for a chapel owner
    assert rounds == [2, 3] and no_rounds == []
    assert with_chapel.p[1]["under-cards"] == ["hero", "statue"]
    mine, other = with_chapel.result().scores[1], without.result().scores[1]
    assert mine["components"]["cards-under"] == 2 and other["components"]["cards-under"] == 0
    assert mine["components"]["buildings"] == other["components"]["buildings"]
    assert mine["total"] == other["total"] + 2
    # the two cards left the hand for good (tie-break: hand + goods)
    assert mine["tiebreak"] == other["tiebreak"] - 2
