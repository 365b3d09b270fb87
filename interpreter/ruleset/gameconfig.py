"""A game config typed (``rulebook play --config FILE``, or a scenario's head): the game, the
overlays it is played with, the player count and the option values it asks for, each with
where it was written. A scenario inherits what it does not say from its file's top (``top``).

>>> config = GameConfig.from_node({"game": "toy", "with": "a, b", "options": {"fast": True}})
>>> config.game, [(o.value, o.path) for o in config.overlays]
('toy', [('a', ('with',)), ('b', ('with',))])
>>> [(name, o.value, o.path) for name, o in config.options.items()]
[('fast', True, ('options', 'fast'))]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from interpreter.load.locate import is_map, is_seq
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    plain,
    value_at,
    written_at,
)

__all__ = ["Chosen", "GameConfig"]


@dataclass(frozen=True, slots=True)
class Chosen:
    """One value a config writes: where the value was written (``pos``), where its key was
    (``key_pos``), and its path in the config (a message's JSON pointer)."""

    value: Plain
    path: TreePath
    pos: Pos = NOWHERE
    key_pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a config asks for; a field is None where neither it nor its ``top`` writes it."""

    game: str = ""  # the game's name or path ("None" where none is written)
    game_at: Chosen | None = None
    players: Chosen | None = None
    # each overlay named, at its list item (the names of one comma-separated text at `with`)
    overlays: tuple[Chosen, ...] = ()
    options: Mapping[str, Chosen] = field(default_factory=empty_map)

    @classmethod
    def from_node(cls, node: object, top: object = None) -> GameConfig:
        own = node if is_map(node) else {}
        above = top if is_map(top) else None

        def owner(key: str) -> object:
            return own if key in own or above is None else above

        def chosen(key: str) -> Chosen | None:
            at = owner(key)
            if not is_map(at) or key not in at:
                return None
            return Chosen(plain(at[key]), (key,), value_at(at, key), written_at(at, key))

        game = own.get("game") or (above.get("game") if above is not None else None)
        return cls(
            str(game),
            chosen("game"),
            chosen("players"),
            _overlays(owner("with")),
            _options(owner("options")),
        )


def _overlays(at: object) -> tuple[Chosen, ...]:
    listed = at.get("with") if is_map(at) else None
    if not listed:
        return ()
    if isinstance(listed, str):
        where = value_at(at, "with")
        names = (n.strip() for n in listed.split(","))
        return tuple(Chosen(n, ("with",), where) for n in names if n)
    if not is_seq(listed):
        return ()
    return tuple(Chosen(str(n), ("with", i), value_at(listed, i)) for i, n in enumerate(listed))


def _options(at: object) -> Mapping[str, Chosen]:
    given = at.get("options") if is_map(at) else None
    if not given:
        return empty_map()
    return frozen_map(
        {
            str(k): Chosen(plain(v), ("options", str(k)), value_at(given, k), written_at(given, k))
            for k, v in given.items()
        }
    )
