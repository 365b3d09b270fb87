"""Conservation invariants over 100 seeded random games of every player count and overlay set.

Doubloons (with the minted ones), goods, colonists, nobles, VP chips, island tiles (forests are
face-down plantations) and buildings are conserved; no count goes below 0; occupants stay within
circles and nobles within occupants. Checked at every role choice, and after every decision in
the first games of each combination. Every game ends by a trigger of the rules.
"""

from __future__ import annotations

import random

import pytest

from .helpers import random_game

GAMES = 100
CHECK_ALL = 3  # games per combination checked after every single decision
OVERLAYS = [(), ("nobles",), ("new-buildings",), ("new-buildings", "nobles")]
BASE_TRIGGERS = {"colonists", "city", "vp-chips"}


@pytest.mark.parametrize("overlays", OVERLAYS, ids=lambda o: "+".join(o) or "base")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(game, players, overlays):
    g = game(players, overlays)
    for seed in range(GAMES):
        s = random_game(g, seed, check="all" if seed < CHECK_ALL else "phase")
        triggers = BASE_TRIGGERS - ({"colonists"} if "nobles" in overlays else set())
        assert s.result().trigger in triggers, (seed, s.result().trigger)


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("selection", ["all-new", "base"])
def test_fixed_selections_and_the_other_overlay_order(game, players, selection):
    """Every new building in play (all-new), and the overlays given the other way round."""
    g = game(players, ("nobles", "new-buildings"), **{"building-selection": selection})
    for seed in range(20):
        random_game(g, seed, check="all" if seed < 2 else "phase")


def test_both_overlay_orders_play_the_same_game(game):
    a = game(4, ("new-buildings", "nobles")).new_state(9)
    b = game(4, ("nobles", "new-buildings")).new_state(9)
    rnd = random.Random(9)
    while not a.is_over:
        opts = sorted(a.legal_options())  # the same options; catalog order follows the overlays
        assert opts == sorted(b.legal_options())
        oid = opts[rnd.randrange(len(opts))]
        a.apply(oid)
        b.apply(oid)
    assert a.to_json() == b.to_json() and a.result().to_dict() == b.result().to_dict()
