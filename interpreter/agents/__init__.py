"""Agent interfaces: any ruleset as a PettingZoo AEC environment, a Gymnasium single-agent
environment, and an OpenSpiel game (``pip install -e '.[agents]'``).

    from interpreter.agents import make_env
    env = make_env("my-game", players=4, overlays=["my-expansion"], options={}, render_mode=None)

See docs/agents.md. The third-party libraries are imported only when an environment is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the environments import their third-party libraries: made when asked
    from interpreter.agents.env import RulebookEnv
    from interpreter.agents.gym_env import SingleSeatEnv

__all__ = ["make_env", "make_gym_env", "register_openspiel"]


def make_env(
    game: str,
    players: int,
    overlays: list[str] | tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
) -> RulebookEnv:
    """A PettingZoo AEC environment of ``game`` (a name under rulesets/ or a ruleset path)."""
    from interpreter.agents.env import RulebookEnv

    return RulebookEnv(game, players, overlays, options, render_mode)


def make_gym_env(
    game: str,
    players: int,
    opponents: str = "random",
    seat: int = 0,
    overlays: list[str] | tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    illegal_action: str = "raise",
) -> SingleSeatEnv:
    """A Gymnasium environment: the agent plays ``seat``, a named bot spec plays the others."""
    from interpreter.agents.gym_env import SingleSeatEnv

    return SingleSeatEnv(
        game, players, opponents, seat, overlays, options, render_mode, illegal_action
    )


def register_openspiel(
    game: str,
    players: int,
    overlays: list[str] | tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
) -> Any:
    """Register the configuration as a pyspiel Python game; returns ``pyspiel.load_game(...)``."""
    from interpreter.agents.spiel import register

    return register(game, players, overlays, options)
