"""Determinism, copies, illegal options and the hidden-information view on the real game."""

from __future__ import annotations

import json
import random

import pytest

from helpers.moves import play
from helpers.puerto_rico import set_goods
from interpreter.diagnostics.errors import IllegalOptionError

from .helpers import clear_all


def random_choices(game, seed, stop=None):
    """A seeded random game: (state, chosen ids). stop: number of decisions to play."""
    rnd = random.Random(seed * 7919)
    s = game.new_state(seed)
    while not s.is_over and (stop is None or s.decisions < stop):
        opts = s.legal_options()
        s.apply(opts[rnd.randrange(len(opts))])
    return s


def replay(game, seed, choices):
    s = game.new_state(seed)
    for oid in choices:
        s.apply(oid)
    return s


@pytest.mark.parametrize("n, seed", [(3, 1), (4, 2), (5, 3)])
def test_same_seed_same_choices_same_game(games, n, seed):
    game = games[n]
    a = random_choices(game, seed)
    b = replay(game, seed, a.history)
    assert b.is_over
    assert b.history == a.history
    assert b.log == a.log
    assert b.result().to_dict() == a.result().to_dict()
    assert b.to_json() == a.to_json()


def test_different_seeds_differ(game4):
    a, b = game4.new_state(1), game4.new_state(2)
    assert a.g["tile-stack"] != b.g["tile-stack"] or a.g["tile-row"] != b.g["tile-row"]


def test_state_is_json(game4):
    s = random_choices(game4, 5, stop=120)
    text = json.dumps(s.to_json())
    assert json.loads(text) == s.to_json()


def test_copy_is_independent(game4):
    s = random_choices(game4, 6, stop=50)
    before = s.to_json()
    c = s.copy()
    assert c.to_json() == before
    c.apply(c.legal_options()[-1])
    c.g["goods-supply"]["corn"] += 100
    c.p[0]["island"].append({"type": "quarry", "workers": 1})
    assert s.to_json() == before


def test_copy_continued_gives_the_same_game(game4):
    full = random_choices(game4, 8)
    part = replay(game4, 8, full.history[:60])
    c = part.copy()
    for oid in full.history[60:]:
        c.apply(oid)
    assert c.is_over
    assert c.result().to_dict() == full.result().to_dict()
    assert c.to_json() == full.to_json()
    # The original was not advanced by the copy.
    assert part.decisions == 60 and not part.is_over


def test_copy_keeps_the_generator(game4):
    """A copy taken before a settler phase draws the same tiles as the original."""
    s = game4.new_state(9)
    c = s.copy()
    for st in (s, c):
        clear_all(st)
        st.g["tile-discard"] += st.g["tile-stack"][:-1]
        del st.g["tile-stack"][:-1]  # forces a reshuffle of the discard
        play(st, "role:settler", "pass", "pass", "pass", "pass")
    assert s.g["tile-row"] == c.g["tile-row"]
    assert s.g["tile-stack"] == c.g["tile-stack"]


@pytest.mark.parametrize("bad", ["role:kaptain", "sell:corn", "", "pass", "role:captain "])
def test_illegal_option_raises_and_changes_nothing(game4, bad):
    s = random_choices(game4, 10, stop=4)  # a role choice
    before = s.to_json()
    history = list(s.history)
    legal = s.legal_options()
    assert bad not in legal
    with pytest.raises(IllegalOptionError) as err:
        s.apply(bad)
    assert err.value.legal == legal
    assert legal[0] in str(err.value)
    assert s.to_json() == before and s.history == history
    # ... and it still plays on.
    s.apply(legal[0])


def test_illegal_option_suggests_the_near_one(game4):
    s = game4.new_state(1)
    with pytest.raises(IllegalOptionError, match="did you mean 'role:captain'"):
        s.apply("role:captian")


def test_option_legal_elsewhere_is_illegal_now(game4):
    s = game4.new_state(11)
    clear_all(s)
    set_goods(s, 0, corn=6)
    play(s, "role:captain")
    before = s.to_json()
    with pytest.raises(IllegalOptionError):
        s.apply("load:corn:ship-5")  # the 6-ship takes all 6: the 5-ship may not be chosen
    assert s.to_json() == before
    play(s, "load:corn:ship-6")


def test_no_option_after_the_end(game4):
    s = random_choices(game4, 12)
    assert s.is_over and s.legal_options() == [] and s.to_move is None
    with pytest.raises(IllegalOptionError):
        s.apply("pass")


def test_view_hides_vp_chips_and_the_tile_stack(game4):
    s = random_choices(game4, 14, stop=200)
    assert sum(pl["vp-chips"] for pl in s.p) > 0, "pick a seed where VP were shipped"
    v = s.view(1)
    assert "vp-chips" in v["players"][1] and "vp-paper" in v["players"][1]
    for seat in (0, 2, 3):
        assert "vp-chips" not in v["players"][seat]
        assert "vp-paper" not in v["players"][seat]
        # what is public stays visible
        assert v["players"][seat]["doubloons"] == s.p[seat]["doubloons"]
        assert v["players"][seat]["goods"] == s.p[seat]["goods"]
    stack = v["global"]["tile-stack"]
    assert stack == {"hidden": True, "count": len(s.g["tile-stack"])}
    assert v["global"]["tile-row"] == s.g["tile-row"]
    assert v["global"]["vp-chips"] == s.g["vp-chips"]  # the chip supply is public
    assert "corn-plantation" not in json.dumps(stack)
    # The view is a copy.
    v["players"][1]["goods"]["corn"] += 5
    assert s.view(1)["players"][1]["goods"] == s.p[1]["goods"]
