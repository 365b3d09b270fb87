"""What a model sees and chooses: the agent spaces of one composition, and its identity check.

The features and actions are the agent environment's (interpreter/agents/spaces.py): a fixed
observation vector of a seat's view and a fixed action index per (family, arguments) of an
option. A model is only meaningful for the composition its spaces were built for, so the
model file names it and :func:`check_game` refuses a game of any other composition.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from interpreter.agents.spaces import Spaces, spaces_for
from interpreter.diagnostics.errors import ConfigError
from interpreter.engine.game import Game
from interpreter.learn.model import PolicyValueNet, load_model

__all__ = [
    "LoadedModel",
    "check_game",
    "composition",
    "identity",
    "legal_actions",
    "load_cached",
    "observe",
    "spaces_of",
]


def composition(
    game: str, players: int, overlays: Sequence[str], options: Mapping[str, Any], loaded: Any
) -> dict[str, Any]:
    """The header part naming a composition: how to build it again (``game`` made absolute
    when it is a file) and the loaded game's identity (name, overlays, resolved options)."""
    where = os.path.abspath(game) if os.path.exists(game) else game
    return {
        "game": where,
        "players": players,
        "overlays": list(overlays),
        "options": {k: options[k] for k in sorted(options)},
        "identity": identity(loaded),
    }


def identity(game: Game) -> str:
    """A loaded game's composition as one comparable text (name, players, overlays, options)."""
    options = {str(k): v for k, v in sorted(dict(game.options).items())}
    return json.dumps([game.name, game.players, list(game.overlays), options], default=str)


def spaces_of(head: Mapping[str, Any]) -> Spaces:
    """The agent spaces of the composition a model header names."""
    options = tuple(sorted(dict(head["options"]).items()))
    return spaces_for(head["game"], int(head["players"]), tuple(head["overlays"]), options)


def describe(ident: str) -> str:
    """An identity text as people read it: ``name, N players, with a,b, options {...}``."""
    name, players, overlays, options = json.loads(ident)
    parts = [f"{name}, {players} players"]
    if overlays:
        parts.append("with " + ",".join(overlays))
    parts.append(f"options {options}")
    return ", ".join(parts)


def check_game(head: Mapping[str, Any], game: Game, source: str) -> None:
    """Refuse a game whose composition differs from the model's (a ConfigError saying both)."""
    ident = identity(game)
    if ident != head["identity"]:
        raise ConfigError(
            f"model {source!r} was trained for {describe(head['identity'])}; this game is "
            f"{describe(ident)}: train a model for it with 'rulebook train'"
        )


def observe(spaces: Spaces, view: Mapping[str, Any]) -> np.ndarray:
    """The observation vector of a seat's view."""
    return np.asarray(spaces.observations.encode(view), dtype=np.float64)  # type: ignore[arg-type]


class ActionMap:
    """Option entries of one loaded game -> actions of the spaces (built on another load of
    the same composition): the agents' action space bound to this game's option lines."""

    def __init__(self, spaces: Spaces, game: Game) -> None:
        self.game = game
        self._bound = spaces.actions.bound_to(game)
        if not self._bound._family:
            raise ConfigError("the game's option families differ from the model's: retrain it")

    def action_of(self, entry: tuple) -> int | None:
        """The action of a pending entry ``(spec, option line, values)``; None if outside."""
        return self._bound.action_of(entry)


_MAPS: dict[tuple[int, int], ActionMap] = {}


def action_map(spaces: Spaces, game: Game) -> ActionMap:
    """The (cached) :class:`ActionMap` of ``game`` onto ``spaces``."""
    key = (id(spaces), id(game))
    amap = _MAPS.get(key)
    if amap is None or amap.game is not game:
        amap = _MAPS[key] = ActionMap(spaces, game)
    return amap


def legal_actions(
    spaces: Spaces, pending: Mapping[str, Any], legal: Sequence[str], game: Game | None = None
) -> list[int]:
    """The action index of each legal option id (in ``legal``'s order), for ``game`` (default:
    the game the spaces were built on)."""
    if game is None or game is spaces.game:
        action_of = spaces.actions.action_of
    else:
        action_of = action_map(spaces, game).action_of
    out = []
    for option in legal:
        action = action_of(pending[option])
        if action is None:
            raise ConfigError(
                f"option {option!r} lies outside the model's action space (an argument value "
                "its probe games never showed): retrain the model"
            )
        out.append(action)
    return out


class LoadedModel:
    """A model file read once: the network, its header and its composition's spaces."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.net, self.head = load_model(path)
        try:
            self.spaces = spaces_of(self.head)
        except ConfigError as exc:  # (a house-rule file not beside the model any more)
            raise ConfigError(f"model {path!r}: its composition does not load: {exc}") from None
        sizes = (self.spaces.observations.size, self.spaces.actions.size)
        if sizes != (self.net.n_in, self.net.n_actions):
            raise ConfigError(
                f"model {path!r} has {self.net.n_in} features and {self.net.n_actions} actions; "
                f"this engine builds {sizes[0]} and {sizes[1]} for its composition: retrain it"
            )
        self._checked: set[int] = set()

    def check(self, game: Game) -> None:
        """Refuse a game of another composition (checked once per loaded game)."""
        if id(game) not in self._checked:
            check_game(self.head, game, self.path)
            self._checked.add(id(game))

    def evaluate(
        self, view: Mapping[str, Any], pending: Mapping[str, Any], legal: Sequence[str], game: Game
    ) -> tuple[np.ndarray, np.ndarray]:
        """Move probabilities over ``legal`` and value shares (own seat first) of a view of a
        state of ``game``."""
        net: PolicyValueNet = self.net
        actions = legal_actions(self.spaces, pending, legal, game)
        return net.evaluate(observe(self.spaces, view), actions)


_CACHE: dict[tuple[str, int, int], LoadedModel] = {}


def load_cached(path: str) -> LoadedModel:
    """The model at ``path``, read once per process (re-read when the file changes)."""
    try:
        st = Path(path).stat()
    except OSError:
        raise ConfigError(f"model file {path!r} does not exist") from None
    key = (os.path.abspath(path), st.st_mtime_ns, st.st_size)
    model = _CACHE.get(key)
    if model is None:
        # a file written again (training writes its model every iteration) replaces its
        # older reading: a long run in one process keeps one model per path, not one per write
        for old in [k for k in _CACHE if k[0] == key[0]]:
            del _CACHE[old]
        model = _CACHE[key] = LoadedModel(path)
    return model
