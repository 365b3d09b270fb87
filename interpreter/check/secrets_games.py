"""Which games ``rulebook validate --secrets N`` plays, and the entry that plays them.

For the files given (found as ``validate`` finds them): a base ruleset is played alone and with
each overlay beside it (with the overlays that one extends); every overlay given on the base
and the overlays it extends (:class:`~interpreter.compose.finding.OverlayFinder`: an overlay of
an expansion is played with the expansion, and the files given are found first, so a house rule
named beside its base is played on that base); a game config as it says (its game, overlays,
player count and options). Each composition is played at the fewest and the most players it
allows (a config: its own count), N games each, seeds S..S+N-1. A file or composition that
cannot be played is said so (:attr:`SecretsReport.unplayed`), never silently left out.
Compositions are shared out over worker processes as ``validate`` shares its files.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from interpreter.check.secrets import GameRun, SecretsFinder, check_game
from interpreter.check.secrets_explain import named_pointer
from interpreter.check.workers import available_cores, balance, env_jobs, run_all
from interpreter.compose.finding import OverlayFinder
from interpreter.diagnostics.errors import Diagnostic, RulebookError, RulesError
from interpreter.load import catalog
from interpreter.load.discovery import classify, discover, read_head
from interpreter.ruleset.gameconfig import GameConfig
from interpreter.ruleset.header import Header

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
    also: tuple[str, ...] = ()  # files named beside it that it is found with (its base)

    @property
    def rerun(self) -> str:
        """The command that checks this composition again (less --secrets and --seed)."""
        files = [_shown(f) or f for f in (*self.also, self.given or self.base)]
        return "rulebook validate " + " ".join(files)

    @property
    def label(self) -> str:
        names = ", ".join(Path(o).stem for o in self.overlays) or "none"
        return f"{self.players} players, overlays: {names}"

    def describe(self) -> str:
        """The composition named by its files (for a line saying it was not played)."""
        files = " + ".join(_shown(p) or p for p in (self.base, *self.overlays))
        return f"{files} at {self.players} players"


@dataclass
class SecretsReport:
    """What a leak check found, and how much it played."""

    diagnostics: list[Diagnostic]
    compositions: int = 0
    # "FILE-OR-COMPOSITION: why", each one the check could not play
    unplayed: list[str] = field(default_factory=list)
    # with --explain: each finding met at that decision, and its two worlds side by side
    explained: list[tuple[Diagnostic, str]] = field(default_factory=list)
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
    keyword arguments for ``Game.new_state`` (e.g. ``{"take_forced": False}`` checks a
    game that asks every decision, one with one legal option too). Raises
    :class:`~interpreter.load.discovery.PathError` for a path that does not exist.
    """
    files = discover(paths)
    kinds = {}
    for path in files:
        head = read_head(path)
        kinds[path] = classify(head) if head is not None else "skipped"
    unplayed: list[str] = []
    comps = compositions(files, kinds, unplayed)
    report = play_compositions(comps, games, seed, samples, jobs, new_state, every_seat)
    report.unplayed[:0] = unplayed
    return report


def compositions(
    files: list[str], kinds: Mapping[str, str], unplayed: list[str] | None = None
) -> list[Composition]:
    """Every composition to play for these files (each once, in the files' order); a file
    whose compositions cannot be found is added to `unplayed`, with why."""
    out: dict[tuple[Any, ...], Composition] = {}
    rules = [p for p in files if kinds.get(p) in ("ruleset", "overlay")]
    finder = OverlayFinder(rules)
    named = {_real(p): p for p in rules}

    def add(
        base: str | Path,
        overlays: tuple[str, ...],
        given: str,
        counts: Any = None,
        also: tuple[str, ...] = (),
    ) -> None:
        for players in counts or _counts(Path(base), overlays):
            c = Composition(str(base), overlays, players, given=given, also=also)
            key = (_real(c.base), tuple(_real(o) for o in overlays), players)
            out.setdefault(key, c)

    for path in files:
        kind = kinds.get(path)
        try:
            if kind == "ruleset":
                add(path, (), path)
                for overlay in sorted(catalog.overlay_files(Path(path)).values()):
                    _stacked(finder, str(overlay), path, add, unplayed, named)
            elif kind == "overlay":
                _stacked(finder, path, path, add, unplayed, named)
            elif kind == "config":
                _config(path, add)
        except (RulebookError, OSError, ValueError, TypeError, AttributeError) as e:
            if unplayed is not None:
                unplayed.append(f"{_shown(path)}: {_why(e)}")
    return list(out.values())


def _stacked(
    finder: OverlayFinder,
    overlay: str,
    given: str,
    add: Any,
    unplayed: list[str] | None,
    named: Mapping[str, str],
) -> None:
    """Add `overlay` on its base, with the overlays it extends (an expansion's house rule is
    played with the expansion); `named`: the rule files given, by real path (a base among
    them is named again in the command that replays the overlay)."""
    try:
        stack = finder.stack(overlay)
        base = named.get(_real(stack.base))
        also = (base,) if base is not None and _real(base) != _real(given) else ()
        add(stack.base, stack.overlays, given, None, also)
    except (RulebookError, OSError, ValueError, TypeError, AttributeError) as e:
        if unplayed is not None:
            unplayed.append(f"{_shown(overlay)}: {_why(e)}")


