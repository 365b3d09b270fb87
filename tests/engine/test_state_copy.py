"""State.copy() copies by the declared shape of each field and shares the generator
copy-on-write (engine/copier.py): a copy must still share no mutable container with its
original, on every shipped game and expansion, and both must go on exactly as an untouched
state would, whichever of them draws first."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from interpreter.engine.copier import copy_value
from interpreter.engine.loader import load_game
from interpreter.infoset.forced import public_state
from interpreter.infoset.position import started_without

COMBINATIONS = [
    ("puerto-rico", 4, ()),
    ("puerto-rico", 3, ("new-buildings", "nobles")),
    ("san-juan", 4, ()),
    ("san-juan", 2, ("new-buildings",)),
    ("tests/toy/ruleset.yaml", 3, ()),
]


def containers(value: Any, found: dict[int, Any]) -> dict[int, Any]:
    """Every dict and list inside `value`, by identity."""
    if type(value) in (dict, list):
        found[id(value)] = value
        for x in value.values() if type(value) is dict else value:
            containers(x, found)
    return found


def play_random(state: Any, rng: random.Random, steps: int | None = None) -> None:
    while not state.is_over and (steps is None or steps > 0):
        state.apply(rng.choice(state.legal_options()))
        steps = None if steps is None else steps - 1


@pytest.mark.parametrize(("game", "players", "overlays"), COMBINATIONS)
def test_a_copy_shares_no_container_and_equals_its_original(game, players, overlays):
    g = load_game(game, players, list(overlays))
    s = g.new_state(3)
    rng = random.Random(3)
    while not s.is_over:
        c = s.copy()
        assert c.to_json() == s.to_json()
        assert list(c.g) == list(s.g) and [list(x) for x in c.p] == [list(x) for x in s.p]
        mine = containers((s.g, s.p, s.v, s.calls, s.history, s.pending), {})
        theirs = containers((c.g, c.p, c.v, c.calls, c.history, c.pending), {})
        assert not set(mine) & set(theirs)
        play_random(s, rng, 25)


@pytest.mark.parametrize(("game", "players", "overlays"), COMBINATIONS)
@pytest.mark.parametrize("first", ["original", "copy"])
def test_original_and_copy_go_on_alike_whichever_draws_first(game, players, overlays, first):
    g = load_game(game, players, list(overlays))
    s = g.new_state(5)
    play_random(s, random.Random(5), 40)
    reference = pickle.loads(pickle.dumps((s.g, s.p, s.rng.getstate())))
    c = s.copy()
    order = (s, c) if first == "original" else (c, s)
    for state in order:
        play_random(state, random.Random(8))
    assert s.to_json() == c.to_json()
    assert s.result().to_dict() == c.result().to_dict()
    # the same as a state rebuilt from plain data with its own generator
    fresh = g.new_state(5)
    play_random(fresh, random.Random(5), 40)
    assert (fresh.g, fresh.p, fresh.rng.getstate()) == reference
    play_random(fresh, random.Random(8))
    assert fresh.to_json() == s.to_json()


def test_a_replaced_generator_is_the_copy_own():
    g = load_game("tests/toy/ruleset.yaml", 2, [])
    s = g.new_state(1)
    c = s.copy()
    before = s.rng.getstate()
    c.rng = random.Random(99)
    c.rng.random()
    assert s.rng.getstate() == before


def test_copy_value_copies_nested_plain_data():
    data = {"a": [1, {"b": [2, 3]}], "c": "x", "d": None}
    copied = copy_value(data)
    assert copied == data
    assert not set(containers(copied, {})) & set(containers(data, {}))


@pytest.mark.parametrize(("game", "players", "overlays"), COMBINATIONS[:3])
def test_a_reseeded_state_plays_as_with_a_generator_of_that_seed(game, players, overlays):
    g = load_game(game, players, list(overlays))
    s = g.new_state(2)
    play_random(s, random.Random(2), 30)
    lazy, eager = s.copy(), s.copy()
    lazy.reseed(1234)
    eager.rng = random.Random(1234)
    copied = lazy.copy()  # a copy taken before the first draw starts from the same seed
    for state in (lazy, eager, copied):
        play_random(state, random.Random(6))
    assert lazy.to_json() == eager.to_json() == copied.to_json()
    assert lazy.rng.getstate() == eager.rng.getstate() == copied.rng.getstate()


def test_a_copy_and_the_public_copy_start_without_the_same_fields():
    """``State.copy`` and the public copy (infoset/forced.py) start without one list of fields
    (``started_without``), each as a new state has it, fresh for each copy."""
    s = load_game("san-juan", 3, journal=True).new_state(3)
    s.record()
    s.t["scratch"] = 1
    s.ab[0] = {"ability": 1}
    s.only_choices = [(0, "pass")]
    s.undo_run = (0, 0)
    for copy in (s.copy(), public_state(s)):
        for name, empty in started_without().items():
            assert getattr(copy, name) == empty, name
        assert copy.t is not s.t and copy.ab is not s.ab
        assert s.copy().t is not copy.t


def test_a_deep_copy_of_a_recording_state_remembers_and_notes_as_the_original():
    """A deep copy takes the seats' records along (each seat's place in the steps it has not
    yet worked into its memory, infoset/changes.py) and a journal build's journal, kept on the
    copy."""
    import copy

    s = load_game("san-juan", 3, journal=True).new_state(3, record=True)
    rng = random.Random(3)
    for _ in range(20):
        s.apply(rng.choice(s.legal_options()))
    s.rec.memory(0)  # one seat caught up, the others not
    deep = copy.deepcopy(s)
    assert deep.tj is not s.tj and list(deep.tj) == list(s.tj)
    for _ in range(20):
        option = rng.choice(s.legal_options())
        s.apply(option)
        deep.apply(option)
    for seat in range(3):
        assert deep.rec.memory(seat) == s.rec.memory(seat)
        assert deep.rec.known(seat) == s.rec.known(seat)
    assert len(deep.tj) == len(s.tj)
