"""Gating: a newly fitted model replaces the kept one only if it holds its own against it.

Expert iteration can go backwards: a run's last iteration may play worse than an earlier
one (the fitting chases a replay buffer that moves, a short run of unlucky games skews it).
With gating (a match the new model must win before it is kept) the model file always holds the
best model met so far: after each fitting the new model (the *candidate*) plays a seat-rotated
match against the kept one, the candidate in one seat and the kept model in every other, each
playing its policy alone (``learned:FILE``, fast). The candidate is kept when its win share is
at least the even share (1/N for N seats); otherwise the kept model stays, teaches the next
iteration's self-play, and the network goes on learning from where the candidate left it.
"""

from __future__ import annotations

import concurrent.futures as cf
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.simulate.batch import SimSpec, run_chunk

__all__ = ["GateResult", "candidate_path", "gate_match"]


@dataclass(frozen=True)
class GateResult:
    """The candidate's seat-rotated win share over ``games`` games against the kept model,
    the even share it had to reach, and whether it did."""

    games: int
    share: float
    even: float

    @property
    def kept(self) -> bool:
        return self.share >= self.even


def candidate_path(out: str) -> str:
    """Where the last fitted model is written when gating: beside ``out``, with
    ``.candidate`` before its suffix (``pr.npz`` -> ``pr.candidate.npz``)."""
    path = Path(out)
    return str(path.with_name(f"{path.stem}.candidate{path.suffix or '.npz'}"))


def gate_match(
    pool: cf.Executor | None,
    game: str,
    players: int,
    overlays: tuple[str, ...],
    options: tuple[tuple[str, Any], ...],
    candidate: str,
    kept: str,
    games: int,
    seed: int,
) -> GateResult:
    """Play ``games`` (rounded up to whole seat rotations) between the two model files, here
    or on ``pool``; the candidate's win share (a shared win counts its share)."""
    games = -(-games // players) * players
    spec = SimSpec(
        game=game,
        players=players,
        seats=(f"learned:{candidate}", *[f"learned:{kept}"] * (players - 1)),
        overlays=overlays,
        options=options,
        seed=seed,
        games=games,
        rotate=True,
    )
    if pool is None:
        records = run_chunk(spec, range(games))
    else:
        futures = [pool.submit(run_chunk, spec, [i]) for i in range(games)]
        records = [r for f in futures for r in f.result()]
    won = 0.0
    for r in records:
        seat = r["index"] % players  # the candidate's seat after the rotation
        if seat in r["winners"]:
            won += 1.0 / len(r["winners"])
    return GateResult(games=len(records), share=won / len(records), even=1.0 / players)
