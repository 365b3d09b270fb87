"""Save files: the header that rebuilds a game plus the list of chosen option ids.

Ruleset + config + seed + choices reproduce a game exactly, so that is all a save holds::

    {"format": "rulebook-save/4",
     "game": "NAME-OR-PATH", "players": 3, "overlays": [], "options": {...}, "seed": 7,
     "seats": ["random", "human", "random"],
     "choices": ["option-id", ...],
     "result": {"scores": [...], "winner": 1, "winners": [1], "rounds": 12, "decisions": 240,
                "trigger": "..."}}

``result`` is ``null`` for a game that was stopped before its end (a partial save).
``winners`` lists every seat of a full tie (equal total and tiebreak), ``winner`` is the first
of them; a save written before ``winners`` was recorded has ``winner`` alone.

Format 4 (this engine): a decision with exactly one legal option is taken by the engine, so it
is not among ``choices``, unless which options are legal may depend on a field hidden from
some seat (a hand) and what every seat sees in that state does not decide them: such a
decision is asked like any other and its one option is in ``choices`` (taking it at once would
tell the other seats what the hand holds; infoset/forced.py, and docs/rulesets.md, "Decisions
with one option"). Older saves are still read and replay exactly as they were played: they
differ only in which decisions with one legal option their choices list (format 3: every one
that may depend on a hidden field; format 2: none; format 1: all), and reading one converts
its choices into this format's (``SaveGame.upgrade``, engine/save_upgrade.py), before the
game is replayed. A game resumed from an older save is saved in format 4. Files are
written atomically (temporary file in the same folder, then rename), so an interrupted write
never leaves half a save behind. Reading validates every key and type and raises
``ReplayError`` with a message naming the file and the offending key.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.diagnostics.errors import ReplayError
from interpreter.engine.game import Game
from interpreter.engine.save_upgrade import (
    FORMAT_ASKED,
    FORMAT_BY_STEP,
    FORMAT_TAKEN,
    OLD_FORMATS,
    upgrade_choices,
)
from interpreter.engine.standings import Result
from interpreter.engine.state import State

FORMAT = "rulebook-save/4"
FORMATS = (FORMAT, *OLD_FORMATS)

__all__ = [
    "FORMAT",
    "FORMAT_ASKED",
    "FORMAT_BY_STEP",
    "FORMAT_TAKEN",
    "FORMATS",
    "SaveGame",
    "format_read",
    "read_save",
    "result_to_dict",
    "validate_save",
    "winners_of",
    "write_save",
]


@dataclass
class SaveGame:
    """Everything needed to rebuild and replay one game."""

    game: str
    players: int
    overlays: list[str]
    options: dict[str, Any]
    seed: int
    seats: list[str]
    choices: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    # the format `choices` are in: FORMAT, or an older one until `upgrade` converts them
    format: str = FORMAT
    # where the save was read from, for the messages of a conversion that fails
    source: str = field(default="<save>", compare=False)

    def upgrade(self, game: Game) -> None:
        """Convert the choices of an older format into this format's (the same game of
        `game`, engine/save_upgrade.py); ``ReplayError`` naming the file and the decision
        where they do not fit. A format-4 save is left as it is."""
        if self.format == FORMAT:
            return
        self.choices = upgrade_choices(game, self.format, self.seed, self.choices, self.source)
        self.format = FORMAT
        if self.result is not None:  # the decisions asked, as this format counts them
            self.result = {**self.result, "decisions": len(self.choices)}

    def new_state(self, game: Game) -> State:
        """`game`'s fresh state for replaying these choices (converted first if the save
        is of an older format)."""
        self.upgrade(game)
        return game.new_state(self.seed)

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to disk (key order fixed for readable diffs)."""
        return {
            "format": self.format,
            "game": self.game,
            "players": self.players,
            "overlays": list(self.overlays),
            "options": dict(self.options),
            "seed": self.seed,
            "seats": list(self.seats),
            "choices": list(self.choices),
            "result": self.result,
        }


def format_read(fmt: object) -> str:
    """The format of choices recorded under format name `fmt` (this format for any other
    value: a header written before formats were named)."""
    return fmt if fmt in OLD_FORMATS else FORMAT


def replay_error(message: str, source: str) -> ReplayError:
    """A ReplayError whose message starts with the save file's name."""
    return ReplayError(f"{source}: {message}")


def result_to_dict(result: Result) -> dict[str, Any]:
    """Turn the engine's Result into plain JSON data (shared by saves and ``--json``)."""
    return {
        "scores": [_plain(score) for score in result.scores],
        "winner": result.winner,
        "winners": list(result.winners),
        "rounds": result.rounds,
        "decisions": result.decisions,
        "trigger": result.trigger,
    }


