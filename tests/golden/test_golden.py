"""Replay every golden playthrough and compare it with its transcript in tests/golden/.

A failure shows the first differing lines with context. When the change in play is intended,
regenerate the transcripts with `python tests/golden/regenerate.py` (docs/golden.md).
"""

from __future__ import annotations

import pytest
from golden_games import HERE, Combination, combinations, mismatch, transcript

COMBINATIONS = list(combinations())


@pytest.mark.parametrize("combo", COMBINATIONS, ids=lambda c: f"{c.game}/{c.path.stem}")
def test_golden_playthrough(combo: Combination) -> None:
    expected = combo.path.read_text(encoding="utf-8") if combo.path.exists() else None
    problem = mismatch(combo, expected, transcript(combo))
    assert problem is None, problem


def test_every_combination_and_no_stray_transcripts() -> None:
    wanted = {c.path for c in COMBINATIONS}
    present = set(HERE.glob("*/*.txt"))
    assert present == wanted, (
        f"missing: {sorted(map(str, wanted - present))}; "
        f"stray (no combination plays them): {sorted(map(str, present - wanted))}"
    )
    # Puerto Rico 2-5 x 4 overlay sets, San Juan 2-4 x 3
    assert len(wanted) == 4 * 4 + 3 * 3


def test_transcripts_stay_small() -> None:
    total = sum(p.stat().st_size for p in HERE.glob("*/*.txt"))
    assert total < 1_000_000, f"tests/golden/ holds {total} bytes of transcripts"
