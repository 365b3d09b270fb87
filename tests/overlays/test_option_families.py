"""A house rule that changes when an option is offered (an `if:` of `tile:quarry`) warns
(O014) where a shipped expansion of its game offers an option of the same id pattern with its
`if:` unchanged (The New Buildings' library offers `tile:quarry` in a step of its own), naming
the expansion's line and the companion overlay to write; `validate` of the house rule alone
says it, `--strict` fails on it, and the companion given beside it settles it. A change that
leaves the `if:` alone does not warn. Through the real CLI on the shipped Puerto Rico."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .house import write_overlay

ROOT = Path(__file__).resolve().parents[2]
NEW_BUILDINGS = ROOT / "rulesets" / "puerto-rico" / "new-buildings.yaml"
SETTLER_QUARRY = "phases/settler/take-tiles/each-player/steps/take-tile/choose/options/tile:quarry"
LIBRARY_QUARRY = (
    "phases/settler/refill-row/then/library-tile/then/take-library-tile/choose/options/tile:quarry"
)

QUARRY_CAP = f"""\
patch:
  {SETTLER_QUARRY}:
    if: >-
      len(actor.island) < island-spaces and quarry-stack > 0
      and count(x for x in actor.island if x.type == quarry) < 2
      and ((actor == chooser and settler-quarry) or actor.quarry-choice > 0)
"""

COMPANION = f"""\
overlay: quarry-cap-new-buildings
extends: [quarry-cap, new-buildings]
title: At most two quarries, through the library too
patch:
  {LIBRARY_QUARRY}:
    if: >-
      chooser.quarry-choice > 0 and quarry-stack > 0
      and count(x for x in chooser.island if x.type == quarry) < 2
"""


def _validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", *args],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), timeout=600,
    )  # fmt: skip


def _library_line() -> int:
    lines = NEW_BUILDINGS.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "name: take-library-tile" in line)
    return next(i for i in range(start, len(lines)) if "id: tile:quarry" in lines[i]) + 1


def test_a_cap_on_an_option_warns_where_an_expansion_offers_it_unchanged(tmp_path):
    path = write_overlay(tmp_path, "quarry-cap", QUARRY_CAP)
    run = _validate(path)
    assert run.returncode == 0, run.stdout
    warnings = [line for line in run.stdout.splitlines() if "warning[" in line]
    assert len(warnings) == 1, run.stdout
    (warning,) = warnings
    assert warning.startswith(f"{path}:6:5: warning[O014]: "), warning
    assert "option 'tile:quarry' changes here, but new-buildings offers 'tile:quarry' too" in (
        warning
    )
    assert f"rulesets/puerto-rico/new-buildings.yaml:{_library_line()}:" in warning
    assert f"at {LIBRARY_QUARRY} (" in warning
    assert "'extends: [quarry-cap, new-buildings]'" in warning
    strict = _validate("--strict", path)
    assert strict.returncode == 1 and "warning[O014]" in strict.stdout


def test_the_companion_overlay_beside_it_settles_the_warning(tmp_path):
    path = write_overlay(tmp_path, "quarry-cap", QUARRY_CAP)
    companion = tmp_path / "quarry-cap-new-buildings.yaml"
    companion.write_text(COMPANION, encoding="utf-8")
    run = _validate("--strict", path, str(companion))
    assert run.returncode == 0 and "O014" not in run.stdout, run.stdout


def test_a_change_that_leaves_the_if_alone_does_not_warn(tmp_path):
    body = f'patch:\n  {SETTLER_QUARRY}:\n    log: "seat {{actor}} quarries"\n'
    path = write_overlay(tmp_path, "quarry-words", body)
    run = _validate("--strict", path)
    assert run.returncode == 0 and "O014" not in run.stdout, run.stdout
