"""Game configs (C001-C005): the game, overlays, player count and options a config asks for.

A config's game is found beside it, as a path, or among the rulesets known to the run (C001);
each overlay it names must extend that game (C002); its player count must be one the
composition allows (C003); each option must be declared (C004) and take one of its choices
(C005).  When all of that resolves, the composition is compiled as the config will play it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.check.compile import check_ruleset
from interpreter.check.compositions import compose, overlays_of
from interpreter.check.session import Session
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import json_pointer
from interpreter.ruleset.gameconfig import Chosen, GameConfig
from interpreter.ruleset.header import GameOption, Header, PlayerRange
from interpreter.ruleset.nodes import NOWHERE

if TYPE_CHECKING:  # the parser is imported where a file is first read
    from interpreter.load.yamlload import Document

__all__ = ["check_config_file", "resolve_game"]


@dataclass
class _Config:
    """One config file being checked: where its faults are reported and what it asks for."""

    run: Session
    path: str
    asked: GameConfig

    @property
    def game(self) -> str:
        return self.asked.game

    def fault(
        self, at: Chosen | None, code: str, message: str, key: bool = False, **fields: Any
    ) -> None:
        """A fault at a value the config writes (at its key with ``key``)."""
        where = (at.key_pos if key else at.pos) if at is not None else NOWHERE
        self.run.emit(
            [
                Diagnostic(
                    code,
                    message,
                    where.file or self.path,
                    where.line,
                    where.column,
                    json_pointer(list(at.path) if at is not None else []),
                    **fields,
                )
            ]
        )


def check_config_file(run: Session, path: str, doc: Document) -> None:
    """Schema, then C001-C005 in order; a config that resolves is compiled as it will play."""
    errs = run.schema_errors(doc.data, "config", path)
    if errs:
        run.emit(errs)
        return
    config = GameConfig.from_node(doc.data)
    if config.game_at is None:
        return  # a partial config (flags give the rest): nothing to resolve
    chosen = resolve_game(run, path, config)
    if chosen is not None:
        composed, counts, options = chosen
        run.emit(check_ruleset(composed, counts=counts, options=options, whole=False, setup=False))


def resolve_game(
    run: Session, path: str, asked: GameConfig
) -> tuple[Any, list[int] | None, dict[str, Any]] | None:
    """The game, overlays, player count and options a config (or a scenario) asks for,
    C001-C005 on the way: (composition, player counts or None for every one, option values),
    or None when they do not resolve."""
    config = _Config(run, path, asked)
    bases, overlays = run.candidates(path)
    base_path = _base_of(config, bases)
    if base_path is None:
        return None
    base = run.header(base_path)
    if base is None:
        run.emit(run.load(base_path).diagnostics)
        return None
    label = (base.id if base.kind == "ruleset" else "") or config.game
    overlay_paths = _overlays_named(config, base_path, label, overlays)
    if overlay_paths is None:
        return None
    composed, diags = compose(run, base_path, overlay_paths)
    run.emit(diags)
    if composed is None:
        return None
    header = Header.from_data(composed)
    players = config.asked.players.value if config.asked.players is not None else None
    if not isinstance(players, int) or isinstance(players, bool):
        counts = None  # every count the composition allows
    elif _player_count_fits(config, header.players, label, players):
        counts = [players]
    else:
        return None
    options = _options(config, header.options)
    if options is None:
        return None
    return composed, counts, options


def _base_of(config: _Config, bases: Mapping[str, str]) -> str | None:
    """The base ruleset the config's ``game`` names (C001 when none)."""
    game = config.game
    found = _find_game(config.path, game, bases)
    if found is None:
        from interpreter.load import catalog

        known = [*catalog.game_dirs(), *bases]
        config.fault(
            config.asked.game_at, "C001", f"unknown game '{game}'", hint=hint_for(game, known)
        )
    return found


def _find_game(config_path: str, game: str, bases: Mapping[str, str]) -> str | None:
    beside = os.path.join(os.path.dirname(config_path), game)
    for candidate in (beside, game):
        p = Path(candidate)
        if p.is_file():
            return str(p)
        if p.is_dir() and (p / "ruleset.yaml").is_file():
            return str(p / "ruleset.yaml")
    return bases.get(game)


def _overlays_named(
    config: _Config, base_path: str, label: str, overlays: Mapping[str, str]
) -> list[str] | None:
    """The paths of the overlays the config plays ``with``; None after a C002 for any unknown."""
    beside = overlays_of(config.run, base_path, overlays)
    overlay_paths: list[str] = []
    missing = False
    for at in config.asked.overlays:
        name = str(at.value)
        found = beside.get(name)
        if found is None and name.endswith((".yaml", ".yml")):
            candidate = os.path.join(os.path.dirname(config.path), name)
            found = candidate if os.path.isfile(candidate) else None
        if found is None:
            missing = True
            config.fault(
                at,
                "C002",
                f"unknown overlay '{name}' for {label}",
                hint=hint_for(name, beside) or f"overlays: {', '.join(sorted(beside)) or 'none'}",
            )
            continue
        overlay_paths.append(found)
    return None if missing else overlay_paths


def _player_count_fits(config: _Config, allowed: PlayerRange, label: str, players: int) -> bool:
    """Whether the composition allows the config's player count (C003 when not)."""
    lo, hi = allowed.min, allowed.max
    if lo <= players <= hi:
        return True
    config.fault(
        config.asked.players,
        "C003",
        f"{label} is for {lo} to {hi} players, not {players}",
        expected=f"a number from {lo} to {hi}",
    )
    return False


def _options(config: _Config, declared: Mapping[str, GameOption]) -> dict[str, Any] | None:
    """Every declared option's value (the config's, else the default); None after a C004 or
    C005."""
    options: dict[str, Any] = {name: o.default for name, o in declared.items()}
    bad = False
    for name, at in config.asked.options.items():
        value = at.value
        if name not in declared:
            bad = True
            known = list(declared)
            hint = hint_for(name, known) or f"options: {', '.join(known) or 'none'}"
            config.fault(at, "C004", f"unknown option '{name}'", key=True, hint=hint)
            continue
        choices = list(declared[name].choices)
        match = [c for c in choices if str(c) == str(value)]
        if choices and not match:
            bad = True
            shown = [str(c) for c in choices]
            message = f"option '{name}' cannot be {_show(value)}"
            expected = f"one of {', '.join(shown)}"
            config.fault(
                at,
                "C005",
                message,
                expected=expected,
                hint=hint_for(str(value), shown),
            )
            continue
        options[name] = match[0] if match else value
    return None if bad else options


def _show(value: object) -> str:
    return repr(value) if isinstance(value, str) else str(value)
