"""What a rule file says about itself: its id, title, the player counts it allows, the game
options it declares, and (an overlay) what it extends. Read from the composed ruleset for a
loaded game, or from one file alone (:func:`read_header`) where no game is composed, as
``rulebook validate --smoke`` does to list a folder's compositions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.load.locate import is_map, is_seq
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    empty_map,
    frozen_map,
    items_of,
    key_pos,
    node_pos,
    plain,
    seq_of,
    text,
    written_at,
)

__all__ = ["GameOption", "Header", "PlayerRange", "SafetyBound", "read_header"]


@dataclass(frozen=True, slots=True)
class PlayerRange:
    """``players: {min, max}``: the seat counts a game is played with."""

    min: int = 1
    max: int = 99
    pos: Pos = NOWHERE

    def counts(self) -> range:
        """Every allowed player count, smallest first."""
        return range(self.min, self.max + 1)

    def allows(self, players: object) -> bool:
        return isinstance(players, int) and self.min <= players <= self.max


@dataclass(frozen=True, slots=True)
class GameOption:
    """One declared game option (``options: NAME: {default, choices, doc}``)."""

    name: str
    default: Plain
    choices: tuple[Plain, ...]
    doc: str
    pos: Pos = NOWHERE
    has_default: bool = True  # whether a `default:` is written (None above may be its value)


@dataclass(frozen=True, slots=True)
class SafetyBound:
    """``limits: {rounds, decisions}``: where every game of the ruleset stops at the latest
    (None: left to the engine's default)."""

    rounds: int | None = None
    decisions: int | None = None
    pos: Pos = NOWHERE  # where `limits:` was written

    @classmethod
    def from_data(cls, data: Mapping[object, object]) -> SafetyBound | None:
        node = data.get("limits")
        if not is_map(node):
            return None
        rounds, decisions = node.get("rounds"), node.get("decisions")
        return cls(
            None if rounds is None else int(rounds),
            None if decisions is None else int(decisions),
            written_at(data, "limits"),
        )


@dataclass(frozen=True, slots=True)
class Header:
    """The top of a rule file, or of a composed ruleset (its base's)."""

    id: str = ""  # `ruleset:` of a base, `overlay:` of an overlay
    kind: str = ""  # "ruleset", "overlay", or "" (neither: no rule file)
    title: str = ""
    players: PlayerRange = field(default_factory=PlayerRange)
    options: Mapping[str, GameOption] = field(default_factory=empty_map)
    extends: str | None = None  # an overlay's `extends:`
    pos: Pos = NOWHERE
    # an overlay's `extends:` written as a list: the ids it is built on together
    extends_each: tuple[str, ...] = ()
    id_pos: Pos = NOWHERE  # where its `ruleset:` / `overlay:` was written
    limits: SafetyBound | None = None  # None: no `limits:` written

    @classmethod
    def from_data(cls, data: object) -> Header:
        if not is_map(data):
            return cls()
        kind = "ruleset" if "ruleset" in data else "overlay" if "overlay" in data else ""
        extends = data.get("extends")
        return cls(
            id=text(data.get(kind)) if kind else "",
            kind=kind,
            title=text(data.get("title")),
            players=_players(data),
            options=frozen_map(
                {
                    name: _option(name, decl, key_pos(data.get("options"), name))
                    for name, decl in items_of(data.get("options"))
                }
            ),
            extends=extends if isinstance(extends, str) and extends else None,
            pos=node_pos(data),
            extends_each=tuple(str(t) for t in extends) if is_seq(extends) else (),
            id_pos=written_at(data, kind) if kind else NOWHERE,
            limits=SafetyBound.from_data(data),
        )

    def option_defaults(self) -> dict[str, Plain]:
        """Every declared option at its default."""
        return {name: o.default for name, o in self.options.items()}


def _players(data: Mapping[object, object]) -> PlayerRange:
    node = data.get("players")
    if not is_map(node):
        return PlayerRange(pos=key_pos(data, "players"))
    low, high = node.get("min", 1), node.get("max", 99)
    return PlayerRange(
        int(low) if isinstance(low, int) else 1,
        int(high) if isinstance(high, int) else 99,
        key_pos(data, "players"),
    )


def _option(name: str, decl: object, pos: Pos) -> GameOption:
    if not is_map(decl):
        return GameOption(name, None, (), "", pos, False)
    return GameOption(
        name,
        plain(decl.get("default")),
        tuple(plain(c) for c in seq_of(decl.get("choices"))),
        " ".join(text(decl.get("doc")).split()),
        pos,
        "default" in decl,
    )


def read_header(path: str | Path) -> Header:
    """The header of one rule file, alone (no composition). Raises the loader's RulebookError
    for a file that does not load."""
    from interpreter.load.yamlload import load_yaml_file

    return Header.from_data(load_yaml_file(path).data)
