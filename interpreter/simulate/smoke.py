"""``rulebook validate --smoke N``: play N random games of every allowed composition.

A rule hole often shows only in play: an end condition that cannot be reached with four
players, a table with no entry for one player count, an overlay that breaks a rule of the base.
For each base ruleset, each allowed player count and each overlay combination (none, each
overlay alone, the overlays that extend the base directly together), N games with random bots
and seeds 1..N are played; a game that fails (E001) or does not end (E003, its safety bound)
becomes a diagnostic at the rule, naming the composition and the seed that replays it.

An overlay file (a house rule) is played in every stack it may join: over its base (with the
overlays it extends), and with each set of the game's own overlays beside the base (its
expansions), itself last. A stack that does not load is *refused*
(:class:`~interpreter.diagnostics.refused.Refused`, as ``validate`` says it of the stacks it
checks): at the overlay's line and at the other file's line it clashes with.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from interpreter.compose.stacking import MAX_COMBINATIONS, stacks_beside
from interpreter.diagnostics.errors import Diagnostic, RulebookError, RulesError
from interpreter.diagnostics.refused import Refused
from interpreter.load.catalog import overlay_files
from interpreter.model.limits import GameLimitError
from interpreter.ruleset.header import Header, read_header

if TYPE_CHECKING:  # imported where first used: a smoke run of the catalog loads them late
    from interpreter.compose.finding import OverlayFinder
    from interpreter.engine.game import Game

__all__ = ["SmokeReport", "smoke_overlays", "smoke_test"]


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
    try:
        ident = read_header(base).id
    except RulebookError:
        return
    found = sorted(overlay_files(base).values())
    direct = []
    for path in found:
        try:
            if read_header(path).extends == ident:
                direct.append(str(path))
        except RulebookError:
            continue
    combos: list[tuple[str, ...]] = [()]
    combos += [(str(p),) for p in found]
    combos += [c for n in range(2, len(direct) + 1) for c in itertools.combinations(direct, n)]
    yield from combos[:MAX_COMBINATIONS]


def _games(base: str, overlays: Sequence[str]) -> Iterator[tuple[int, object]]:
    """The compiled game for every player count the composition allows (compose errors skip
    it: validation reports them already)."""
    from interpreter.engine.loader import load_game

    try:
        first = load_game(base, _first_count(base), overlays)
    except RulebookError:
        return
    for players in first.ruleset.header.players.counts():
        try:
            yield players, load_game(base, players, overlays)
        except RulebookError:
            continue


def _first_count(base: str) -> int:
    return read_header(base).players.min


def _play(game: object, players: int, seed: int) -> Diagnostic | None:
    from interpreter.bots import make_bot
    from interpreter.simulate.batch import LazyView

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


# -------------------------------------------------------------------------- overlay files


@dataclass
class SmokeReport:
    """What playing the stacks of overlay files found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    played: int = 0
    stacks: int = 0
    refused: list[Refused] = field(default_factory=list)


def smoke_overlays(
    overlays: Iterable[str], games: int, skip_bases: Iterable[str] = ()
) -> SmokeReport:
    """Play `games` random games per player count of every stack each overlay file may join.

    An overlay whose base is in `skip_bases` is left out: that base's own smoke run plays it
    (alone and with the others beside it). A stack that does not load joins ``refused``.
    """
    from interpreter.compose.finding import OverlayFinder

    overlays, skip_bases = list(overlays), list(skip_bases)
    skip = {os.path.realpath(b) for b in skip_bases}
    finder = OverlayFinder([*skip_bases, *overlays])
    report = SmokeReport()
    for overlay in overlays:
        found = _stack_of(finder, overlay)
        if found is None or os.path.realpath(found[0]) in skip:
            continue
        base, chain = found
        for stack in _stacks(base, chain):
            report.stacks += 1
            games_of, refusal = _loaded(str(base), stack)
            if refusal:
                report.refused.append(Refused(str(base), stack, refusal, _ruleset_id(str(base))))
                continue
            for players, game in games_of:
                for seed in range(1, games + 1):
                    report.played += 1
                    fault = _play(game, players, seed)
                    if fault is not None:
                        report.diagnostics.append(_label(fault, str(base), players, stack, seed))
    return report


def _stack_of(finder: OverlayFinder, overlay: str) -> tuple[Path, tuple[str, ...]] | None:
    """The base an overlay is laid on and its chain: the overlays it extends (through their
    own ``extends``, found as :class:`~interpreter.compose.finding.OverlayFinder` finds them),
    in the order they compose, ending with itself. None when the chain does not lead to a
    base (validate reports why)."""
    try:
        stack = finder.stack(overlay)
    except RulebookError:
        return None
    return Path(stack.base), stack.overlays


def _stacks(base: Path, chain: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The chain alone, then with each set of the game's own overlays (beside the base) that
    are not in it, as validate composes them (compose/stacking.py). A set holding an overlay
    that extends one left out of the stack is no stack of the game."""
    mine = {os.path.realpath(p) for p in chain}
    others = [
        str(p) for _, p in sorted(overlay_files(base).items()) if os.path.realpath(p) not in mine
    ]
    known = {_ident(str(base), "ruleset"), *(_ident(p, "overlay") for p in chain[:-1])}
    stacks = stacks_beside(
        chain, others, known, lambda p: _extends(Path(p)), _overlay_id, smallest=0
    )
    return [tuple(stack) for stack in stacks]


def _overlay_id(path: str) -> str:
    return _ident(path, "overlay")


def _loaded(base: str, stack: Sequence[str]) -> tuple[list[tuple[int, Game]], list[Diagnostic]]:
    """The compiled game for every player count a stack allows, or why it does not load."""
    from interpreter.engine.loader import load_game

    try:
        first = load_game(base, _first_count(base), stack)
    except RulesError as e:
        return [], list(e.diagnostics)
    except RulebookError as e:
        return [], [Diagnostic("E001", str(e), file=stack[-1])]
    out: list[tuple[int, Game]] = []
    for players in first.ruleset.header.players.counts():
        try:
            out.append((players, load_game(base, players, stack)))
        except RulesError as e:
            return [], list(e.diagnostics)
        except RulebookError as e:
            return [], [Diagnostic("E001", str(e), file=stack[-1])]
    return out, []


def _extends(path: Path) -> str | None:
    return _header(path).extends


def _ident(path: str, kind: str) -> str:
    """The id a rule file declares as ``kind`` ("ruleset" or "overlay"), else its file name."""
    head = _header(Path(path))
    return head.id if head.kind == kind and head.id else Path(path).stem


def _header(path: Path) -> Header:
    try:
        return read_header(path)
    except RulebookError:
        return Header()


def _ruleset_id(path: str) -> str:
    """The id a base declares, or its file's name when it cannot be read or is no ruleset."""
    try:
        header = read_header(path)
    except RulebookError:
        return Path(path).stem
    return header.id if header.kind == "ruleset" else Path(path).stem
