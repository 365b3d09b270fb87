"""The agent interfaces pass their libraries' own conformance tests on every shipped game."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, seed_test

from interpreter.agents import make_env, make_gym_env, register_openspiel

CONFIGS = [
    ("puerto-rico", 3, []),
    ("puerto-rico", 4, ["nobles"]),
    ("puerto-rico", 3, ["new-buildings"]),
    ("puerto-rico", 3, ["nobles", "new-buildings"]),
    ("san-juan", 3, []),
    ("san-juan", 2, ["new-buildings"]),
    ("san-juan", 4, ["setup-variation"]),
    ("san-juan", 3, ["new-buildings", "setup-variation"]),
    ("tests/toy/ruleset.yaml", 2, []),
]


@pytest.mark.parametrize(("game", "players", "overlays"), CONFIGS)
def test_pettingzoo_api_and_seed(game, players, overlays):
    env = make_env(game, players=players, overlays=overlays, options={}, render_mode=None)
    api_test(env, num_cycles=300)
    seed_test(lambda: make_env(game, players=players, overlays=overlays), num_cycles=100)


def _play_out(env, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert set(info["legal_ids"]) == set(legal.tolist())
        assert env.observation_space(agent)["observation"].shape == obs["observation"].shape
        env.step(int(rng.choice(legal)))
    return total


def test_a_whole_game_pays_the_winners_one_in_all():
    env = make_env("san-juan", players=3, render_mode="ansi")
    total = _play_out(env, seed=4)
    assert sum(total.values()) == pytest.approx(1.0)
    assert max(total.values()) > 0
    assert "game over" in env.render()


def test_action_names_are_the_rule_files_option_ids():
    env = make_env("san-juan", players=3)
    env.reset(seed=2)
    for action, option_id in env.infos[env.agent_selection]["legal_ids"].items():
        assert env.action_name(action) == option_id


def test_gymnasium_seat_against_bots():
    env = make_gym_env("puerto-rico", players=3, opponents="random", seat=1)
    obs, info = env.reset(seed=3)
    done = False
    reward = 0.0
    steps = 0
    while not done:
        action = env.action_space.sample(obs["action_mask"])
        assert action in info["legal_ids"]
        obs, reward, done, _, info = env.step(action)
        steps += 1
    assert steps > 10 and reward in (0.0, 0.5, 1.0 / 3, 1.0)


def test_gymnasium_env_checker():
    from gymnasium.utils.env_checker import check_env

    env = make_gym_env("san-juan", players=3, seat=1, illegal_action="lose")
    check_env(env, skip_render_check=True)
    with pytest.raises(ValueError, match="not legal"):
        strict = make_gym_env("san-juan", players=3)
        obs, _ = strict.reset(seed=1)
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


@pytest.mark.parametrize(
    ("game", "players", "overlays"),
    [c for c in CONFIGS if c[1] <= 3 and (c[2] == [] or len(c[2]) == 2)],
)
def test_openspiel_random_simulation(game, players, overlays):
    spiel_game = register_openspiel(game, players, overlays)
    pyspiel.random_sim_test(spiel_game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_ismcts_bot_plays_through_the_adapter():
    from open_spiel.python.algorithms import ismcts, mcts

    game = register_openspiel("san-juan", 2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    state.apply_action(7)
    for _ in range(5):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    # the resampled states agree with the seat's information state
    seat = state.current_player()
    other = state.resample_from_infostate(seat, lambda: 0.25)
    assert other.information_state_string(seat) == state.information_state_string(seat)


@pytest.mark.parametrize(
    ("game", "players", "overlays"),
    [("puerto-rico", 4, ["nobles", "new-buildings"]), ("san-juan", 3, ["new-buildings"])],
)
def test_legal_actions_are_each_options_own_action_where_ids_repeat(game, players, overlays):
    # the same option id comes from several lines in these games (a `pass` of each step): the
    # action of each legal option must still be worked out from its own line and values
    env = make_env(game, players=players, overlays=overlays)
    actions = env.spaces.actions
    lines_of: dict[str, set[int]] = {}
    for seed in range(3):
        s = env.game.new_state(seed)
        s.log = None
        rng = np.random.default_rng(seed)
        while not s.is_over:
            fresh = {actions._action_of(e[1], e[2]): oid for oid, e in s.pending.items()}
            assert actions.legal_actions(s) == fresh
            for oid, entry in s.pending.items():
                lines_of.setdefault(oid, set()).add(id(entry[1]))
            s.apply(s.legal_options()[int(rng.integers(len(s.legal_options())))])
    assert any(len(lines) > 1 for lines in lines_of.values())


def test_pickled_spaces_come_back_bound_to_the_game_loaded_again():
    env = make_env("san-juan", players=3)
    env.reset(seed=11)
    for _ in range(40):  # the caches filled first: they must not travel
        env.step(min(env.infos[env.agent_selection]["legal_ids"]))
    again = pickle.loads(pickle.dumps(env.spaces))
    assert again.game is not env.spaces.game  # (a plain load of the recipe)
    s, t = env.game.new_state(5), again.game.new_state(5)
    for _ in range(60):
        assert again.actions.legal_actions(t) == env.spaces.actions.legal_actions(s)
        s.apply(s.legal_options()[0])
        t.apply(t.legal_options()[0])
