"""A slip is reported where it is written: a table value of the wrong type at the table (the
text that reads it as a note), a table by player count read by a seat at the reading text, an
option whose choices mix types at the odd choice. Through `rulebook validate` on copies of the
shipped Puerto Rico ruleset and on overlays of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "puerto-rico" / "ruleset.yaml"


def _validate(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[dict]]:
    code = main(["validate", "--json", str(path)])
    return code, json.loads(capsys.readouterr().out.splitlines()[-1])["diagnostics"]


def _edited(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """A copy of the ruleset with one line changed, and that line's number."""
    lines = RULESET.read_text(encoding="utf-8").splitlines(keepends=True)
    (number,) = [i + 1 for i, line in enumerate(lines) if old in line]
    lines[number - 1] = lines[number - 1].replace(old, new)
    path = tmp_path / "ruleset.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    return path, number


def test_a_word_in_a_scalar_table_is_reported_at_the_table(tmp_path, capsys):
    path, line = _edited(tmp_path, "doubloons-total: 54", "doubloons-total: many")
    code, found = _validate(capsys, path)
    assert code == 1
    # once, at the value, though two rules read it (the set-up and an invariant)
    (d,) = found
    assert (d["code"], d["line"]) == ("D008", line)
    assert "table 'doubloons-total' is a text ('many'): a whole number is needed" in d["message"]
    assert "read at" in d["hint"] and "'bank = doubloons-total'" in d["hint"]


def test_an_overlays_word_is_reported_in_the_overlay(tmp_path, capsys):
    overlay = tmp_path / "slip.yaml"
    overlay.write_text(
        "overlay: slip\nextends: puerto-rico\ntitle: slip\nreplace:\n"
        "  tables/doubloons-total: many\n",
        encoding="utf-8",
    )
    code, found = _validate(capsys, overlay)
    assert code == 1
    (d,) = found
    assert d["file"].endswith("slip.yaml") and (d["line"], d["column"]) == (5, 27)
    assert "ruleset.yaml:" in d["hint"]  # the text that reads it, in the base ruleset


def test_a_table_by_player_count_read_by_a_seat(tmp_path, capsys):
    path, line = _edited(tmp_path, "start-doubloons[players]", "start-doubloons[i]")
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert (d["code"], d["line"]) == ("D008", line)
    assert (
        "table 'start-doubloons' is read by a seat, but has no key for seats 0, 1" in (d["message"])
    )


def test_a_table_keyed_by_seat_may_be_read_by_a_seat(tmp_path, capsys):
    # the same reading, from a table with a key for every seat of every game: fine (its keys
    # 2 to 4 are no player counts: seats 0 and 1 say it is a table by seat)
    path, _ = _edited(tmp_path, "start-doubloons[players]", "start-doubloons[i]")
    text = path.read_text(encoding="utf-8").replace(
        "start-doubloons: {2: 3, 3: 2, 4: 3, 5: 4}",
        "start-doubloons: {0: 3, 1: 2, 2: 3, 3: 4, 4: 4}",
    )
    path.write_text(text, encoding="utf-8")
    code, found = _validate(capsys, path)
    assert (code, found) == (0, [])


def test_option_choices_of_mixed_types(tmp_path, capsys):
    path, line = _edited(tmp_path, "choices: [122, 126]", "choices: [122, many]")
    code, found = _validate(capsys, path)
    assert code == 1
    (d,) = found
    assert (d["code"], d["line"], d["json_path"]) == (
        "K001",
        line,
        "/options/vp-chips-5p/choices/1",
    )
    assert "mix numbers and words" in d["message"]
