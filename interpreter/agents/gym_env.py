"""A Gymnasium single-agent environment: the agent plays one seat, named bots the others.

    from interpreter.agents import make_gym_env
    env = make_gym_env("my-game", players=3, opponents="random", seat=0)
    obs, info = env.reset(seed=1)
    action = env.action_space.sample(obs["action_mask"])
    obs, reward, terminated, truncated, info = env.step(action)

Spaces and rewards are those of the PettingZoo environment (env.py): the reward is the
agent's share of the win, paid when the game ends. ``opponents`` is one bot spec for every
other seat or a comma list, one per other seat (``"search:iterations=100,random"``); the
bots are made with the deal's seed, as ``rulebook simulate`` makes them. An action outside the
mask raises, or with ``illegal_action="lose"`` ends the episode with reward -1 (what
Gymnasium's ``check_env``, which steps unmasked samples, needs).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from interpreter.agents.env import RulebookEnv, board_text, final_rewards
from interpreter.bots import make_bot
from interpreter.bots.registry import Bot
from interpreter.infoset.worlds import SeatView

__all__ = ["SingleSeatEnv"]


class SingleSeatEnv(gym.Env):
    """One seat of a ruleset for a single learning agent; bots play the rest."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        game: str,
        players: int,
        opponents: str = "random",
        seat: int = 0,
        overlays: list[str] | tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        if illegal_action not in ("raise", "lose"):
            raise ValueError("illegal_action is 'raise' or 'lose'")
        self.illegal_action = illegal_action
        self.inner = RulebookEnv(game, players, overlays, options, None)
        self.seat = seat
        specs = [x for x in opponents.split(",") if x]
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"give one opponent spec or {players - 1}, got {len(specs)}")
        self.opponent_specs = specs
        agent = self.inner.possible_agents[seat]
        self.action_space = self.inner.action_space(agent)
        self.observation_space = self.inner.observation_space(agent)
        self.render_mode = render_mode
        self._bots: dict[int, Bot] = {}

    def _play_others(self) -> None:
        s = self.inner.state
        while not s.is_over and s.to_move != self.seat:
            mover = s.to_move
            s.apply(self._bots[mover].choose(SeatView(s, mover), s.legal_options()))

    def _obs(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        env = self.inner
        s = env.state
        env._legal = {} if s.is_over else env.spaces.actions.legal_actions(s)
        env.agent_selection = env.possible_agents[self.seat]
        obs = env.observe(env.agent_selection)
        return obs, {"legal_ids": dict(env._legal)}

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        deal = seed if seed is not None else int(self.np_random.integers(2**31))
        self.inner.reset(seed=deal)
        others = [x for x in range(len(self.inner.possible_agents)) if x != self.seat]
        self._bots = {
            s: make_bot(spec, s, deal) for s, spec in zip(others, self.opponent_specs, strict=True)
        }
        self._play_others()
        return self._obs()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        env = self.inner
        s = env.state
        legal = env.spaces.actions.legal_actions(s)
        if int(action) not in legal:
            if self.illegal_action == "raise":
                raise ValueError(f"action {action!r} is not legal now")
            obs, info = self._obs()
            return obs, -1.0, True, False, {**info, "illegal_action": int(action)}
        s.apply(legal[int(action)])
        self._play_others()
        obs, info = self._obs()
        reward = final_rewards(s)[self.seat] if s.is_over else 0.0
        if self.render_mode == "human":
            print(board_text(s))
        return obs, reward, s.is_over, False, info

    def render(self) -> str | None:
        text = board_text(self.inner.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text