def _why(e: BaseException) -> str:
    """One line saying why a file or composition is not played."""
    if isinstance(e, RulesError) and e.diagnostics:
        d = e.diagnostics[0]
        at = ":".join(str(x) for x in (_shown(d.file), d.line, d.column) if x)
        return f"{d.code} at {at}: {d.message}" if at else f"{d.code}: {d.message}"
    return str(e) or type(e).__name__


def _real(path: str) -> str:
    return os.path.realpath(path)


def _counts(base: Path, overlays: tuple[str, ...]) -> list[int]:
    from interpreter.compose.rulefiles import load_rules_data

    players = Header.from_data(load_rules_data(str(base), overlays)[0]).players
    return sorted({players.min, players.max})


def _config(path: str, add: Any) -> None:
    from interpreter.load.yamlload import load_yaml_file

    config = GameConfig.from_node(load_yaml_file(Path(path)).data)
    near = Path(path).parent / config.game
    base = catalog.find_game(str(near) if near.exists() else config.game)
    overlays = tuple(
        str(catalog.find_overlay(base, _near(path, str(o.value)))) for o in config.overlays
    )
    players = config.players.value if config.players is not None else None
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
    explain: int | None = None,
) -> SecretsReport:
    """Check every composition (in worker processes when there are several and cores);
    with `explain`, the findings met at that decision come with their two worlds side by side
    (:attr:`SecretsReport.explained`)."""
    want = jobs or env_jobs() or available_cores()
    seeds = list(range(seed, seed + games))
    numbered = list(enumerate(comps))
    parts = balance([(c, _cost(c[1])) for c in numbered], want) if want > 1 else [numbered]
    results = run_all(
        lambda part: _play(part, seeds, samples, new_state or {}, every_seat, explain), parts
    )
    report = SecretsReport([], compositions=len(comps))
    seen: set[tuple[Any, ...]] = set()
    found: list[tuple[int, list[tuple[Diagnostic, str]]]] = []
    unplayed: list[tuple[int, str]] = []
    for per_composition, counts, not_loaded in results:
        unplayed.extend(not_loaded)
        report.games += counts[0]
        report.decisions += counts[1]
        report.samples += counts[2]
        found.extend(per_composition)
    # a leak met in several compositions is reported as the first composition met it, however
    # the compositions were shared among the workers (the report is the same for any --jobs)
    for _i, diags in sorted(found, key=lambda item: item[0]):
        for d, side_by_side in diags:
            real = _real(d.file) if d.file else None
            key = (d.code, real, d.line, d.column, d.json_path if d.file is None else "")
            if key not in seen:
                seen.add(key)
                shown = replace(d, file=_shown(d.file))
                report.diagnostics.append(shown)
                if side_by_side:
                    report.explained.append((shown, side_by_side))
    report.diagnostics.sort(key=Diagnostic.sort_key)
    report.explained.sort(key=lambda item: item[0].sort_key())
    report.unplayed = [why for _i, why in sorted(unplayed)]
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
    explain: int | None,
) -> tuple[
    list[tuple[int, list[tuple[Diagnostic, str]]]], tuple[int, int, int], list[tuple[int, str]]
]:
    """Each composition of ``part`` (numbered) played from every seed: the leaks each found,
    by its number (each with its two worlds side by side where `explain` asked, else ""),
    the games, decisions and samples checked in all, and the compositions that could not be
    loaded (with why)."""
    from interpreter.engine.loader import load_game_and_data

    found: list[tuple[int, list[tuple[Diagnostic, str]]]] = []
    counts = [0, 0, 0]
    unplayed: list[tuple[int, str]] = []
    for i, c in part:
        try:
            game, data = load_game_and_data(c.base, c.players, c.overlays, dict(c.options))
        except RulebookError as e:
            unplayed.append((i, f"{c.describe()}: {_why(e)}"))
            continue
        run = GameRun(game, c.label, c.rerun, data, dict(new_state), explain)
        out = SecretsFinder()
        for s in seeds:
            check_game(run, s, samples, out, every_seat)
        named = []
        for key, d in sorted(out.found.items(), key=lambda item: item[1].sort_key()):
            side_by_side = out.explained.get(key, "")
            if side_by_side:
                side_by_side = f"{_heading(d, data)}\n{side_by_side}"
            named.append((replace(d, json_path=named_pointer(data, d.json_path)), side_by_side))
        found.append((i, named))
        counts = [counts[0] + out.games, counts[1] + out.decisions, counts[2] + out.samples]
    return found, (counts[0], counts[1], counts[2]), unplayed


def _heading(d: Diagnostic, data: Any) -> str:
    """The first line of a finding's side-by-side view: its code, place and rule by name."""
    at = ":".join(str(x) for x in (_shown(d.file), d.line, d.column) if x)
    return f"{d.code} at {at} ({named_pointer(data, d.json_path) or 'no rule text'})"
