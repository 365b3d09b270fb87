"""The New Buildings' setup draft: a sequence of small decisions onto free spaces of the cost."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers.moves import play

SPACES = {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}


def violet(s):
    a = s.game.env.attrs
    return {b for b in a if a[b].get("kind") == "violet" and a[b].get("in-draft", True)}


def drafted_costs(s):
    a = s.game.env.attrs
    return Counter(a[b]["cost"] for b, n in s.g["drafted"].items() if n)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("overlays", [("new-buildings",), ("nobles", "new-buildings")])
def test_draft_fills_exactly_the_spaces_never_a_wrong_cost(game, players, overlays):
    g = game(players, overlays)
    a = g.env.attrs
    for seed in range(15):
        rnd = random.Random(seed)
        s = g.new_state(seed)
        pool = violet(s)
        assert len(pool) == 31
        seats = []
        while s.legal_options()[0].startswith("draft:"):
            opts = s.legal_options()
            taken = drafted_costs(s)
            offered = {o.split(":", 1)[1] for o in opts}
            # exactly the undrafted buildings whose cost still has a free space
            free = {
                b
                for b in pool
                if not s.g["drafted"][b] and taken[a[b]["cost"]] < SPACES[a[b]["cost"]]
            }
            assert offered == free
            seats.append(s.to_move)
            s.apply(opts[rnd.randrange(len(opts))])
        assert drafted_costs(s) == SPACES
        assert seats == [i % players for i in range(17)]  # in turn from the governor
        copies = 2 if players > 2 else 1
        for b in pool:
            want = (copies if a[b]["size"] == "small" else 1) if s.g["drafted"][b] else 0
            assert s.g["building-supply"][b] == want, b
        # production buildings and The Nobles' buildings are not drafted
        assert s.g["building-supply"]["coffee-roaster"] == (3 if players > 2 else 2)
        if "nobles" in overlays:
            assert s.g["building-supply"]["villa"] == copies


def test_draft_example_church_on_the_office_space(game):
    s = game(3, ("new-buildings",)).new_state(4)
    play(s, "draft:church")
    assert "draft:office" in s.legal_options()
    play(s, "draft:office")
    assert "draft:large-market" not in s.legal_options()
    assert "draft:trading-post" not in s.legal_options()
    assert s.g["building-supply"]["church"] == 2 and s.g["building-supply"]["large-market"] == 0


def test_fixed_selection_skips_the_draft(game):
    s = game(4, ("new-buildings",), **{"building-selection": "base"}).new_state(4)
    assert s.legal_options()[0].startswith("role:")
    assert s.g["building-supply"]["office"] == 2 and s.g["building-supply"]["church"] == 0
    assert drafted_costs(s) == SPACES
