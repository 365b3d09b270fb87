"""A one-number rule change must change some golden playthrough: copy a ruleset, change one
cost, put the copy first on the search path (RULEBOOK_RULESETS) and compare."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from golden_games import HERE, REGENERATE, Combination, combinations, mismatch, transcript

ROOT = HERE.parents[1]


def _copy_with(tmp_path: Path, game: str, old: str, new: str) -> Path:
    dest = tmp_path / "rulesets" / game
    shutil.copytree(ROOT / "rulesets" / game, dest)
    ruleset = dest / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {game}'s ruleset"
    ruleset.write_text(text.replace(old, new), encoding="utf-8")
    return dest.parent


def _pick(game: str, players: int) -> Combination:
    return next(
        c for c in combinations() if c.game == game and c.players == players and not c.overlays
    )


CHANGES = [
    # Puerto Rico: the small indigo plant costs 2 instead of 1
    ("puerto-rico", 3, "small-indigo-plant: {cost: 1,", "small-indigo-plant: {cost: 2,"),
    # San Juan: the tobacco storage costs 4 instead of 3
    (
        "san-juan",
        2,
        "tobacco-storage: {kind: production, cost: 3,",
        "tobacco-storage: {kind: production, cost: 4,",
    ),
]


@pytest.mark.parametrize(("game", "players", "old", "new"), CHANGES, ids=["pr", "sj"])
def test_a_changed_cost_shows_as_a_golden_diff(tmp_path, monkeypatch, game, players, old, new):
    combo = _pick(game, players)
    golden = combo.path.read_text(encoding="utf-8")
    monkeypatch.setenv("RULEBOOK_RULESETS", str(_copy_with(tmp_path, game, old, old)))
    assert mismatch(combo, golden, transcript(combo)) is None  # an unchanged copy plays the same
    monkeypatch.setenv("RULEBOOK_RULESETS", str(_copy_with(tmp_path / "changed", game, old, new)))
    problem = mismatch(combo, golden, transcript(combo))
    assert problem is not None
    lines = problem.splitlines()
    assert lines[0].startswith(f"the game `{combo.command}` no longer plays as tests/golden/")
    assert "--- golden (expected)" in lines and "+++ now (actual)" in lines
    assert any(x.startswith("-  ") for x in lines) and any(x.startswith("+  ") for x in lines)
    assert lines[-1].endswith(REGENERATE)
    print(problem)
