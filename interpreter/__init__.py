"""rulebook: a declarative, data-driven rules interpreter for role-selection board games.

The package is laid out by stage, each folder importing only from the ones below it
(docs/architecture.md)::

    diagnostics/  the one error type, did-you-mean, reporters (text, JSON, GitHub)
    load/         YAML with positions, JSON Schema, finding rulesets and overlays
    compose/      overlays laid over a base game
    dsl/          the effect language: parse, resolve and check, generate Python
    model/        a composed ruleset compiled into an immutable Rules object and flow program
    engine/       Game, State, the flow machine, save files
    check/        `rulebook validate`: every diagnostic of every file
    bots/ table/ scenario/ simulate/ serve/ cli/   the drivers on top

The public entry points are re-exported here:

>>> from interpreter import load_game
>>> load_game.__module__
'interpreter.engine.loader'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: The release (pyproject.toml reads it; docs/changelog.md says what each one changed): between
#: releases, the next one's first development version (PEP 440), so a build of `main` is never
#: taken for the release before it.
__version__ = "0.2.0.dev0"

if TYPE_CHECKING:
    from interpreter.diagnostics.errors import (
        ConfigError,
        IllegalOptionError,
        ReplayError,
        RulebookError,
        RulesError,
    )
    from interpreter.engine.game import Game
    from interpreter.engine.loader import load_game
    from interpreter.engine.standings import Result
    from interpreter.engine.state import State

# imported on first use, so `rulebook --help` does not pay for the engine
_EXPORTS = {
    "load_game": "interpreter.engine.loader",
    "Game": "interpreter.engine.game",
    "State": "interpreter.engine.state",
    "Result": "interpreter.engine.frame",
    "RulebookError": "interpreter.diagnostics.errors",
    "RulesError": "interpreter.diagnostics.errors",
    "ConfigError": "interpreter.diagnostics.errors",
    "ReplayError": "interpreter.diagnostics.errors",
    "IllegalOptionError": "interpreter.diagnostics.errors",
}

__all__ = [
    "ConfigError",
    "Game",
    "IllegalOptionError",
    "ReplayError",
    "Result",
    "RulebookError",
    "RulesError",
    "State",
    "load_game",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
