"""Load a game: its rule files read in (``compose/rulefiles.py``: found, composed, checked
against the schema), the player count and options resolved, and the result compiled into a
:class:`Game`.

    game = load_game("my-game", players=4)      # a name under rulesets/, or a path to a file
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.compose.rulefiles import load_rules_data
from interpreter.diagnostics.errors import ConfigError
from interpreter.dsl.compiler import EmitPlan
from interpreter.engine.game import Game
from interpreter.load import catalog
from interpreter.model.probes import Probes
from interpreter.model.rules import build_rules
from interpreter.ruleset.header import GameOption
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["load_game", "load_game_and_data", "resolve_options"]


def resolve_options(declared: Mapping[str, GameOption], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults filled in; each given value checked against its choices (and coerced)."""
    out: dict[str, Any] = {name: option.default for name, option in declared.items()}
    from interpreter.diagnostics.suggest import did_you_mean, echo

    for name, value in given.items():
        if name not in declared:
            guess = did_you_mean(name, list(declared))
            hint = f"; did you mean '{guess}'?" if guess else ""
            known = ", ".join(declared) or "none"
            raise ConfigError(f"unknown option {echo(name)}{hint} (options: {known})")
        choices = list(declared[name].choices)
        coerced = value
        for c in choices:
            if str(c) == str(value):
                coerced = c
                break
        else:
            if choices:
                shown = ", ".join(str(c) for c in choices)
                guess = did_you_mean(str(value), [str(c) for c in choices])
                hint = f"; did you mean '{guess}'?" if guess else ""
                raise ConfigError(
                    f"option '{name}' cannot be {value!r}{hint} (choose one of: {shown})"
                )
        out[name] = coerced
    return out


def load_game(
    name_or_path: str,
    players: int,
    overlays: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    probes: Probes | None = None,
    journal: bool = False,
) -> Game:
    """Load, compose, validate and compile a game. Raises RulesError or ConfigError.
    ``probes`` (model/probes.py) makes a coverage build that counts the rules it runs;
    ``journal`` a journal build whose states note what their rules write (dsl/emit/journal.py)."""
    return load_game_and_data(name_or_path, players, overlays, options, probes, journal)[0]


def load_game_and_data(
    name_or_path: str,
    players: int,
    overlays: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    probes: Probes | None = None,
    journal: bool = False,
) -> tuple[Game, Any]:
    """:func:`load_game`, plus the composed rule data it was compiled from (for tools that read
    declarations the compiled game does not keep, such as the scenario runner's set-up checks)."""
    data, sources, base_path, overlay_ids = load_rules_data(name_or_path, overlays)
    ruleset = Ruleset.of(data)
    head = ruleset.header
    if not head.players.allows(players):
        lo, hi = head.players.min, head.players.max
        raise ConfigError(f"{head.id or name_or_path} is for {lo} to {hi} players, not {players}")
    resolved = resolve_options(head.options, options or {})
    plan = EmitPlan(probes=probes, journal=journal)
    rules = build_rules(data, players, resolved, plan, typed=ruleset)
    game = Game(
        rules,
        name=head.id or base_path.parent.name,
        title=head.title,
        players=players,
        overlays=overlay_ids,
        options=resolved,
        sources=sources,
        ruleset=ruleset,
    )
    if probes is None:
        # how to load this game again elsewhere (a pickled state, another process): absolute
        # files, every option spelt out
        game.recipe = (
            str(base_path.resolve()),
            players,
            tuple(str(catalog.find_overlay(base_path, o).resolve()) for o in overlays),
            tuple(sorted(resolved.items())),
        )
        game.reload = loaded_again
    return game, data


_LOADED: dict[tuple[Any, ...], Game] = {}  # the games unpickled in this process, by recipe


def loaded_again(
    base: str, players: int, overlays: tuple[str, ...], options: tuple[tuple[str, Any], ...]
) -> Game:
    """The game of a recipe (Game.__reduce__: how a pickled game comes back), loaded once per
    process and shared by every state unpickled of it."""
    key = (base, players, overlays, options)
    game = _LOADED.get(key)
    if game is None:
        game = _LOADED[key] = load_game(base, players, overlays, dict(options))
    return game
