"""The agents' feature encoder: equal to the features of the seat's whole view on random states,
blind to what a seat may not see, and the spaces the same whatever order the overlays come in."""

from __future__ import annotations

import random

import numpy as np
import pytest

from interpreter.agents.spaces import spaces_for
from interpreter.engine.copier import field_copies

CONFIGS = [
    ("puerto-rico", 4, ()),
    ("puerto-rico", 3, ("nobles", "new-buildings")),
    ("san-juan", 3, ()),
    ("san-juan", 4, ("new-buildings", "setup-variation")),
]


def _states(game, seed: int, games: int = 2):
    """Every state of a few random games (copies), in play order."""
    out = []
    for g in range(games):
        s = game.new_state(seed + g)
        s.log = None
        rng = random.Random(seed + g)
        while True:
            out.append(s.copy())
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_options()))
    return out


@pytest.mark.parametrize(("game", "players", "overlays"), CONFIGS)
def test_encoder_equals_the_features_of_the_whole_view(game, players, overlays):
    spaces = spaces_for(game, players, overlays, ())
    obs = spaces.observations
    states = _states(spaces.game, seed=31)
    rng = random.Random(5)
    enc = obs.encoder(spaces.game)
    # in play order, every seat in turn (what an environment does) ...
    for s in states[::3]:
        for seat in range(players):
            np.testing.assert_array_equal(enc.encode(s, seat), obs.encode(s.view(seat)))
    # ... and jumping about between games and seats (a search, an OpenSpiel observer)
    for s in rng.sample(states, 60):
        seat = rng.randrange(players)
        np.testing.assert_array_equal(enc.encode(s, seat), obs.encode(s.view(seat)))


def test_every_seat_has_the_same_block_and_names_start_from_the_observer():
    obs = spaces_for("san-juan", 3, (), ()).observations
    blocks = [
        [n.split(".", 1)[1] for n in obs.features if n.startswith(f"p+{r}.")] for r in range(3)
    ]
    assert blocks[0] == blocks[1] == blocks[2] and blocks[0]
    assert any(n.startswith("p+0.hand:") for n in obs.features)  # own hand: which cards
    assert "p+1.hand#" in obs.features  # another's: how many


def _hidden_swap(s, seat: int, pile: str) -> bool:
    """Replace one card of ``seat``'s hidden pile by another id (same count); False if none."""
    hand = s.p[seat][pile]
    others = sorted({c for pl in s.p for c in pl[pile]} | set(s.g.get("deck", [])))
    for i, card in enumerate(hand):
        for other in others:
            if other != card:
                hand[i] = other
                return True
    return False


@pytest.mark.parametrize("overlays", [(), ("new-buildings",)])
def test_a_seat_does_not_see_another_seats_hidden_cards(overlays):
    spaces = spaces_for("san-juan", 3, overlays, ())
    obs = spaces.observations
    enc = obs.encoder(spaces.game)
    changed = 0
    for s in _states(spaces.game, seed=11)[5::40]:
        before = [enc.encode(s, seat) for seat in range(3)]
        if not _hidden_swap(s, 1, "hand"):
            continue
        changed += 1
        after = [enc.encode(s, seat) for seat in range(3)]
        np.testing.assert_array_equal(after[0], before[0])
        np.testing.assert_array_equal(after[2], before[2])
        assert not np.array_equal(after[1], before[1])  # its owner sees the new card
        np.testing.assert_array_equal(after[0], obs.encode(s.view(0)))
    assert changed >= 3


def test_hidden_numbers_and_shared_hidden_piles_do_not_show():
    spaces = spaces_for("puerto-rico", 3, ("nobles", "new-buildings"), ())
    obs = spaces.observations
    enc = obs.encoder(spaces.game)
    s = _states(spaces.game, seed=3, games=1)[120]
    before = [enc.encode(s, seat) for seat in range(3)]
    s.p[2]["vp-chips"] += 7  # hidden from the other seats
    s.g["tile-stack"].reverse()  # a hidden shared pile: its size shows, not its order
    after = [enc.encode(s, seat) for seat in range(3)]
    np.testing.assert_array_equal(after[0], before[0])
    np.testing.assert_array_equal(after[1], before[1])
    assert not np.array_equal(after[2], before[2])
    for seat in range(3):
        np.testing.assert_array_equal(after[seat], obs.encode(s.view(seat)))


@pytest.mark.parametrize(
    ("game", "overlays"),
    [
        ("puerto-rico", ("nobles", "new-buildings")),
        ("san-juan", ("new-buildings", "setup-variation")),
    ],
)
def test_spaces_do_not_depend_on_the_order_of_the_overlays(game, overlays):
    a = spaces_for(game, 3, overlays, ())
    b = spaces_for(game, 3, overlays[::-1], ())
    assert a.actions.size == b.actions.size
    assert a.actions.names == b.actions.names
    assert a.observations.features == b.observations.features
    # each game's own option lines map into the space
    s = b.game.new_state(4)
    assert set(b.actions.legal_actions(s).values()) == set(s.legal_options())


def test_field_copies_copy_each_field_by_its_kind():
    spaces = spaces_for("puerto-rico", 3, ("nobles", "new-buildings"), ())
    rules = spaces.game.rules
    s = _states(spaces.game, seed=8, games=1)[150]
    g_copy, p_copy = field_copies(rules)
    for copies, holder in ((g_copy, s.g), (p_copy, s.p[0])):
        for name, copy in copies.items():
            value = holder[name]
            twin = copy(value)
            assert twin == value
            if isinstance(value, dict | list):
                assert twin is not value
                if isinstance(value, list) and value and isinstance(value[0], dict):
                    assert twin[0] is not value[0]
