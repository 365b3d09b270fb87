"""Games and states pickle (worker processes, agent frameworks that serialise states): a game
as what loads it again, a state as its game, seed and choices, replayed when unpickled."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from interpreter import load_game
from interpreter.model.probes import Probes

GAMES = [
    ("puerto-rico", 3, ["nobles"], {"bank": "limited"}),
    ("san-juan", 4, ["new-buildings", "setup-variation"], {}),
    ("examples/games/canal-town/ruleset.yaml", 2, [], {}),
]


def _played(name, players, overlays, options, seed=5, moves=150):
    game = load_game(name, players, overlays, options)
    state = game.new_state(seed)
    pick = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(pick.choice(state.legal_options()))
    return game, state


@pytest.mark.parametrize(("name", "players", "overlays", "options"), GAMES)
def test_a_state_comes_back_the_same_and_plays_on_alike(name, players, overlays, options):
    game, state = _played(name, players, overlays, options)
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json()
    assert again.log == state.log and again.history == state.history
    assert again.game.options == game.options and again.game.overlays == game.overlays
    for seat in range(players):
        assert again.view(seat) == state.view(seat)
    pick = random.Random(9)
    while not state.is_over:
        option = pick.choice(state.legal_options())
        state.apply(option)
        again.apply(option)
    assert again.result() == state.result()


def test_states_of_one_game_share_one_game_when_unpickled():
    _, state = _played("puerto-rico", 3, [], {}, moves=20)
    first, second = pickle.loads(pickle.dumps([state, state.copy()]))
    assert first.game is second.game
    assert second.log is None  # a copy keeps no log, and comes back without one
    assert pickle.loads(pickle.dumps(state)).game is first.game


def test_a_state_changed_by_hand_refuses_to_unpickle_into_another():
    game, state = _played("san-juan", 3, [], {}, moves=30)
    state.p[0]["bonus-vp"] = 40
    dumped = pickle.dumps(state)
    with pytest.raises(ValueError, match="changed by hand"):
        pickle.loads(dumped)


def test_a_coverage_build_says_it_cannot_be_pickled():
    game = load_game("san-juan", 2, probes=Probes())
    with pytest.raises(TypeError, match="not made by load_game"):
        pickle.dumps(game.new_state(1))


def test_copies_still_copy_the_fields():
    _, state = _played("puerto-rico", 4, ["new-buildings"], {}, moves=40)
    deep = copy.deepcopy(state)
    assert deep.game is state.game and deep.to_json() == state.to_json()
    deep.apply(deep.legal_options()[0])
    assert len(deep.history) == len(state.history) + 1
