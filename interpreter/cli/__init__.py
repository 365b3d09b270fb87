"""The ``rulebook`` command line: a thin, game-agnostic front end over the engine.

Every subcommand reaches the engine through :func:`load_game` and :func:`list_games` defined
here (and looked up as ``interpreter.cli.load_game`` at call time), so that tests can swap in
a small fake game with ``monkeypatch`` and the front end never imports engine internals.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from interpreter.diagnostics.errors import (
    ConfigError,
    IllegalOptionError,
    ReplayError,
    RulebookError,
    RulesError,
)

if TYPE_CHECKING:  # the engine and the catalog are imported when first used
    from interpreter.engine.game import Game
    from interpreter.load.catalog import GameInfo

__all__ = [
    "Command",
    "ConfigError",
    "IllegalOptionError",
    "ReplayError",
    "RulebookError",
    "RulesError",
    "config_error",
    "list_games",
    "load_game",
    "replay_error",
]


@dataclass(frozen=True)
class Command:
    """One subcommand: how to declare its arguments and how to run it (returns an exit code)."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str | None = None


def load_game(
    name_or_path: str,
    players: int,
    overlays: Sequence[str] = (),
    options: Mapping[str, object] | None = None,
) -> Game:
    """Compile a game through the engine (indirection so tests can inject a fake engine)."""
    from interpreter.engine.loader import load_game as _load_game

    return _load_game(name_or_path, players, tuple(overlays), dict(options or {}))


def list_games() -> list[GameInfo]:
    """List the games the catalog knows (indirection so tests can inject a fake catalog)."""
    from interpreter.load.catalog import list_games as _list_games

    return list(_list_games())


def config_error(
    message: str, file: str | None = None, line: int | None = None, column: int | None = None
) -> RulebookError:
    """Build a ConfigError that carries a position when the error class supports one."""
    return _positioned(ConfigError, message, file, line, column)


def replay_error(message: str, file: str | None = None) -> RulebookError:
    """Build a ReplayError naming the save file."""
    return _positioned(ReplayError, message, file, None, None)


def _positioned(
    cls: type[RulebookError], message: str, file: str | None, line: int | None, column: int | None
) -> RulebookError:
    if file is not None:
        where = file if line is None else f"{file}:{line}"
        if line is not None and column is not None:
            where += f":{column}"
        message = f"{where}: {message}"
    return cls(message)
