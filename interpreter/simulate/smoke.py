"""``rulebook validate --smoke N``: play N random games of every allowed composition.

A rule hole often shows only in play: an end condition that cannot be reached with four
players, a table with no entry for one player count, an overlay that breaks a rule of the base.
For each base ruleset, each allowed player count and each overlay combination (none, each
overlay alone, the overlays that extend the base directly together), N games with random bots
and seeds 1..N are played; a game that fails (E001) or does not end (E003, its safety bound)
becomes a diagnostic at the rule, naming the composition and the seed that replays it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from interpreter.diagnostics.errors import Diagnostic, RulebookError, RulesError
from interpreter.load.catalog import overlay_files
from interpreter.model.limits import GameLimitError

__all__ = ["MAX_COMBINATIONS", "smoke_test"]

MAX_COMBINATIONS = 16  # overlay combinations played per base, as validate composes them


def smoke_test(bases: Iterable[str], games: int) -> tuple[list[Diagnostic], int]:
    """Play `games` random games per player count and overlay combination of each base.

    Returns the diagnostics of the games that failed or did not end, and how many were played.
    """
    out: list[Diagnostic] = []
    played = 0
    for base in bases:
        for overlays in _combinations(Path(base)):
            for players, game in _games(base, overlays):
                for seed in range(1, games + 1):
                    played += 1
                    fault = _play(game, players, seed)
                    if fault is not None:
                        out.append(_label(fault, base, players, overlays, seed))
    return out, played


def _combinations(base: Path) -> Iterator[tuple[str, ...]]:
    """No overlay, each overlay alone, then the direct ones together (at most 16 in all)."""
    from interpreter.load.yamlload import load_yaml_file

    try:
        ident = load_yaml_file(base).data.get("ruleset")
    except (RulebookError, AttributeError):
        return
    found = sorted(overlay_files(base).values())
    direct = []
    for path in found:
        try:
            if load_yaml_file(path).data.get("extends") == ident:
                direct.append(str(path))
        except (RulebookError, AttributeError):
            continue
    combos: list[tuple[str, ...]] = [()]
    combos += [(str(p),) for p in found]
    combos += [c for n in range(2, len(direct) + 1) for c in itertools.combinations(direct, n)]
    yield from combos[:MAX_COMBINATIONS]


def _games(base: str, overlays: Sequence[str]) -> Iterator[tuple[int, object]]:
    """The compiled game for every player count the composition allows (compose errors skip
    it: validation reports them already)."""
    from interpreter.engine.loader import load_game_and_data

    try:
        _, data = load_game_and_data(base, _first_count(base), overlays)
    except RulebookError:
        return
    counts = data.get("players") or {}
    for players in range(int(counts.get("min", 1)), int(counts.get("max", 1)) + 1):
        try:
            yield players, load_game_and_data(base, players, overlays)[0]
        except RulebookError:
            continue


def _first_count(base: str) -> int:
    from interpreter.load.yamlload import load_yaml_file

    counts = load_yaml_file(Path(base)).data.get("players") or {}
    return int(counts.get("min", 1))


def _play(game: object, players: int, seed: int) -> Diagnostic | None:
    from interpreter.bots import make_bot
    from interpreter.simulate.runner import LazyView

    bots = [make_bot("random", seat, seed) for seat in range(players)]
    try:
        state = game.new_state(seed)  # type: ignore[attr-defined]
        state.log = None
        while not state.is_over:
            seat = state.to_move
            state.apply(bots[seat].choose(LazyView(state, seat), state.legal_options()))
    except GameLimitError as e:
        return e.diagnostics[0]
    except RulesError as e:
        return e.diagnostics[0]
    return None


def _label(
    d: Diagnostic, base: str, players: int, overlays: Sequence[str], seed: int
) -> Diagnostic:
    names = [Path(o).stem for o in overlays]
    with_ = "".join(f" --with {o}" for o in overlays)
    what = f"smoke game, {players} players, overlays: {', '.join(names) or 'none'}, seed {seed}"
    hint = f"replay: rulebook play {base} --players {players}{with_} --seed {seed}"
    return replace(d, message=f"{what}: {d.message}", hint=hint)
