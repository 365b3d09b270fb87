"""R009 (interpreter/check/gesture_names.py): a ``presentation: gestures:`` entry, written in an
overlay of a shipped game, that names no choose step or no state field is an error at its line
and column, with a did-you-mean; the shipped games' own gestures are clean."""

from __future__ import annotations

from pathlib import Path

from interpreter.check import validate

OVERLAY = """\
overlay: card-gestures
extends: san-juan
title: Gestures for the chapel
add:
  presentation/gestures/put-under-chappel: {kind: select}
  presentation/gestures/keep-cards: {kind: select, about: hnad}
"""


def test_a_gesture_naming_no_step_or_field_is_r009_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "card-gestures.yaml"
    path.write_text(OVERLAY)
    found = [
        (d.line, d.column, d.code, d.message, d.hint)
        for d in validate([str(path)]).diagnostics
        if d.severity == "error"
    ]
    assert [f[:3] for f in found] == [(5, 3, "R009"), (6, 3, "R009"), (6, 59, "R009")], found
    assert "did you mean 'put-under-chapel'?" in str(found[0][4])
    assert "did you mean 'keep-a-card'?" in str(found[1][4])
    assert "did you mean 'hand'?" in str(found[2][4])


def test_the_shipped_gestures_name_real_steps() -> None:
    report = validate(["rulesets/"])
    assert not [d for d in report.diagnostics if d.code == "R009"]


def test_an_answer_in_advance_naming_no_step_is_r009_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text(
        "overlay: answers\nextends: puerto-rico\ntitle: Keep a barrel unasked\nadd:\n"
        "  presentation/answers/keep-on: take\n"
    )
    found = [
        (d.line, d.column, d.code, d.message, d.hint)
        for d in validate([str(path)]).diagnostics
        if d.severity == "error"
    ]
    assert [f[:3] for f in found] == [(5, 3, "R009")], found
    assert "no choose step is named 'keep-on'" in found[0][3]
    assert "did you mean 'keep-one'?" in str(found[0][4])
