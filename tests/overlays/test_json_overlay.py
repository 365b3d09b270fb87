"""An overlay written as JSON (every key text, `"1": 1`) works like its YAML twin: a table by
seat or player count it replaces keeps whole-number keys, so the set-up finds seat 0; `--with`
takes a `.json` file, and `rulebook validate` checks one instead of skipping it. Through
`rulebook test` and `rulebook validate` on the shipped Puerto Rico."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main

BONUS = {
    "overlay": "seat-bonus",
    "extends": "puerto-rico",
    "replace": {"tables/start-doubloons-seat-bonus": {"0": 0, "1": 1, "2": 2, "3": 0, "4": 0}},
}

SCENARIO = """\
game: puerto-rico
players: 3
with: [{overlay}]
scenarios:
  - name: seats start with the bonus a JSON overlay gives them
    expect:
      - player(0).doubloons == 2
      - player(1).doubloons == 3
      - player(2).doubloons == 4
"""


@pytest.mark.parametrize("name", ["seat-bonus.json", "seat-bonus.yaml"])
def test_integer_seat_keys_written_as_json_work_at_set_up(capsys, tmp_path: Path, name: str):
    (tmp_path / name).write_text(json.dumps(BONUS), encoding="utf-8")
    scenario = tmp_path / "bonus.yaml"
    scenario.write_text(SCENARIO.format(overlay=name), encoding="utf-8")
    code = main(["test", str(scenario)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "1 passed" in out


def test_validate_checks_a_json_overlay(capsys, tmp_path: Path):
    wrong = dict(BONUS, replace={"tables/start-doubloons-seat-bonus": {"1": 1, "2": 2}})
    path = tmp_path / "seat-bonus.json"
    path.write_text(json.dumps(wrong), encoding="utf-8")
    code = main(["validate", str(path)])
    out = capsys.readouterr().out
    assert code == 1, out
    # checked (not skipped as no rule file), and its keys read as seats
    assert "has no key for seats 0, 3, 4 (its keys: 1, 2;" in out and "(1 file checked)" in out
