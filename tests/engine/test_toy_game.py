"""The engine runs Market Day (tests/toy/), a game it was not written for.

Hand-played sequences assert exact counters after exact options; the expected numbers come
from reading tests/toy/ruleset.yaml, not from running the engine. Scenarios rig the plain state
(stall row, streets, baskets) before the first decision, which the design allows: a state is
plain data, and the first decision (taking a card) does not depend on what is rigged.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

from interpreter.diagnostics.errors import IllegalOptionError
from interpreter.engine.game import Game
from interpreter.engine.invariant_checks import broken_invariants
from interpreter.engine.loader import load_game
from interpreter.engine.state import State

TOY = Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml"
CROP_STOCK = 12  # tables/crop-stock
SEED_HOST_0 = 1  # random(players) in setup gives host 0 for 2 and 3 players with this seed
CARDS = ["card:harvest", "card:sell", "card:buy-stall", "card:festival", "card:odd-job"]


@cache
def toy(players: int = 2, overlays: tuple[str, ...] = (), **options: object) -> Game:
    return load_game(str(TOY), players=players, overlays=overlays, options=options)


def start(players: int = 2, seed: int = SEED_HOST_0, **options: object) -> State:
    # these tests script every decision, forced ones too: the engine's asking mode (its taking
    # a lone option is tested in test_forced_and_local.py)
    s = toy(players, **options).new_state(seed, take_forced=False)
    if seed == SEED_HOST_0:
        assert s.g["host"] == 0 and s.to_move == 0
    return s


def stall(kind: str, staffed: int = 1) -> dict:
    return {"type": kind, "staffed": staffed}


def rig(s: State, seat: int, *, stalls=None, basket=None, coins=None) -> None:
    """Give a seat a street (besides its turnip cart), crops and coins before play starts."""
    p = s.p[seat]
    if stalls is not None:
        p["stalls"] = [stall("turnip-cart"), *stalls]
    if basket is not None:
        p["basket"].update(basket)
    if coins is not None:
        p["coins"] = coins


def play(s: State, *ids: str) -> None:
    for oid in ids:
        s.apply(oid)


def staffed(s: State, seat: int) -> dict[str, int]:
    return {x["type"]: x["staffed"] for x in s.p[seat]["stalls"]}


# -- loading ----------------------------------------------------------------------------------


def test_loads_for_every_player_count_without_warnings():
    for n in (2, 3, 4):
        game = toy(n)
        assert game.name == "market-day" and game.players == n
        assert game.rules.warnings == []
        s = game.new_state(0)
        assert s.legal_options() == CARDS
        assert s.g["crop-pool"] == dict.fromkeys(["turnip", "pumpkin", "cabbage"], CROP_STOCK)
        assert all(p["coins"] == {2: 4, 3: 3, 4: 2}[n] for p in s.p)
        assert all(p["stalls"] == [stall("turnip-cart")] for p in s.p)
        # 2 copies of 6 kinds + 1 bell, two of them face up in the row
        assert len(s.g["stall-deck"]) + len(s.g["stall-row"]) == 13
        assert len(s.g["stall-row"]) == 2


def test_player_count_outside_the_ruleset_is_refused():
    from interpreter.diagnostics.errors import ConfigError

    with pytest.raises(ConfigError):
        load_game(str(TOY), players=5)


# -- hand-played sequences ------------------------------------------------------------------


def test_three_hand_played_rounds_to_the_end():
    s = start(2, **{"last-round": 3})
    s.g["stall-row"] = ["fiddler", "awning"]
    s.g["stall-deck"] = ["bell", "pumpkin-patch", "painted-sign"]  # drawn from the end

    # round 1, host 0: seat 0 buys with the chooser's 1 off, seat 1 at full price
    s.apply("card:buy-stall")
    # the options in the catalog's order, not the row's
    assert (s.to_move, s.legal_options()) == (0, ["buy:awning", "buy:fiddler", "pass"])
    s.apply("buy:fiddler")
    assert s.p[0]["coins"] == 2 and staffed(s, 0) == {"turnip-cart": 1, "fiddler": 0}
    assert (s.to_move, s.legal_options()) == (1, ["buy:awning", "pass"])
    s.apply("buy:awning")
    assert s.p[1]["coins"] == 2
    assert s.g["stall-row"] == ["painted-sign", "pumpkin-patch"] and s.g["stall-deck"] == ["bell"]
    assert (s.to_move, s.legal_options()) == (1, ["card:harvest", "card:sell", *CARDS[3:]])
    # festival: 2 helpers to the chooser, 1 to the neighbour
    s.apply("card:festival")
    assert (s.to_move, s.legal_options()) == (1, ["staff:awning"])
    s.apply("staff:awning")
    assert s.p[1]["helpers"] == 0 and s.p[1]["tips"] == 1  # the spare helper busks
    assert (s.to_move, s.legal_options()) == (0, ["staff:fiddler"])
    s.apply("staff:fiddler")
    # round end: a coin on each card nobody took, the host moves on
    assert s.round == 2 and s.g["host"] == 1
    assert s.g["card-coins"] == {
        "harvest": 1,
        "sell": 1,
        "buy-stall": 0,
        "festival": 0,
        "odd-job": 1,
    }
    assert s.g["card-taken"] == dict.fromkeys(s.g["card-taken"], 0)

    # round 2, host 1
    assert s.to_move == 1
    s.apply("card:harvest")
    assert s.p[1]["coins"] == 3  # the coin on the card
    assert s.legal_options() == ["extra:turnip"]
    s.apply("extra:turnip")
    assert s.p[1]["basket"]["turnip"] == 2 and s.p[0]["basket"]["turnip"] == 1
    assert s.g["crop-pool"]["turnip"] == 9
    assert s.to_move == 0
    s.apply("card:sell")
    assert s.p[0]["coins"] == 3
    assert (s.to_move, s.legal_options()) == (0, ["sell:turnip", "close"])
    s.apply("sell:turnip")
    assert s.p[0]["coins"] == 4 and s.p[0]["fame"] == 1  # the staffed fiddler
    assert (s.to_move, s.legal_options()) == (1, ["sell:turnip", "close"])
    s.apply("sell:turnip")
    assert s.p[1]["coins"] == 6 - 1 and s.p[1]["fame"] == 0  # price 1 + awning 1
    assert s.g["buyers"]["turnip"] == 0 and s.g["crop-pool"]["turnip"] == 11
    assert s.p[0]["tips"] == 1  # the seller's secret tip
    assert s.round == 3 and s.g["host"] == 0

    # round 3, host 0
    s.apply("card:odd-job")
    assert s.p[0]["coins"] == 4 + 2 + 1  # two coins on the card, one for the job
    s.apply("card:buy-stall")
    assert s.p[1]["coins"] == 6
    assert s.legal_options() == ["buy:pumpkin-patch", "buy:painted-sign", "pass"]
    s.apply("buy:painted-sign")
    assert s.p[1]["coins"] == 4
    assert (s.to_move, s.legal_options()) == (0, ["buy:pumpkin-patch", "pass"])
    s.apply("pass")

    assert s.is_over and s.to_move is None and s.legal_options() == []
    assert s.g["stall-row"] == ["pumpkin-patch", "bell"] and s.g["stall-deck"] == []
    r = s.result()
    assert (r.rounds, r.decisions, r.trigger) == (3, 15, "last-round")
    assert r.scores[0]["components"] == {"fame": 1, "stalls": 3, "coins": 2, "tips": 1}
    assert r.scores[1]["components"] == {"fame": 0, "stalls": 2, "coins": 1, "tips": 1}
    assert [x["total"] for x in r.scores] == [7, 4]
    assert [x["tiebreak"] for x in r.scores] == [70, 41]
    assert (r.winner, r.winners) == (0, [0])
    assert s.history[:3] == ["card:buy-stall", "buy:fiddler", "buy:awning"]


def test_option_changes_scoring():
    s = start(2, **{"last-round": 3, "coin-rate": "thrifty"})
    for _ in range(6):  # everybody takes odd jobs for three rounds
        s.apply("card:odd-job" if "card:odd-job" in s.legal_options() else "card:festival")
    r = s.result()
    assert r.rounds == 3
    for sc in r.scores:
        assert sc["components"]["coins"] == s.p[sc["seat"]]["coins"] // 2


def test_stop_if_ends_the_game_right_after_the_phase():
    s = start(2)
    rig(s, 0, stalls=[stall("bell"), stall("pumpkin-patch")])
    rig(s, 1, stalls=[stall("bell", staffed=0)])
    s.g["stall-row"] = ["fiddler", "awning"]
    s.apply("card:buy-stall")
    s.apply("buy:awning")  # the 4th stall: a full street
    assert s.g["end-reason"] == "street-full"
    assert not s.is_over  # the phase is played out first
    assert (s.to_move, s.legal_options()) == (1, ["buy:fiddler", "pass"])
    s.apply("pass")
    assert s.is_over
    r = s.result()
    assert (r.trigger, r.rounds, r.decisions) == ("street-full", 1, 3)
    # the rest of the round never happened: seat 1 took no card, no coins went onto cards
    assert s.g["card-taken"]["buy-stall"] == 1 and sum(s.g["card-taken"].values()) == 1
    assert sum(s.g["card-coins"].values()) == 0 and s.g["host"] == 0
    # at the end only the staffed bell rings: 3 staffed stalls on seat 0's street
    assert r.scores[0]["components"] == {"fame": 3, "stalls": 5, "coins": 1, "tips": 0}
    assert r.scores[1]["components"] == {"fame": 0, "stalls": 1, "coins": 1, "tips": 0}


def test_round_end_trigger_lets_the_round_finish():
    s = start(2)
    s.g["crop-pool"]["turnip"] = 2
    s.apply("card:harvest")  # both carts take the last two turnips; no extra crop is left
    assert s.g["crop-pool"]["turnip"] == 0 and s.g["end-reason"] == "pool-empty"
    assert not s.is_over and s.to_move == 1 and "card:harvest" not in s.legal_options()
    s.apply("card:odd-job")
    assert s.is_over
    r = s.result()
    assert (r.trigger, r.rounds, r.decisions) == ("pool-empty", 1, 2)
    assert s.g["host"] == 1  # the round-end step ran before the game ended
    assert s.g["card-coins"]["sell"] == 1


def test_full_street_cannot_grow():
    s = start(2)
    rig(s, 0, stalls=[stall("bell"), stall("pumpkin-patch"), stall("awning")])
    s.g["stall-row"] = ["fiddler", "compost-heap"]
    s.apply("card:buy-stall")
    assert (s.to_move, s.legal_options()) == (0, ["pass"])  # 4 stalls: nothing to buy
    s.apply("pass")
    assert (s.to_move, s.legal_options()) == (1, ["buy:fiddler", "buy:compost-heap", "pass"])


# -- flow constructs --------------------------------------------------------------------------


def test_until_idle_repeats_rounds_of_turns_until_nobody_can_act():
    s = start(2)
    rig(s, 0, basket={"cabbage": 3})
    rig(s, 1, basket={"cabbage": 1, "pumpkin": 1})
    s.apply("card:sell")
    assert (s.to_move, s.legal_options()) == (0, ["sell:cabbage", "close"])
    s.apply("sell:cabbage")
    assert (s.to_move, s.legal_options()) == (1, ["sell:pumpkin", "sell:cabbage", "close"])
    s.apply("sell:cabbage")
    assert s.g["buyers"]["cabbage"] == 0
    # second time round: seat 0 still has cabbages but no buyer is left, so it is skipped
    assert (s.to_move, s.legal_options()) == (1, ["sell:pumpkin", "close"])
    s.apply("close")
    # third time round nobody can act: the phase is over, the next seat takes a card
    assert (s.to_move, s.legal_options()) == (1, [c for c in CARDS if c != "card:sell"])
    assert [s.p[0]["coins"], s.p[1]["coins"]] == [7, 7]
    assert [s.p[0]["basket"]["cabbage"], s.p[1]["basket"]["pumpkin"]] == [2, 1]


def test_until_idle_with_nobody_able_to_act_asks_nothing():
    s = start(2)
    s.apply("card:sell")
    assert s.decisions == 1 and s.to_move == 1
    assert s.legal_options() == [c for c in CARDS if c != "card:sell"]
    assert s.p[0]["tips"] == 1


def test_repeat_with_choose_and_if_else():
    s = start(3)  # host 0; seat 1 and 2 both sit next to seat 0
    rig(s, 0, stalls=[stall("awning", 0), stall("fiddler", 0), stall("bell", 0)])
    rig(s, 1, stalls=[stall("awning", 0), stall("fiddler", 0)])
    s.apply("card:festival")
    assert [p["helpers"] for p in s.p] == [2, 1, 1]
    assert s.legal_options() == ["staff:awning", "staff:fiddler", "staff:bell"]
    s.apply("staff:bell")
    assert s.legal_options() == ["staff:awning", "staff:fiddler"]
    s.apply("staff:fiddler")
    assert staffed(s, 0) == {"turnip-cart": 1, "awning": 0, "fiddler": 1, "bell": 1}
    assert s.to_move == 1 and s.legal_options() == ["staff:awning", "staff:fiddler"]
    s.apply("staff:awning")
    # seat 2 has nothing to staff: its helper busks (the `then` branch); no decision asked
    assert s.p[2]["tips"] == 1 and s.p[2]["helpers"] == 0
    assert [p["tips"] for p in s.p[:2]] == [0, 0]
    assert s.to_move == 1 and s.legal_options()[0] == "card:harvest"


def test_festival_with_four_players_skips_the_seat_opposite():
    s = start(4, seed=2)
    host = s.g["host"]
    s.apply("card:festival")
    helpers = {(seat - host) % 4: s.p[seat]["helpers"] + s.p[seat]["tips"] for seat in range(4)}
    assert helpers == {0: 2, 1: 1, 2: 0, 3: 1}  # nothing to staff: all of them busk


def test_each_player_while_stops_when_the_row_is_empty():
    s = start(3)
    s.g["stall-row"] = ["awning"]
    s.g["stall-deck"] = []
    s.apply("card:buy-stall")
    s.apply("buy:awning")
    # the row is empty: seats 1 and 2 are not asked
    assert s.to_move == 1 and s.legal_options()[0] == "card:harvest"


# -- pieces: active rule, hooks, grants --------------------------------------------------------


def test_hooks_fire_only_for_active_pieces():
    s = start(2)
    rig(s, 0, stalls=[stall("fiddler", staffed=0)], basket={"cabbage": 2})
    s.apply("card:sell")
    s.apply("sell:cabbage")
    assert s.p[0]["fame"] == 0 and s.p[0]["coins"] == 4 + 3
    s.apply("close")
    s.apply("card:festival")  # seat 1: its helpers busk; seat 0 staffs the fiddler
    assert s.p[1]["tips"] == 2
    s.apply("staff:fiddler")
    assert s.round == 2 and s.to_move == 1
    s.apply("card:sell")
    assert (s.to_move, s.legal_options()) == (0, ["sell:cabbage", "close"])
    s.apply("sell:cabbage")
    assert s.p[0]["fame"] == 1 and s.p[0]["coins"] == 7 + 3


def test_harvest_hook_sees_the_event_values():
    s = start(2)
    rig(s, 0, stalls=[stall("compost-heap"), stall("pumpkin-patch")])
    rig(s, 1, stalls=[stall("compost-heap", staffed=0), stall("pumpkin-patch")])
    s.apply("card:harvest")
    # seat 0 harvests 2 (turnip, pumpkin): the compost heap adds a turnip; seat 1's is idle
    assert s.p[0]["basket"] == {"turnip": 2, "pumpkin": 1, "cabbage": 0}
    assert s.p[1]["basket"] == {"turnip": 1, "pumpkin": 1, "cabbage": 0}
    assert s.legal_options() == ["extra:turnip", "extra:pumpkin"]
    s.apply("extra:pumpkin")
    assert s.p[0]["basket"]["pumpkin"] == 2
    assert s.g["crop-pool"] == {"turnip": 9, "pumpkin": 9, "cabbage": 12}


def test_grants_sum_across_active_pieces():
    s = start(2)
    rig(s, 0, stalls=[stall("awning"), stall("painted-sign"), stall("fiddler")])
    rig(s, 1, stalls=[stall("awning"), stall("painted-sign", staffed=0)])
    game = s.game
    assert game.ability(s, 0, "markup") == 2
    assert game.ability(s, 1, "markup") == 1
    rig(s, 0, basket={"cabbage": 1})
    rig(s, 1, basket={"cabbage": 1})
    play(s, "card:sell", "sell:cabbage", "sell:cabbage")
    assert s.p[0]["coins"] == 4 + 3 + 2
    assert s.p[1]["coins"] == 4 + 3 + 1
    assert s.p[0]["fame"] == 1


def test_overlay_adds_a_granting_stall_and_shortens_the_street():
    game = toy(2, ("short-street",))
    assert game.overlays == ("short-street",)
    s = game.new_state(SEED_HOST_0)
    assert len(s.g["stall-deck"]) + len(s.g["stall-row"]) == 15
    rig(s, 0, stalls=[stall("awning"), stall("lantern")])
    assert game.ability(s, 0, "markup") == 2
    rig(s, 0, stalls=[stall("awning")])
    s.g["stall-row"] = ["lantern", "fiddler"]
    play(s, "card:buy-stall", "buy:lantern", "pass")
    assert s.is_over and s.result().trigger == "street-full"


# -- the state API ----------------------------------------------------------------------------


def test_view_hides_other_seats_hidden_fields_and_hidden_piles():
    s = start(2)
    s.p[0]["tips"] = 5
    deck = list(s.g["stall-deck"])
    for seat in (0, 1):
        v = s.view(seat)
        json.dumps(v)
        assert v["seat"] == seat
        assert v["global"]["stall-deck"] == {"hidden": True, "count": len(deck)}
        assert v["global"]["stall-row"] == s.g["stall-row"]
        assert "tips" in v["players"][seat]
        other = v["players"][1 - seat]
        assert "tips" not in other
        assert other["coins"] == 4 and other["basket"] == s.p[1 - seat]["basket"]
    assert s.view(0)["players"][0]["tips"] == 5
    # a view is a copy: changing it changes nothing
    s.view(0)["players"][0]["basket"]["turnip"] = 99
    assert s.p[0]["basket"]["turnip"] == 0
    assert s.g["stall-deck"] == deck


def test_copy_is_independent():
    s = start(2)
    before = s.to_json()
    c = s.copy()
    c.apply("card:harvest")
    c.p[1]["basket"]["cabbage"] = 7
    assert s.to_json() == before
    assert c.to_json() != before
    # and the other way round
    s.apply("card:festival")
    assert c.p[1]["helpers"] == 0 and c.g["card-taken"]["festival"] == 0


def test_copy_carries_the_generator():
    a = start(3, seed=11)
    rng = random.Random(5)
    while a.round < 2:
        a.apply(rng.choice(a.legal_options()))
    b = a.copy()
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not a.is_over:
        a.apply(rng_a.choice(a.legal_options()))
    while not b.is_over:
        b.apply(rng_b.choice(b.legal_options()))
    assert a.to_json() == b.to_json()
    assert a.result().to_dict() == b.result().to_dict()


def test_illegal_option_raises_and_leaves_the_state_unchanged():
    s = start(2)
    s.apply("card:harvest")
    before = s.to_json()
    history, decisions = list(s.history), s.decisions
    for bad in ("card:harvest", "card:nope", "", "extra:turnip ", "pass"):
        with pytest.raises(IllegalOptionError) as e:
            s.apply(bad)
        assert e.value.legal == s.legal_options()
        assert s.to_json() == before
        assert (s.history, s.decisions) == (history, decisions)
    s.apply(s.legal_options()[0])  # still playable


def test_no_option_is_legal_once_the_game_is_over():
    s = start(2, **{"last-round": 3})
    rng = random.Random(0)
    while not s.is_over:
        s.apply(rng.choice(s.legal_options()))
    before = s.to_json()
    with pytest.raises(IllegalOptionError):
        s.apply("card:harvest")
    assert s.to_json() == before


def test_every_listed_option_can_be_taken():
    rng = random.Random(3)
    for seed in range(5):
        s = toy(3).new_state(seed)
        while not s.is_over:
            options = s.legal_options()
            assert len(options) == len(set(options)) > 0
            for oid in options:
                s.copy().apply(oid)
            s.apply(rng.choice(options))


def test_same_seed_and_choices_give_the_same_game():
    def run(seed: int) -> tuple:
        s = toy(3).new_state(seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_options()))
        return s.to_json(), s.result().to_dict(), list(s.log), s.history

    assert run(4) == run(4)
    firsts = {json.dumps(toy(3).new_state(seed).to_json(), sort_keys=True) for seed in range(8)}
    assert len(firsts) > 1  # the seed matters (host, deck order)


def test_replaying_the_history_reproduces_the_state():
    s = toy(4).new_state(21)
    rng = random.Random(21)
    while not s.is_over:
        s.apply(rng.choice(s.legal_options()))
    r = toy(4).new_state(21)
    for oid in s.history:
        r.apply(oid)
    assert r.to_json() == s.to_json()


# -- many random games --------------------------------------------------------------------------


def _check_invariants(s: State, total_stalls: int) -> None:
    assert not broken_invariants(s), broken_invariants(s)  # the ruleset's own invariants:
    for k, left in s.g["crop-pool"].items():
        assert left >= 0
        assert left + sum(p["basket"][k] for p in s.p) == CROP_STOCK
    placed = sum(1 for p in s.p for x in p["stalls"] if x["type"] != "turnip-cart")
    assert placed + len(s.g["stall-deck"]) + len(s.g["stall-row"]) == total_stalls
    for p in s.p:
        assert p["coins"] >= 0 and len(p["stalls"]) <= 4
        assert len({x["type"] for x in p["stalls"]}) == len(p["stalls"])
    assert all(v >= 0 for v in s.g["buyers"].values())


def test_random_games_over_many_seeds_end_and_score():
    triggers: set[str] = set()
    games = 0
    for players in (2, 3, 4):
        game = toy(players)
        for seed in range(60):
            s = game.new_state(seed)
            rng = random.Random(seed * 7 + players)
            steps = 0
            while not s.is_over:
                assert s.to_move in range(players)
                s.apply(rng.choice(s.legal_options()))
                _check_invariants(s, 13)
                steps += 1
                assert steps < 500
            r = s.result()
            assert 1 <= r.rounds <= 6 and r.decisions == steps == len(s.history)
            for sc in r.scores:
                assert sc["total"] == sum(sc["components"].values())
            best = max((x["total"], x["tiebreak"]) for x in r.scores)
            assert r.winners == [x["seat"] for x in r.scores if (x["total"], x["tiebreak"]) == best]
            assert r.winner == r.winners[0]
            json.dumps(s.to_json())
            triggers.add(r.trigger)
            games += 1
    assert triggers == {"street-full", "pool-empty", "last-round"}
    assert games == 180


def test_a_rule_failing_at_run_time_is_a_diagnostic_not_a_traceback():
    from interpreter.diagnostics.errors import RulesError

    s = start()
    s.p[0]["basket"] = None  # a corrupt piece a rule then tries to read
    with pytest.raises(RulesError) as caught:
        s.apply("card:harvest")
    [d] = caught.value.diagnostics
    assert d.code == "E001"
    # at the rule text that failed (the step calling the procedure), with decision and seat
    assert d.file.endswith("tests/toy/ruleset.yaml") and d.line and d.column
    assert d.json_path == "/phases/harvest/0/each-player/steps/0/do"
    assert "a rule failed at decision 1 (seat 0 to move, option 'card:harvest')" in d.message
    assert "Traceback" not in str(caught.value) and "NoneType" not in d.message
