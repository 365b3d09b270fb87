"""Which games ``rulebook validate --secrets N`` plays, and the entry that plays them.

For the files given (found as ``validate`` finds them): a base ruleset is played alone and with
each overlay beside it; an overlay found elsewhere (a house rule) on the base it extends; a
game config as it says (its game, overlays, player count and options). Each composition is
played at the fewest and the most players it allows (a config: its own count), N games each,
seeds S..S+N-1. A composition that does not load is left out: ``validate`` reports why.
Compositions are shared out over worker processes as ``validate`` shares its files.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from interpreter.check.files import classify, discover, read_head
from interpreter.check.secrets import GameRun, SecretsFinder, check_game
from interpreter.check.workers import available_cores, balance, env_jobs, run_all
from interpreter.diagnostics.errors import Diagnostic, RulebookError
from interpreter.load import catalog

__all__ = ["Composition", "SecretsReport", "check_secrets", "compositions"]

SAMPLES = 1  # worlds drawn per seat and decision by default (see docs/validate.md)


@dataclass(frozen=True)
class Composition:
    """One way to play a game: base file, overlay files, player count, options."""

    base: str
    overlays: tuple[str, ...]
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    given: str = ""  # the file named on the command line this composition comes from

    @property
    def label(self) -> str:
        names = ", ".join(Path(o).stem for o in self.overlays) or "none"
        return f"{self.players} players, overlays: {names}"


@dataclass
class SecretsReport:
    """What a leak check found, and how much it played."""

    diagnostics: list[Diagnostic]
    compositions: int = 0
    games: int = 0
    decisions: int = 0
    samples: int = 0
    sources: dict[str, str] = field(default_factory=dict)


def check_secrets(
    paths: Iterable[str | os.PathLike[str]],
    games: int = 20,
    *,
    seed: int = 1,
    samples: int = SAMPLES,
    jobs: int | None = None,
    new_state: Mapping[str, Any] | None = None,
    every_seat: bool = False,
) -> SecretsReport:
    """Play `games` random games of every composition of the rule files at `paths` and report
    what a seat is told that depends on what it may not see (interpreter/check/secrets.py).

    `samples`: worlds drawn per seat checked at a decision; `every_seat`: every seat and the
    spectator at every decision (else one of them, in turn, at each decision). `new_state`:
    keyword arguments for ``Game.new_state`` (e.g. ``{"ask_hidden_forced": False}`` checks
    the engine's earlier policy for forced moves). Raises
    :class:`~interpreter.check.files.PathError` for a path that does not exist.
    """
    files = discover(paths)
    kinds = {}
    for path in files:
        head = read_head(path)
        kinds[path] = classify(head) if head is not None else "skipped"
    comps = compositions(files, kinds)
    return play_compositions(comps, games, seed, samples, jobs, new_state, every_seat)


def compositions(files: list[str], kinds: Mapping[str, str]) -> list[Composition]:
    """Every composition to play for these files (each once, in the files' order)."""
    out: dict[tuple[Any, ...], Composition] = {}

    def add(base: Path, overlays: tuple[str, ...], given: str, counts: Any = None) -> None:
        for players in counts or _counts(base, overlays):
            c = Composition(str(base), overlays, players, given=given)
            key = (_real(c.base), tuple(_real(o) for o in overlays), players)
            out.setdefault(key, c)

    for path in files:
        kind = kinds.get(path)
        try:
            if kind == "ruleset":
                base = Path(path)
                add(base, (), path)
                for overlay in sorted(catalog.overlay_files(base).values()):
                    add(base, (str(overlay),), path)
            elif kind == "overlay":
                base = _base_of(Path(path))
                if base is not None:
                    add(base, (path,), path)
            elif kind == "config":
                _config(path, add)
        except (RulebookError, OSError, ValueError, TypeError, AttributeError):
            continue  # validate reports why this file does not load
    return list(out.values())


def _real(path: str) -> str:
    return os.path.realpath(path)


def _counts(base: Path, overlays: tuple[str, ...]) -> list[int]:
    from interpreter.engine.loader import load_rules_data

    data = load_rules_data(str(base), overlays)[0]
    pl = data.get("players") or {}
    lo, hi = int(pl.get("min", 1)), int(pl.get("max", 1))
    return sorted({lo, hi})


def _base_of(overlay: Path) -> Path | None:
    """The base file an overlay extends: beside it, else an installed game of that id."""
    from interpreter.load.yamlload import load_yaml_file

    extends = load_yaml_file(overlay).data.get("extends")
    if not isinstance(extends, str):
        return None
    beside = overlay.parent / catalog.BASE_FILE
    if beside.is_file():
        head = read_head(str(beside)) or ""
        if f"ruleset: {extends}" in head:
            return beside
    return catalog.find_game(extends)


def _config(path: str, add: Any) -> None:
    from interpreter.load.yamlload import load_yaml_file

    data = load_yaml_file(Path(path)).data
    game = str(data.get("game"))
    near = Path(path).parent / game
    base = catalog.find_game(str(near) if near.exists() else game)
    overlays = tuple(
        str(catalog.find_overlay(base, _near(path, str(o)))) for o in data.get("with") or ()
    )
    players = data.get("players")
    add(base, overlays, path, [int(players)] if isinstance(players, int) else None)


def _near(config: str, name: str) -> str:
    near = Path(config).parent / name
    return str(near) if near.suffix in (".yaml", ".yml") and near.is_file() else name


def play_compositions(
    comps: list[Composition],
    games: int,
    seed: int,
    samples: int,
    jobs: int | None = None,
    new_state: Mapping[str, Any] | None = None,
    every_seat: bool = False,
) -> SecretsReport:
    """Check every composition (in worker processes when there are several and cores)."""
    want = jobs or env_jobs() or available_cores()
    seeds = list(range(seed, seed + games))
    numbered = list(enumerate(comps))
    parts = balance([(c, _cost(c[1])) for c in numbered], want) if want > 1 else [numbered]
    results = run_all(lambda part: _play(part, seeds, samples, new_state or {}, every_seat), parts)
    report = SecretsReport([], compositions=len(comps))
    seen: set[tuple[Any, ...]] = set()
    found: list[tuple[int, list[Diagnostic]]] = []
    for per_composition, counts in results:
        report.games += counts[0]
        report.decisions += counts[1]
        report.samples += counts[2]
        found.extend(per_composition)
    # a leak met in several compositions is reported as the first composition met it, however
    # the compositions were shared among the workers (the report is the same for any --jobs)
    for _i, diags in sorted(found, key=lambda item: item[0]):
        for d in diags:
            real = _real(d.file) if d.file else None
            key = (d.code, real, d.line, d.column, d.json_path if d.file is None else "")
            if key not in seen:
                seen.add(key)
                report.diagnostics.append(replace(d, file=_shown(d.file)))
    report.diagnostics.sort(key=Diagnostic.sort_key)
    return report


def _shown(path: str | None) -> str | None:
    """A file as the user would name it: relative to the working folder when inside it."""
    if not path:
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if rel.startswith("..") else rel


def _cost(c: Composition) -> float:
    """A guess of a composition's share of the work: seats to check, and bigger files play
    longer games."""
    try:
        size = os.path.getsize(c.base)
    except OSError:
        size = 1
    return (c.players + 1) * size


def _play(
    part: list[tuple[int, Composition]],
    seeds: list[int],
    samples: int,
    new_state: Mapping[str, Any],
    every_seat: bool,
) -> tuple[list[tuple[int, list[Diagnostic]]], tuple[int, int, int]]:
    """Each composition of ``part`` (numbered) played from every seed: the leaks each found,
    by its number, and the games, decisions and samples checked in all."""
    from interpreter.engine.loader import load_game_and_data

    found: list[tuple[int, list[Diagnostic]]] = []
    counts = [0, 0, 0]
    for i, c in part:
        try:
            game, data = load_game_and_data(c.base, c.players, c.overlays, dict(c.options))
        except RulebookError:
            continue
        rerun = f"rulebook validate {c.given or c.base}"
        run = GameRun(game, c.label, rerun, data, dict(new_state))
        out = SecretsFinder()
        for s in seeds:
            check_game(run, s, samples, out, every_seat)
        found.append((i, out.diagnostics()))
        counts = [counts[0] + out.games, counts[1] + out.decisions, counts[2] + out.samples]
    return found, (counts[0], counts[1], counts[2])
