"""Game configs: a YAML file and command-line flags resolved into one :class:`GameConfig`.

A config file picks what ``rulebook play`` flags pick, so a setup can be kept and shared::

    game: GAME            # a catalog name or a path to a ruleset
    players: 4
    with: [OVERLAY, ...]  # overlays (expansions, variants, house rules)
    options: {NAME: VALUE}
    seed: 7
    seats: [random, human, random, random]   # a bot name or "human" per seat

Flags override the file key by key (``--option`` per option name). The file is checked
strictly: an unknown key or a wrong type is a ``ConfigError`` naming ``file:line:column``,
because a silently ignored typo (``player: 4``) would play a different game than intended.
"""

from __future__ import annotations

import argparse
import difflib
import os
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.cli import RulebookError, config_error

__all__ = [
    "HUMAN",
    "GameConfig",
    "UsageError",
    "load_config_file",
    "parse_option_flag",
    "parse_option_value",
    "parse_seat_list",
    "positive_int",
    "resolve_config",
    "seed_int",
]

HUMAN = "human"
# how a check of the config file fails: the message and where in the file (line, column)
Fail = Callable[[str, tuple[int | None, int | None]], RulebookError]
CONFIG_KEYS = ("game", "players", "with", "options", "seed", "seats")


class UsageError(Exception):
    """The command line itself is incomplete or inconsistent (exit code 2, like argparse)."""


@dataclass(frozen=True)
class GameConfig:
    """A fully resolved setup: what to load, how to seed it and who sits at each seat."""

    game: str
    players: int
    overlays: tuple[str, ...] = ()
    options: dict[str, object] = field(default_factory=dict)
    seed: int = 0
    seats: tuple[str, ...] = ()

    @property
    def humans(self) -> list[int]:
        """Seats played by a person at the terminal."""
        return [i for i, kind in enumerate(self.seats) if kind == HUMAN]


# ---------------------------------------------------------------- flag parsing (argparse types)


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def positive_int(text: str) -> int:
    """argparse type for ``--players``: an integer of at least 1."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def seed_int(text: str) -> int:
    """argparse type for ``--seed``: a non-negative integer."""
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {value}")
    return value


def parse_seat_list(text: str) -> list[int]:
    """argparse type for ``--human 0,2``: comma-separated seat numbers."""
    seats = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            seats.append(int(part))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected seat numbers separated by commas (e.g. 0,2), got {text!r}"
            ) from None
    return seats


def parse_option_value(text: str) -> object:
    """Read an option value the way YAML would read a plain scalar.

    >>> [parse_option_value(t) for t in ["3", "-1", "0.5", "true", "False", "null", "x y"]]
    [3, -1, 0.5, True, False, None, 'x y']
    """
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "none", "~"):
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_option_flag(text: str) -> tuple[str, object]:
    """argparse type for ``--option NAME=VALUE``."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, parse_option_value(value.strip())


def split_commas(values: Iterable[str] | None) -> list[str] | None:
    """Flatten repeated comma lists (``--with a,b --with c``) into names; None if not given."""
    if values is None:
        return None
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


# ------------------------------------------------------------------------------- config file


def load_config_file(path: str) -> dict[str, Any]:
    """Load and check a YAML game config; returns plain values (OSError if unreadable)."""
    from interpreter.load.yamlload import load_yaml_text

    with open(path, "rb") as inp:  # an unreadable path is an OSError (exit 2)
        raw = inp.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise config_error(f"not a UTF-8 text file (byte {exc.start})", path) from None
    # the guarded loader: no tags, duplicate keys reported with positions, size limits
    doc = load_yaml_text(text, path).data
    return check_config(doc, path)


def _pos(
    node: object, key: object = None, index: int | None = None
) -> tuple[int | None, int | None]:
    """1-based (line, column) of a mapping key's value / a list item, when ruamel kept it."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return None, None
    try:
        if index is not None:
            line, col = lc.item(index)
        elif key is not None:
            line, col = lc.value(key)
        else:
            line, col = lc.line, lc.col
    except (KeyError, IndexError, TypeError, AttributeError):
        return None, None
    return line + 1, col + 1


def _key_pos(node: Any, key: object) -> tuple[int | None, int | None]:
    try:
        line, col = node.lc.key(key)
    except (KeyError, IndexError, TypeError, AttributeError):
        return None, None
    return line + 1, col + 1


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_config(doc: Any, path: str = "<config>") -> dict[str, Any]:
    """Validate a loaded config document; every error names where in the file it is."""

    def fail(message: str, where: tuple[int | None, int | None] = (None, None)) -> RulebookError:
        return config_error(message, path, *where)

    if doc is None:
        return {}
    if not isinstance(doc, Mapping):
        raise fail("a game config must be a mapping of keys (game, players, ...)", _pos(doc))
    out: dict[str, Any] = {}
    for key in doc:
        if key not in CONFIG_KEYS:
            close = difflib.get_close_matches(str(key), CONFIG_KEYS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise fail(
                f"unknown key {key!r} (allowed: {', '.join(CONFIG_KEYS)}){hint}",
                _key_pos(doc, key),
            )
    if "game" in doc:
        if not isinstance(doc["game"], str) or not doc["game"]:
            raise fail("'game' must be a game name or a path", _pos(doc, "game"))
        out["game"] = _relative_to(path, str(doc["game"]))
    if "players" in doc:
        if not _is_int(doc["players"]) or doc["players"] < 1:
            raise fail("'players' must be a whole number of at least 1", _pos(doc, "players"))
        out["players"] = int(doc["players"])
    if "seed" in doc:
        if not _is_int(doc["seed"]) or doc["seed"] < 0:
            raise fail("'seed' must be a non-negative whole number", _pos(doc, "seed"))
        out["seed"] = int(doc["seed"])
    if "with" in doc:
        out["with"] = _string_list(doc, "with", fail, "overlay names", allow_comma_string=True)
    if "seats" in doc:
        out["seats"] = _string_list(doc, "seats", fail, "a bot name or 'human' per seat")
        for index, name in enumerate(out["seats"]):
            if name != HUMAN and not _is_bot(name):
                raise fail(_unknown_seat_message(name), _pos(doc["seats"], index=index))
    if "options" in doc:
        options = doc["options"]
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise fail("'options' must be a mapping NAME: VALUE", _pos(doc, "options"))
        plain: dict[str, object] = {}
        for name, value in options.items():
            if not isinstance(name, str):
                raise fail(f"option name {name!r} must be a string", _key_pos(options, name))
            if isinstance(value, Mapping) or (
                isinstance(value, list) and any(isinstance(v, (Mapping, list)) for v in value)
            ):
                raise fail(
                    f"option {name!r} must be a plain value (number, text, true/false)",
                    _pos(options, name),
                )
            plain[name] = _plain_scalar(value)
        out["options"] = plain
    return out


def _relative_to(config_path: str, game: str) -> str:
    """A relative ruleset path in a config file means relative to that file, like an include."""
    if os.path.isabs(game) or not ("/" in game or os.sep in game):
        return game  # absolute, or a catalog name
    beside = os.path.join(os.path.dirname(config_path), game)
    return beside if os.path.exists(beside) else game


def _plain_scalar(value: object) -> object:
    """ruamel round-trip scalars are str/int subclasses; hand the engine plain built-ins."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list):
        return [_plain_scalar(v) for v in value]
    return value


