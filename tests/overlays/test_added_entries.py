"""An entry an overlay adds is checked at the overlay's line: a misspelt attribute (`cots: 7`
for `cost`) is R007 there with "did you mean 'cost'?", once, as the same slip in a `patch` is,
not a D010 at each text of the base ruleset that reads `cost`; an attribute it forgets is D010
at its key. Through the real CLI, on overlays of the shipped games."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game

from .house import write_overlay

ROOT = Path(__file__).resolve().parents[2]

TOWER = """\
add:
  catalogs/buildings/entries/beacon-tower:
    {cost}: 7
    vp: 3
    column: 3
    copies: 2
"""


def _validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", *args],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), timeout=300,
    )  # fmt: skip


def _errors(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in run.stdout.splitlines() if "error[" in line]


def test_a_misspelt_attribute_of_an_added_entry_is_one_error_at_the_overlay(tmp_path):
    path = write_overlay(tmp_path, "beacon-tower", TOWER.format(cost="cots"))
    run = _validate(path)
    assert run.returncode == 1
    (error,) = _errors(run)
    assert error.startswith(f"{path}:6:5: error[R007]: "), run.stdout
    assert "'beacon-tower' has no 'cost'" in error and "did you mean 'cost'?" in error
    assert "ruleset.yaml" not in run.stdout and "D010" not in run.stdout
    assert "defaults" not in error  # the fix is the name, not a default for every building
    fixed = write_overlay(tmp_path, "fixed", TOWER.format(cost="cost"))
    assert _validate("--strict", fixed).returncode == 0


def test_the_same_slip_in_a_san_juan_card_is_one_error_too(tmp_path):
    body = "add:\n  catalogs/cards/entries/cistern:\n    cots: 3\n    vp: 2\n    copies: 2\n"
    path = write_overlay(tmp_path, "cistern", body, extends="san-juan")
    run = _validate(path)
    (error,) = _errors(run)
    assert error.startswith(f"{path}:6:5: error[R007]: "), run.stdout
    assert "did you mean 'cost'?" in error
    with pytest.raises(RulesError) as err:
        load_game("san-juan", 3, [path])
    assert [(d.code, d.line) for d in err.value.diagnostics] == [("R007", 6)]


def test_a_forgotten_attribute_of_an_added_entry_is_d010_at_its_key(tmp_path):
    path = write_overlay(
        tmp_path, "no-cost", "add:\n  catalogs/buildings/entries/beacon-tower: {vp: 3, column: 3}\n"
    )
    run = _validate(path)
    (error,) = _errors(run)
    head = f"{path}:5:3: error[D010]: 'beacon-tower' has no 'copies' or 'cost'"
    assert error.startswith(head), run.stdout
    assert "give 'beacon-tower' 'copies:' and 'cost:'" in error
    assert "ruleset.yaml" not in run.stdout
