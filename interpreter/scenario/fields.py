"""What a scenario's set-up may name: a game's state fields, their kinds and the ids each may
hold (:class:`FieldInfo`), and the error a set-up that cannot be applied raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.ruleset.nodes import Pos

if TYPE_CHECKING:
    from interpreter.engine.game import Game

__all__ = ["FieldInfo", "SetupError", "field_info"]


class SetupError(Exception):
    """A set-up that cannot be applied: why, and where in the scenario file (the set-up's
    place, or the field's)."""

    def __init__(self, message: str, where: Pos) -> None:
        super().__init__(message)
        self.message = message
        self.where = where


@dataclass
class FieldInfo:
    """What a game's state fields are: kind, and the ids a bag/pile/area may hold."""

    global_kinds: dict[str, str]
    player_kinds: dict[str, str]
    domains: dict[tuple[str, str], tuple[str, ...]]  # (global|player, field) -> ids
    piece_fields: dict[str, dict[str, Any]]  # piece id -> its dynamic fields with defaults
    ids: set[str]  # every id the ruleset declares
    stocks: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # global counter -> the (global|player, field) counters stocked from it


def field_info(game: Game) -> FieldInfo:
    """Built from a compiled game and its typed rules (for the `state:` declarations)."""
    env = game.env
    domains: dict[tuple[str, str], tuple[str, ...]] = {}
    stocks: dict[str, list[tuple[str, str]]] = {}
    for decl in game.ruleset.fields:
        if decl.stock is not None:
            stocks.setdefault(decl.stock, []).append((decl.scope, decl.name))
        if decl.holds is not None:
            over = env.constants.get(decl.holds)
            if isinstance(over, tuple):
                domains[(decl.scope, decl.name)] = tuple(str(x) for x in over)
    ids: set[str] = set(env.attrs)
    for value in env.constants.values():
        if isinstance(value, str):
            ids.add(value)
    return FieldInfo(
        global_kinds=dict(env.global_fields),
        player_kinds={k: v for k, v in env.player_fields.items() if k != "seat"},
        domains=domains,
        piece_fields={k: dict(v) for k, v in env.piece_defaults.items()},
        ids=ids,
        stocks=stocks,
    )
