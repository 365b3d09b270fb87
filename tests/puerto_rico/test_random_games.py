"""Invariants over 300 seeded random games (100 each of 3, 4 and 5 players).

After every decision: doubloons, goods, colonists, VP chips, island tiles and buildings are all
conserved, no count is negative, and the board is consistent (ships, circles, spaces). Every
game ends with one of the three triggers. For the first games of each count, every listed option
(not only the one chosen) is applied on a copy and must apply cleanly.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from .helpers import CIRCLES, LARGE, check_invariants

GAMES = 100
TRY_EVERY_OPTION = 10  # games per player count in which every listed option is tried
CAPACITY = {"ship-4": 4, "ship-5": 5, "ship-6": 6, "ship-7": 7, "ship-8": 8}
TRIGGERS = {"colonists", "city", "vp-chips"}
# Taking what is offered (production, VP, colonists) is eager too.
EAGER = ("build:", "load:", "place:", "own-ship:", "sell:", "tile:", "produce", "vp:", "privilege-")
BUSY_ROLES = ("role:builder", "role:craftsman", "role:captain", "role:mayor")


def choose(rnd: random.Random, seed: int, opts: list[str]) -> str:
    """Even seeds: uniformly random. Odd seeds: mostly busy roles and actions (ends by VP too)."""
    if seed % 2 == 0 or rnd.random() < 0.2:
        return opts[rnd.randrange(len(opts))]
    pick = [o for o in opts if o in BUSY_ROLES] or [o for o in opts if o.startswith(EAGER)] or opts
    return pick[rnd.randrange(len(pick))]


def check_board(s, where: str) -> None:
    g = s.g
    cargoes = [sh["cargo"] for sh in g["ships"] if sh["cargo"] is not None]
    assert len(cargoes) == len(set(cargoes)), where
    for sh in g["ships"]:
        assert 0 <= sh["load"] <= CAPACITY[sh["type"]], where
        assert (sh["cargo"] is None) == (sh["load"] == 0), where
    assert sum(g["trading-house"].values()) <= 4, where
    assert sum(g["role-coins"].values()) >= 0, where
    for pl in s.p:
        assert len(pl["island"]) <= 12, where
        spaces = sum(2 if b["type"] in LARGE else 1 for b in pl["city"])
        assert spaces <= 12, where
        types = [b["type"] for b in pl["city"]]
        assert len(types) == len(set(types)), where
        for x in pl["island"]:
            assert x["workers"] <= 1, where
        for b in pl["city"]:
            assert b["workers"] <= CIRCLES.get(b["type"], 1), where
        if pl["vp-paper"] > 0:
            assert g["vp-chips"] == 0, where


def check_result(s) -> None:
    r = s.result()
    assert r.trigger in TRIGGERS, (s.seed, r.trigger)
    for sc in r.scores:
        assert sc["total"] == sum(sc["components"].values())
        pl = s.p[sc["seat"]]
        assert sc["tiebreak"] == pl["doubloons"] + sum(pl["goods"].values())
    best = max((sc["total"], sc["tiebreak"]) for sc in r.scores)
    assert r.winners == [sc["seat"] for sc in r.scores if (sc["total"], sc["tiebreak"]) == best]
    assert r.winner == r.winners[0]
    assert r.decisions == len(s.history)


def play_checked(game, seed: int, try_all: bool) -> object:
    n = game.players
    rnd = random.Random(seed)
    s = game.new_state(seed)
    s.log = None
    check_invariants(s, n)
    while not s.is_over:
        opts = s.legal_options()
        where = f"seed {seed}, {n} players, decision {s.decisions}"
        assert opts and len(opts) == len(set(opts)), where
        assert s.to_move in range(n), where
        if try_all:
            for oid in opts:
                c = s.copy()
                c.apply(oid)
                check_invariants(c, n)
        s.apply(choose(rnd, seed, opts))
        check_invariants(s, n)
        check_board(s, where)
    check_result(s)
    return s


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_keep_every_invariant(games, n):
    game = games[n]
    triggers = Counter()
    rounds = []
    for seed in range(GAMES):
        s = play_checked(game, seed, try_all=seed < TRY_EVERY_OPTION)
        triggers[s.result().trigger] += 1
        rounds.append(s.result().rounds)
    # Random play ends mostly by colonists; the eager games also run out of VP chips.
    assert triggers["colonists"] > 0 and triggers["vp-chips"] > 0, triggers
    assert 8 <= min(rounds) and max(rounds) <= 40, (min(rounds), max(rounds))
