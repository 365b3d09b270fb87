"""Conservation invariants over 100 seeded random games of every player count and overlay set.

Doubloons (with the minted ones), goods, colonists, nobles, VP chips, island tiles (forests are
face-down plantations) and buildings are conserved; no count goes below 0; occupants stay within
circles and nobles within occupants. Checked at every role choice, and after every decision in
the first games of each combination. Every game ends by a trigger of the rules.
"""

from __future__ import annotations

import pytest

from .helpers import random_game

GAMES = 100
CHECK_ALL = 3  # games per combination checked after every single decision
OVERLAYS = [(), ("nobles",)]
TRIGGERS = {(): {"colonists", "city", "vp-chips"}, ("nobles",): {"city", "vp-chips"}}


@pytest.mark.parametrize("overlays", OVERLAYS, ids=lambda o: "+".join(o) or "base")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(game, players, overlays):
    g = game(players, overlays)
    for seed in range(GAMES):
        s = random_game(g, seed, check="all" if seed < CHECK_ALL else "phase")
        assert s.result().trigger in TRIGGERS[overlays], (seed, s.result().trigger)
