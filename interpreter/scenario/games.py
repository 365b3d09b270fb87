"""The games scenarios run on, compiled once per (game, players, overlays, options, search path).

Every scenario of a file usually plays one set-up, so the runner asks here and the first scenario
pays the load; `rulebook test` calls :func:`clear_cache` between runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model.logtexts import LogTexts
from interpreter.ruleset.option_names import OptionNames
from interpreter.scenario.format import Scenario
from interpreter.scenario.given import FieldInfo, field_info
from interpreter.scenario.names import GameNames

if TYPE_CHECKING:
    from interpreter.coverage import Coverage

__all__ = ["clear_cache", "compiled_game", "scenario_game"]

_games: dict[tuple, tuple[Any, FieldInfo, GameNames]] = {}


def scenario_game(sc: Scenario, coverage: Coverage | None = None) -> tuple[Any, FieldInfo]:
    """The scenario's game and its fields, compiled once per set-up; with `coverage`, a
    coverage build counted there (compiled once per collector)."""
    game, info, _names = compiled_game(sc, coverage)
    return game, info


def compiled_game(
    sc: Scenario, coverage: Coverage | None = None
) -> tuple[Any, FieldInfo, GameNames]:
    """:func:`scenario_game`, and the option ids and log texts the game can hold (the checks
    `rulebook validate` makes, :class:`~interpreter.ruleset.option_names.OptionNames` and
    :class:`~interpreter.model.logtexts.LogTexts`)."""
    from interpreter.engine.loader import load_game
    from interpreter.load.catalog import search_path

    key = (
        sc.game,
        sc.players,
        sc.overlays,
        tuple(sorted((k, str(v)) for k, v in sc.options.items())),
        tuple(str(p) for p in search_path()),
        coverage,  # the collector itself (kept alive by the key, so never mistaken for another)
    )
    hit = _games.get(key)
    if hit is None:
        # one load: the set-up checks and those of `rulebook validate` read the game's typed
        # rules
        load = load_game if coverage is None else coverage.load_game
        game = load(sc.game, sc.players, sc.overlays, dict(sc.options))
        rules = game.ruleset
        hit = (game, field_info(game), GameNames(OptionNames(rules), LogTexts(rules)))
        _games[key] = hit
    return hit


def clear_cache() -> None:
    """Forget every compiled game (a rule file may have changed since)."""
    _games.clear()
