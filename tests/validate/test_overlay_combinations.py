"""Validating a base also checks its overlays in combination: two expansions that are each
fine alone but change one entry differently are found before a game config asks for both."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.check import validate

BASE = Path(__file__).resolve().parent / "fixtures" / "base"

OVERLAY_B = """\
overlay: overlay-b
extends: vbase
title: Overlay B
replace:
  tables/start-points: {2: 5, 3: 4}
"""


def _folder(tmp_path: Path, second: str) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(BASE, folder)
    (folder / "overlay-b.yaml").write_text(second, encoding="utf-8")
    return folder


def test_two_overlays_changing_one_entry_conflict_when_combined(tmp_path):
    folder = _folder(tmp_path, OVERLAY_B)
    each_alone = validate([folder / "overlay-a.yaml", folder / "overlay-b.yaml"])
    assert each_alone.errors == 0, [d.format() for d in each_alone.diagnostics]
    report = validate([folder])
    conflicts = [d for d in report.diagnostics if d.code == "O008"]
    assert len(conflicts) == 1, [d.format() for d in report.diagnostics]
    assert Path(conflicts[0].file).name == "overlay-b.yaml" and conflicts[0].line == 5
    assert "overlay-a.yaml" in conflicts[0].message


def test_the_shipped_rulesets_validate_clean_in_every_combination():
    report = validate([Path(__file__).resolve().parents[2] / "rulesets"])
    assert report.errors == 0 and report.warnings == 0, [d.format() for d in report.diagnostics]