def _string_list(
    doc: Any, key: str, fail: Fail, what: str, allow_comma_string: bool = False
) -> list[str]:
    value = doc[key]
    if value is None:
        return []
    if allow_comma_string and isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list):
        raise fail(f"{key!r} must be a list of {what}", _pos(doc, key))
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise fail(f"{key}[{index}] must be a string ({what})", _pos(value, index=index))
    return [str(item) for item in value]


def _is_bot(name: str) -> bool:
    # the bots (and their search) are imported only by commands that seat them: `validate`,
    # `list` and `schema` start faster without
    from interpreter.bots import BOTS, bot_base

    return bot_base(name) in BOTS


def _unknown_seat_message(name: str) -> str:
    from interpreter.bots import bot_names

    choices = [*bot_names(), HUMAN]
    close = difflib.get_close_matches(name, choices, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown bot {name!r} (choose from: {', '.join(choices)}){hint}"


# --------------------------------------------------------------------------------- resolving


def resolve_from_flags(
    args: argparse.Namespace, file_config: Mapping[str, Any] | None, **more: Any
) -> GameConfig:
    """:func:`resolve_config` with the shared flags (GAME, --players, --with, --option) read
    from parsed arguments, so every command reads them alike; ``more`` passes seed, humans and
    bots as each command has them."""
    return resolve_config(
        file_config,
        game=args.game,
        players=args.players,
        overlays=split_commas(args.overlays),
        options=args.options or (),
        **more,
    )


def resolve_config(
    file_config: Mapping[str, Any] | None = None,
    *,
    game: str | None = None,
    players: int | None = None,
    overlays: Sequence[str] | None = None,
    options: Iterable[tuple[str, object]] = (),
    seed: int | None = None,
    humans: Sequence[int] | None = None,
    bots: Sequence[str] | None = None,
) -> GameConfig:
    """Merge a checked config file with flags (flags win) into one :class:`GameConfig`.

    ``bots`` is one name for every seat or one name per seat; ``humans`` then turns the listed
    seats over to people. A missing seed is drawn at random (and printed/saved by the caller).

    >>> c = resolve_config({"game": "g", "players": 3, "seed": 1}, humans=[1], bots=["first"])
    >>> c.seats, c.humans
    (('first', 'human', 'first'), [1])
    """
    cfg = dict(file_config or {})
    game = game if game is not None else cfg.get("game")
    players = players if players is not None else cfg.get("players")
    if not game:
        raise UsageError("no game given: name one (GAME) or set 'game:' in --config FILE")
    if players is None:
        raise UsageError("no player count given: use --players N or set 'players:' in --config")
    resolved_overlays = tuple(overlays if overlays is not None else cfg.get("with", ()))
    resolved_options: dict[str, object] = dict(cfg.get("options", {}))
    for name, value in options:
        resolved_options[name] = value
    if seed is None:
        seed = cfg.get("seed")
    if seed is None:
        seed = secrets.randbelow(1_000_000_000)

    seats = list(cfg.get("seats", [])) or ["random"] * players
    if bots is not None:
        if len(bots) == 1:
            seats = [bots[0]] * players
        elif len(bots) == players:
            seats = list(bots)
        else:
            raise UsageError(
                f"--bots lists {len(bots)} names for {players} players: give one name for "
                "every seat or exactly one per seat"
            )
        for name in seats:
            if name != HUMAN and not _is_bot(name):
                raise config_error(_unknown_seat_message(name))
    elif len(seats) != players:
        raise config_error(
            f"the config lists {len(seats)} seat(s) but the game has {players} players"
        )
    for seat in humans or ():
        if not 0 <= seat < players:
            raise UsageError(f"--human {seat}: seats are numbered 0 to {players - 1}")
        seats[seat] = HUMAN
    return GameConfig(
        game=str(game),
        players=int(players),
        overlays=resolved_overlays,
        options=resolved_options,
        seed=int(seed),
        seats=tuple(seats),
    )