def winners_of(result: Mapping[str, Any]) -> list[int]:
    """Every winner of a result's plain dict: its ``winners`` (all seats of a full tie), or
    its ``winner`` alone in a result written before ties were listed."""
    winners = result.get("winners")
    return list(winners) if winners else [result["winner"]]


def _plain(value: Any) -> Any:
    """Copy nested mappings/sequences into dicts/lists so json.dumps accepts them."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def write_save(path: str | os.PathLike[str], save: SaveGame) -> None:
    """Write ``save`` to ``path`` atomically: a crash mid-write leaves the old file intact."""
    target = Path(path)
    text = json.dumps(save.to_json(), indent=2, ensure_ascii=False) + "\n"
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_save(path: str | os.PathLike[str]) -> SaveGame:
    """Read and validate a save file (OSError if unreadable, ReplayError if malformed)."""
    source = str(path)
    with open(path, encoding="utf-8") as inp:
        text = inp.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise replay_error(
            f"not a save file: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            source,
        ) from None
    return validate_save(data, source)


_KEYS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "format": (str, "a string"),
    "game": (str, "a string"),
    "players": (int, "an integer"),
    "overlays": (list, "a list of strings"),
    "options": (dict, "an object"),
    "seed": (int, "an integer"),
    "seats": (list, "a list of strings"),
    "choices": (list, "a list of option ids (strings)"),
    "result": ((dict, type(None)), "an object or null"),
}


def validate_save(data: Any, source: str = "<save>") -> SaveGame:
    """Check the structure of loaded save data and build a :class:`SaveGame`.

    Every problem is reported as ``ReplayError("SOURCE: what is wrong")`` so that a corrupt or
    hand-edited save never surfaces as a KeyError or TypeError deep in the replay.
    """

    def fail(message: str) -> ReplayError:
        return replay_error(message, source)

    if not isinstance(data, dict):
        raise fail(f"not a save file: expected a JSON object, found {_kind(data)}")
    fmt = data.get("format")
    if fmt not in FORMATS:
        if fmt is None:
            raise fail(f"not a save file: missing key 'format' (expected {FORMAT!r})")
        known = ", ".join(map(repr, FORMATS[:-1])) + f" and {FORMATS[-1]!r}"
        raise fail(f"unsupported save format {fmt!r} (this version reads {known})")
    for key, (types, what) in _KEYS.items():
        if key not in data:
            raise fail(f"missing key {key!r} (expected {what})")
        value = data[key]
        if not isinstance(value, types) or (isinstance(value, bool) and types is int):
            raise fail(f"key {key!r} must be {what}, found {_kind(value)}")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise fail(f"unknown key(s) {', '.join(map(repr, unknown))}")
    for key in ("overlays", "seats", "choices"):
        for index, item in enumerate(data[key]):
            if not isinstance(item, str):
                raise fail(f"{key}[{index}] must be a string, found {_kind(item)}")
    if data["players"] < 1:
        raise fail(f"'players' must be at least 1, found {data['players']}")
    if len(data["seats"]) != data["players"]:
        raise fail(f"'seats' lists {len(data['seats'])} seat(s) but 'players' is {data['players']}")
    for name in data["options"]:
        if not isinstance(name, str):  # pragma: no cover - JSON keys are always strings
            raise fail(f"option name {name!r} must be a string")
    result = data["result"]
    if result is not None:
        _check_result(result, fail)
    return SaveGame(
        game=data["game"],
        players=data["players"],
        overlays=list(data["overlays"]),
        options=dict(data["options"]),
        seed=data["seed"],
        seats=list(data["seats"]),
        choices=list(data["choices"]),
        result=result,
        format=fmt,
        source=source,
    )


def _check_result(result: dict[str, Any], fail: Any) -> None:
    for key in ("scores", "winner", "rounds", "decisions", "trigger"):
        if key not in result:
            raise fail(f"'result' is missing key {key!r}")
    if not isinstance(result["scores"], list) or not all(
        isinstance(s, dict) for s in result["scores"]
    ):
        raise fail("'result.scores' must be a list of objects")
    for key in ("winner", "rounds", "decisions"):
        if not isinstance(result[key], int) or isinstance(result[key], bool):
            raise fail(f"'result.{key}' must be an integer, found {_kind(result[key])}")
    winners = result.get("winners", [0])
    if (
        not isinstance(winners, list)
        or not winners
        or not all(isinstance(w, int) and not isinstance(w, bool) for w in winners)
    ):
        raise fail(f"'result.winners' must be a list of seat numbers, found {_kind(winners)}")


def _kind(value: object) -> str:
    """A JSON-ish name for a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) < 40 else "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
