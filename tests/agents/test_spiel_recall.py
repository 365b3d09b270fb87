"""The OpenSpiel adapter's information state is the seat's whole history (perfect recall), its
observation the current view; OpenSpiel's own checks and its CFR run on the toy secret draft."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel
import pytest

from interpreter.agents.spaces import spaces_for
from interpreter.agents.spiel import HISTORY_BITS, register

DRAFT = str(Path(__file__).resolve().parents[2] / "tests" / "toy-draft" / "ruleset.yaml")


def _all_states(game):
    """Every decision state of the game tree (the chance node's deals included)."""
    out = []
    todo = [game.new_initial_state()]
    while todo:
        state = todo.pop()
        if state.is_terminal():
            continue
        out.append(state)
        actions = (
            [a for a, _p in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        for action in actions:
            todo.append(state.child(action))
    return out


def test_game_type_says_perfect_recall_and_openspiel_simulates_it():
    game = register(DRAFT, 2, deals=5)
    kind = game.get_type()
    assert kind.provides_information_state_string and kind.provides_observation_string
    assert kind.provides_information_state_tensor and kind.provides_observation_tensor
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(2)
    seat = state.current_player()
    view = len(state.observation_tensor(seat))
    assert len(state.information_state_tensor(seat)) == view + HISTORY_BITS


def test_information_states_are_histories_with_one_set_of_legal_actions():
    game = register(DRAFT, 2, deals=4)
    seen: dict[str, list[int]] = {}
    parents: dict[str, list[str]] = {}  # a state's history -> its parent's information states
    for state in _all_states(game):
        if state.is_chance_node():
            continue
        seat = state.current_player()
        info = state.information_state_string(seat)
        # OpenSpiel's contract: one information state, one set of legal actions
        assert seen.setdefault(info, state.legal_actions()) == state.legal_actions()
        infos = [state.information_state_string(other) for other in (0, 1)]
        for other, now in enumerate(infos):
            assert now.startswith(f"seat {other}\n")
            assert state.observation_string(other) != now
            # perfect recall: a seat's information state extends the one it had before
            parent = parents.get(state.history_str())
            if parent is not None:
                assert now.startswith(parent[other]) and now != parent[other]
        for action in state.legal_actions():
            parents[state.child(action).history_str()] = infos
    # hidden deals share information states: fewer of them than decision states
    assert len(seen) < sum(1 for s in _all_states(game) if not s.is_chance_node())


def test_one_view_reached_by_histories_the_seat_tells_apart():
    # what finding 7 was about: the current view merges histories the seat can tell apart
    # (the gems it passed, the hand it was shown); the information state keeps them apart
    game = register(DRAFT, 2, deals=6)
    by_view: dict[tuple[int, str], set[str]] = {}
    for state in _all_states(game):
        if state.is_chance_node():
            continue
        seat = state.current_player()
        key = (seat, state.observation_string(seat))
        by_view.setdefault(key, set()).add(state.information_state_string(seat))
    merged = [infos for infos in by_view.values() if len(infos) > 1]
    assert merged, "no view is reached by two histories: the test proves nothing"


def test_resampled_states_keep_the_history_and_the_remembered_gems():
    game = register(DRAFT, 2, deals=20)
    rng = np.random.RandomState(4)
    for deal in range(6):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            seat = state.current_player()
            other = state.resample_from_infostate(seat, rng.random_sample)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.legal_actions() == state.legal_actions()
            for x, region in state.s.rec.memory(seat):
                assert any(x in _pile(other.s, place) for place in region)
            state.apply_action(rng.choice(state.legal_actions()))


def _pile(s, place):
    holder, name = place
    return s.g[name] if holder == "g" else s.p[holder][name]


@pytest.mark.slow
def test_cfr_runs_on_the_draft_and_its_nash_conv_falls():
    from open_spiel.python.algorithms import cfr, exploitability

    game = register(DRAFT, 2, deals=2)
    solver = cfr.CFRSolver(game)
    conv = []
    for _ in range(4):
        solver.evaluate_and_update_policy()
        conv.append(exploitability.nash_conv(game, solver.average_policy()))
    assert conv[-1] < conv[0]
    assert conv[-1] < 0.5 * conv[0]


def test_the_observation_and_information_state_tensors_of_one_state_agree():
    """OpenSpiel asks one state for both tensors, each through an observer of its own (two
    encoders of one engine state): both follow every step."""
    game = register("san-juan", 3, deals=5)
    layout = spaces_for("san-juan", 3, (), ()).observations
    state = game.new_initial_state()
    state.apply_action(1)
    for step in range(25):
        seat = state.current_player()
        want = layout.encode(state.s.view(seat))
        assert np.array_equal(state.observation_tensor(seat), want), step
        assert np.array_equal(state.information_state_tensor(seat)[: layout.size], want), step
        state.apply_action(state.legal_actions()[step % len(state.legal_actions())])
