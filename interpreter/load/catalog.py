"""Finds rulesets and overlays on disk: `rulesets/<game>/` holds one base file and overlays.

A base file is a YAML map with `ruleset: <id>`; every other `*.yaml` beside it with
`overlay: <id>` is an overlay of that game. Search path: $RULEBOOK_RULESETS (os.pathsep
separated) then the `rulesets/` folder of this checkout.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.diagnostics.errors import ConfigError, RulebookError
from interpreter.diagnostics.suggest import did_you_mean, echo
from interpreter.load.locate import position_of
from interpreter.load.node import Key, Node, NodeMap, is_map
from interpreter.load.resources import data_dir

BASE_FILE = "ruleset.yaml"


def search_path() -> list[Path]:
    paths = [Path(p) for p in os.environ.get("RULEBOOK_RULESETS", "").split(os.pathsep) if p]
    paths.append(data_dir("rulesets"))
    return paths


@dataclass
class OptionInfo:
    name: str
    default: object  # as the rule file writes it
    choices: list[object]
    doc: str


@dataclass
class OverlayInfo:
    name: str
    title: str
    path: str
    options: list[OptionInfo] = field(default_factory=list)  # the options it adds


@dataclass
class GameInfo:
    name: str
    title: str
    path: str
    min_players: int
    max_players: int
    overlays: list[OverlayInfo] = field(default_factory=list)
    options: list[OptionInfo] = field(default_factory=list)
    # why the base file's head cannot be listed (a YAML error, a `players:` that is not a map
    # of whole numbers), located; such a game is still listed, so one broken folder on the
    # search path does not hide the others
    fault: str | None = None


def _head(path: Path) -> NodeMap:
    """The top-level scalars of a rule file, read cheaply and safely (for listings)."""
    from interpreter.load.yamlload import load_yaml_file

    data = load_yaml_file(path).tree
    return data if isinstance(data, dict) else {}


def game_dirs() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for root in search_path():
        if not root.is_dir():
            continue
        if (root / BASE_FILE).is_file() and root.resolve().name not in found:
            found[root.resolve().name] = root  # a game's own folder named as a search root
            continue
        for d in sorted(root.iterdir()):
            if (d / BASE_FILE).is_file() and d.name not in found:
                found[d.name] = d
    return found


def find_game(name_or_path: str) -> Path:
    """The base file of a game, by name (`rulesets/<name>/`) or by path to a file or folder."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return p
    if p.is_dir() and (p / BASE_FILE).is_file():
        return p / BASE_FILE
    dirs = game_dirs()
    if name_or_path in dirs:
        return dirs[name_or_path] / BASE_FILE
    guess = did_you_mean(name_or_path, dirs)
    hint = f"; did you mean '{guess}'?" if guess else f"; known games: {', '.join(dirs) or 'none'}"
    raise ConfigError(f"unknown game '{name_or_path}'{hint}")


def overlay_files(base: Path) -> dict[str, Path]:
    """Overlays beside a base file, by their declared id."""
    out: dict[str, Path] = {}
    for f in sorted(base.parent.glob("*.yaml")):
        if f == base:
            continue
        try:
            head = _head(f)
        except Exception:  # noqa: BLE001 - a broken overlay is reported when it is used
            out.setdefault(f.stem, f)
            continue
        if "overlay" in head:
            out[str(head["overlay"])] = f
    return out


def find_overlay(base: Path, name_or_path: str) -> Path:
    """An overlay by id (one beside ``base``) or by path: a YAML file, or JSON (which YAML
    reads as it is)."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml", ".json"):
        if p.is_file():
            return p
        raise ConfigError(f"overlay file not found: {name_or_path}")
    known = overlay_files(base)
    if name_or_path in known:
        return known[name_or_path]
    guess = did_you_mean(name_or_path, known)
    hint = (
        f"; did you mean '{guess}'?" if guess else f"; known overlays: {', '.join(known) or 'none'}"
    )
    raise ConfigError(f"unknown overlay {echo(name_or_path)}{hint}")


def list_games() -> list[GameInfo]:
    out: list[GameInfo] = []
    for name, d in game_dirs().items():
        try:
            head = _head(d / BASE_FILE)
            low, high = _player_counts(head, d / BASE_FILE)
        except RulebookError as exc:
            out.append(GameInfo(name, name, str(d / BASE_FILE), 0, 0, fault=str(exc)))
            continue
        info = GameInfo(
            name=name,
            title=str(head.get("title", name)),
            path=str(d / BASE_FILE),
            min_players=low,
            max_players=high,
        )
        for oname, f in overlay_files(d / BASE_FILE).items():
            try:
                ohead = _head(f)
            except Exception:  # noqa: BLE001 - a broken overlay is reported when it is used
                ohead = {}
            overlay = OverlayInfo(oname, str(ohead.get("title", oname)), str(f))
            overlay.options = _options(_added_options(ohead.get("add")))
            info.overlays.append(overlay)
        info.options = _options(head.get("options"))
        out.append(info)
    return out


def _player_counts(head: NodeMap, path: Path) -> tuple[int, int]:
    """The ``min`` and ``max`` of a game's ``players:`` map (1 where one is not given); a
    RulebookError located at the value when it is not a map of whole numbers."""
    players = head.get("players") or {}
    counts = []
    for key in ("min", "max"):
        value = players.get(key, 1) if is_map(players) else None
        if isinstance(value, bool) or not isinstance(value, int):
            where = position_of(players, key) if is_map(players) else position_of(head, "players")
            _, line, column = where
            at = ":".join(str(x) for x in (path, line, column) if x is not None)
            raise RulebookError(
                f"{at}: `players:` must be a map of whole numbers (`min:`, `max:`); "
                f"`rulebook validate {path}` checks the whole file"
            )
        counts.append(value)
    return counts[0], counts[1]


def _added_options(add: Node) -> dict[Key, Node]:
    """The options an overlay's ``add`` section declares (``options/NAME:`` or ``options:``)."""
    if not isinstance(add, dict):
        return {}
    found = dict(add.get("options") or {}) if isinstance(add.get("options"), dict) else {}
    for key, value in add.items():
        if str(key).startswith("options/"):
            found[str(key)[len("options/") :]] = value
    return found


def _options(declared: Node) -> list[OptionInfo]:
    out = []
    for name, decl in (declared or {}).items() if isinstance(declared, dict) else ():
        decl = decl if isinstance(decl, dict) else {}
        out.append(
            OptionInfo(
                str(name),
                decl.get("default"),
                list(choices) if isinstance(choices := decl.get("choices"), list) else [],
                " ".join(str(decl.get("doc", "")).split()),
            )
        )
    return out
