"""A PettingZoo AEC environment for any ruleset (``pip install -e '.[agents]'``).

    from interpreter.agents import make_env
    env = make_env("my-game", players=4, overlays=["my-expansion"], options={}, render_mode=None)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(
            obs["action_mask"])
        env.step(action)

Agents are ``player_0`` ... ``player_{N-1}`` (seat order). The action space is a fixed
``Discrete(A)`` per configuration and the observation a dict with ``observation`` (float32
vector of the seat's own view) and ``action_mask`` (int8, 1 for legal actions): see
spaces.py; the vectors are refilled only where the state changed (encoder.py). ``info``
carries ``legal_ids`` (legal action -> option id; the environment's own, read it without
changing it). Rewards come only at the end: each winner gets 1 divided by the number of
tied winners, the others 0 (so the rewards of a game add up to 1). ``reset(seed=S)`` deals
game seed ``S``; without a seed the next deal of the environment's own seeded sequence is
used. ``render()`` returns (and in
``human`` mode prints) the readable board: the current player's view and legal options.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from interpreter.agents.spaces import Spaces, spaces_for
from interpreter.engine.state import State

__all__ = ["RulebookEnv", "final_rewards"]

_I8 = np.dtype(np.int8)
_NO_ACTIONS: dict[int, str] = {}


def final_rewards(state: State) -> list[float]:
    """Each seat's reward of a finished game: 1/len(winners) to each winner, 0 to the others."""
    winners = state.result().winners
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(state.p))]


class RulebookEnv(AECEnv):
    """One ruleset and configuration as a PettingZoo AEC environment."""

    metadata = {
        "name": "rulebook_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int,
        overlays: list[str] | tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game_name = game
        key = tuple(sorted((options or {}).items()))
        self.spaces: Spaces = spaces_for(game, players, tuple(overlays), key)
        self.game = self.spaces.game
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_actions = self.spaces.actions.size
        n_obs = self.spaces.observations.size
        self._action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._deals = random.Random(0)
        # the seats' feature vectors, kept between steps and refilled where the state changed
        self._encoder = self.spaces.observations.encoder(self.game)
        self.state: Any = None
        self._legal: dict[int, str] = {}
        self._no_actions = np.zeros(n_actions, _I8)  # copied for each mask

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def action_name(self, action: int) -> str:
        """The option id an action stands for (as the ruleset writes it)."""
        return self.spaces.actions.names[action]

    # -- the AEC surface --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._deals = random.Random(seed)
            deal = seed
        else:
            deal = self._deals.randrange(2**31)
        self.state = self.game.new_state(deal)
        self.state.log = [] if self.render_mode else None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next()

    def _next(self) -> None:
        s = self.state
        if s.is_over:
            for agent, reward in zip(self.possible_agents, final_rewards(s), strict=True):
                self.rewards[agent] = reward
                self.terminations[agent] = True
            self._legal = {}
            self.agent_selection = self.agents[0]
        else:
            legal = self._legal = self.spaces.actions.legal_actions(s)
            agent = self.agent_selection = self.possible_agents[s.who]
            # a new dict at every decision, never changed by the environment: shown as it is
            self.infos[agent] = {"legal_ids": legal}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        mover = agent == self.agent_selection and not state.over
        return {
            "observation": self._encoder.encode(state, self._seat[agent]),
            # made anew each time: nearly half the decisions of a game have a set of legal
            # actions no earlier one had, so a kept mask would rarely be met again
            "action_mask": mask_of(self._legal if mover else _NO_ACTIONS, self._no_actions),
        }

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As ``AECEnv.last`` (the agent to move: its observation, cumulative reward, ends and
        info), written here rather than inherited: it runs once a step."""
        agent = self.agent_selection
        assert agent is not None
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        option = None if action is None else self._legal.get(int(action))
        if option is None:
            raise ValueError(f"action {action!r} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        # rewards stay 0 until the game ends (reset sets them so), so there is nothing to add
        # to the cumulative rewards before then
        self.state.apply(option)
        self._next()
        if self.state.is_over:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = board_text(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def mask_of(actions: dict[int, str], zeros: np.ndarray) -> np.ndarray:
    """A new copy of the int8 array ``zeros`` with 1 at each of the ``actions``."""
    mask = bytearray(len(zeros))
    for action in actions:
        mask[action] = 1
    return np.frombuffer(mask, _I8)  # (the dtype by position: see Encoder.encode)


def board_text(state: State) -> str:
    """The readable board: whose turn, the mover's view and legal options (or the result)."""
    if state is None:
        return "(no game: call reset)"
    if state.is_over:
        res = state.result()
        totals = ", ".join(f"seat {r['seat']} {r['total']}" for r in res.scores)
        return f"game over after {res.rounds} rounds: {totals}; winners {res.winners}"
    seat = state.to_move
    view = json.dumps(state.view(seat), sort_keys=True)
    return f"round {state.round}, seat {seat} to move\n{view}\noptions: {state.legal_options()}"
