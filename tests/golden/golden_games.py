"""Golden playthroughs: one fixed-seed game between the heuristic bots for every game x
expansion combination x player count, written as the transcript `rulebook play` prints (the
round-by-round log, then the score table).

A transcript is the sum of every rule that game touched, so a changed number shows up as a
changed line. ``python tests/golden/regenerate.py`` rewrites them after an intended rule change
(docs/golden.md).
"""

from __future__ import annotations

import difflib
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REGENERATE = "python tests/golden/regenerate.py"
SEED = 1  # one game per combination; any fixed seed would do


@dataclass(frozen=True)
class Combination:
    game: str
    players: int
    overlays: tuple[str, ...]
    bot: str

    @property
    def path(self) -> Path:
        """tests/golden/<game>/<players>p-<overlays or base>.txt"""
        return HERE / self.game / f"{self.players}p-{'+'.join(self.overlays) or 'base'}.txt"

    @property
    def command(self) -> str:
        """The command that prints the same transcript."""
        extra = f" --with {','.join(self.overlays)}" if self.overlays else ""
        return (
            f"rulebook play {self.game} --players {self.players} --seed {SEED}"
            f"{extra} --bots {self.bot}"
        )


def combinations() -> Iterator[Combination]:
    """Puerto Rico 2-5 players x {base, new buildings, nobles, both}; San Juan 2-4 players x
    {base, new buildings, setup variation}."""
    pr_overlays: Sequence[tuple[str, ...]] = ((), ("new-buildings",), ("nobles",))
    for players in range(2, 6):
        for overlays in (*pr_overlays, ("new-buildings", "nobles")):
            yield Combination("puerto-rico", players, overlays, "pr-heuristic")
    for players in range(2, 5):
        for overlays in ((), ("new-buildings",), ("setup-variation",)):
            yield Combination("san-juan", players, overlays, "sj-heuristic")


def transcript(combo: Combination) -> str:
    """What `rulebook play` prints for this combination, after a `$ command` line."""
    from interpreter.cli.config import resolve_config
    from interpreter.cli.logfmt import Output
    from interpreter.cli.play import play

    cfg = resolve_config(
        game=combo.game,
        players=combo.players,
        overlays=combo.overlays,
        seed=SEED,
        bots=[combo.bot],
    )
    out = io.StringIO()
    play(cfg, Output(as_json=False, quiet=False, out=out))
    return f"$ {combo.command}\n{out.getvalue()}"


def first_difference(expected: str, actual: str, context: int = 3, hunks: int = 2) -> str:
    """The first differing lines of two transcripts, as a unified diff with some context (the
    first hunks only: after the first change a game usually goes on differently)."""
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            "golden (expected)",
            "now (actual)",
            n=context,
            lineterm="",
        )
    )
    out: list[str] = []
    seen = 0
    for line in diff:
        if line.startswith("@@"):
            seen += 1
            if seen > hunks:
                out.append("... (more differences follow)")
                break
        out.append(line)
    return "\n".join(out)


def mismatch(combo: Combination, expected: str | None, actual: str) -> str | None:
    """None when the transcript is as recorded, else what to show the rule author."""
    if expected == actual:
        return None
    name = f"tests/golden/{combo.path.relative_to(HERE)}"
    if expected is None:
        return f"{name} is missing; write it with: {REGENERATE}"
    return (
        f"the game `{combo.command}` no longer plays as {name} records:\n"
        f"{first_difference(expected, actual)}\n"
        f"If this change in play is intended, regenerate the transcripts: {REGENERATE}"
    )
