"""Any ruleset and configuration as an OpenSpiel Python game (``pip install -e '.[agents]'``).

    from interpreter.agents import register_openspiel
    game = register_openspiel("my-game", players=3)     # a pyspiel.Game
    state = game.new_initial_state()                      # a chance node: the deal

OpenSpiel's own algorithms then run unchanged (its ISMCTS bot, MCTS, random simulation). The
game is sequential, imperfect-information, constant-sum (utility 1 split among the winners,
as in the PettingZoo environment), terminal reward. Actions are the fixed action space of
spaces.py.

Chance: the first node is a chance node over ``deals`` game seeds (default 1000, uniform);
the seed fixes the setup shuffle and every later draw of that game (the engine draws from
the seeded generator). ``resample_from_infostate`` (what the ISMCTS bot calls) returns a
state drawn by the engine's determinisation for that seat (infoset/worlds.py), generator
reseeded, consistent with the seat's whole history, so a searching bot sees neither hidden
cards nor future draws.

Information state of a seat (perfect recall): the engine's record of its whole history
(infoset/knowledge.py: every view it was shown, as a digest, the log lines, who decided and
its own choices), so two histories it can tell apart are two information states; observation:
its current view alone. The observation tensor is the view's feature vector (spaces.py); the
information state tensor is that vector followed by 64 bits of a digest of the history
(distinct histories, distinct tensors; the bits carry no meaning a network could learn).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from interpreter.agents.env import board_text, final_rewards
from interpreter.agents.spaces import Spaces, spaces_for
from interpreter.infoset.worlds import determinise

__all__ = ["register"]

DEALS = 1000
MAX_GAME_LENGTH = 20_000
HISTORY_BITS = 64  # the digest of the history at the end of the information state tensor
_REGISTERED: dict[str, Any] = {}


def _short_name(
    game: str, players: int, overlays: tuple[str, ...], options: tuple, deals: int
) -> str:
    extra = [] if deals == DEALS else [deals]
    key = json.dumps([game, players, list(overlays), list(options), *extra], default=str)
    digest = hashlib.sha1(key.encode()).hexdigest()[:8]
    stem = "".join(c if c.isalnum() else "_" for c in game.rsplit("/", 1)[-1])
    return f"rulebook_{stem}_{players}p_{digest}"


def register(
    game: str,
    players: int,
    overlays: list[str] | tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    deals: int = DEALS,
) -> Any:
    """Register (once) and load the configuration as a pyspiel game; ``deals``: how many game
    seeds the first chance node draws from (fewer make a smaller tree for CFR)."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    opts = tuple(sorted((options or {}).items()))
    name = _short_name(game, players, tuple(overlays), opts, deals)
    if name not in _REGISTERED:
        spaces = spaces_for(game, players, tuple(overlays), opts)
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"rulebook {spaces.game!r}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=players,
            min_num_players=players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={},
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=spaces.actions.size,
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )

        class ConfiguredGame(RulebookSpielGame):
            def __init__(self, params: Any = None) -> None:
                super().__init__(game_type, info, spaces, params, deals)

        pyspiel.register_game(game_type, ConfiguredGame)
        _REGISTERED[name] = ConfiguredGame
    return pyspiel.load_game(name)


class RulebookSpielGame(pyspiel.Game):
    """A pyspiel game over one compiled configuration."""

    def __init__(
        self, game_type: Any, info: Any, spaces: Spaces, params: Any = None, deals: int = DEALS
    ) -> None:
        super().__init__(game_type, info, params or {})
        self.spaces = spaces
        self.deals = deals

    def new_initial_state(self) -> RulebookSpielState:
        return RulebookSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ViewObserver(self.spaces, recall)


class _Held:
    """The engine state a pyspiel state holds.

    pyspiel clones a Python state by deep-copying its attributes one by one (not through the
    state's own ``__deepcopy__``), so the engine state sits in this holder, whose deep copy is
    the engine's own copy: the compiled game shared, the fields copied by their declared shapes,
    the seats' records going on. A field-by-field deep copy costs hundreds of times more.
    """

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.state.copy(recording=True) if self.state is not None else None)


class RulebookSpielState(pyspiel.State):
    """A pyspiel state: before the deal a chance node, then a running engine state."""

    def __init__(self, game: RulebookSpielGame) -> None:
        super().__init__(game)
        self.spaces = game.spaces
        self.deals = game.deals
        self._held = _Held(None)  # the engine state, once dealt; it records what each seat knows
        self._legal: dict[int, str] = {}

    @property
    def s(self) -> Any:
        """The running engine state (None before the deal)."""
        return self._held.state

    @s.setter
    def s(self, state: Any) -> None:
        self._held = _Held(state)

    def __deepcopy__(self, memo: dict) -> RulebookSpielState:
        # copy.deepcopy of the whole state (tree search does it): the compiled game is shared
        other = RulebookSpielState(self.get_game())
        other.s = self.s.copy(recording=True) if self.s is not None else None
        other._legal = dict(self._legal)
        return other

    def current_player(self) -> int:
        if self.s is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.s.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.s.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(deal, 1.0 / self.deals) for deal in range(self.deals)]

    def _apply_action(self, action: int) -> None:
        if self.s is None:
            # the log stays on: its lines are part of what every seat is shown
            self.s = self.spaces.game.new_state(int(action), record=True)
        else:
            self.s.apply(self._legal[int(action)])
        self._legal = {} if self.s.is_over else self.spaces.actions.legal_actions(self.s)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{action}"
        return self.spaces.actions.names[action]

    def is_terminal(self) -> bool:
        return self.s is not None and self.s.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        return final_rewards(self.s)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state consistent with what ``player_id`` has seen (the engine's determinisation)."""
        other = copy.deepcopy(self)
        if self.s is None:
            return other
        seed = int(probability_sampler() * 2**53)
        other.s = determinise(self.s, player_id, random.Random(seed))
        # the drawn world goes on recording from the same histories (the seat's own is the
        # true one: the world is one it cannot tell apart)
        other.s.rec = self.s.rec.rebase(other.s)
        other.s.log = []
        return other

    def __str__(self) -> str:
        return "(before the deal)" if self.s is None else board_text(self.s)


class ViewObserver:
    """OpenSpiel's Python observer: a seat's view as a string and as the feature vector."""

    def __init__(self, spaces: Spaces, perfect_recall: bool) -> None:
        self.spaces = spaces
        self.perfect_recall = perfect_recall
        size = spaces.observations.size
        self.tensor = np.zeros(size + (HISTORY_BITS if perfect_recall else 0), np.float32)
        self.dict = {"view": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:]
        self.encoder = spaces.observations.encoder(spaces.game)  # encoder.py

    def set_from(self, state: RulebookSpielState, player: int) -> None:
        if state.s is None:
            self.tensor.fill(0)
            return
        self.dict["view"][:] = self.encoder.encode(state.s, player)
        if self.perfect_recall:
            text = state.s.rec.information_string(player)
            bits = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
            self.dict["history"][:] = [(bits >> i) & 1 for i in range(HISTORY_BITS)]

    def string_from(self, state: RulebookSpielState, player: int) -> str:
        if state.s is None:
            return f"seat {player}: before the deal"
        if self.perfect_recall:
            return f"seat {player}\n" + state.s.rec.information_string(player)
        return json.dumps(state.s.view(player), sort_keys=True)
