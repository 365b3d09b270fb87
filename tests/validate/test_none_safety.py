"""None-safety (D011): a value that may be none, used where a value is needed, is refused at
its token unless a test on the way there rules none out (interpreter/dsl/resolve/none_safety.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.check.pipeline import validate

FIXTURE = Path(__file__).parent / "fixtures" / "d_maybe_none.yaml"
UNGUARDED = "          host += t.worth\n"


def _errors(tmp_path: Path, line: str) -> list:
    text = FIXTURE.read_text(encoding="utf-8").split("\n", 1)[1]  # without the expect line
    assert UNGUARDED in text
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(UNGUARDED, line), encoding="utf-8")
    return [d for d in validate([path]).diagnostics if d.severity == "error"]


@pytest.mark.parametrize(
    "line",
    [
        "          host += t.worth if t.worth != none else 0\n",
        "          host += 0 if t.worth == none else t.worth\n",
        "          if t.worth != none:\n            host += t.worth\n",
        "          if t.worth == none:\n            host += 1\n          else:\n"
        "            host += t.worth\n",
        "          if t.worth != none and t.worth > 1:\n            host += 1\n",
        "          if t.worth == none or t.worth > 1:\n            host += 1\n",
        "          if not (t.worth == none):\n            host += t.worth\n",
        "          let w = t.worth\n          if w != none:\n            host += w * 2\n",
        # a reducer's value (first of a list) guarded like any other
        "          if first(pool) != none and first(pool).worth != none:\n"
        "            host += first(pool).worth\n",
    ],
)
def test_a_guarded_read_is_accepted(tmp_path: Path, line: str) -> None:
    assert _errors(tmp_path, line) == []


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("          host += t.worth\n", 19),
        ("          host = 1 + t.worth\n", 22),
        ("          if t.worth > 1:\n            host += 1\n", 14),
        ("          if t.worth != none or t.worth > 1:\n            host += 1\n", 33),
        ("          if t.worth != none:\n            host += 1\n          host += t.worth\n", 19),
        ("          let w = t.worth\n          host += range(w)[0]\n", 25),
        ("          host += t.worth if t.copies > 1 else 0\n", 19),
    ],
)
def test_an_unguarded_read_is_d011_at_its_token(tmp_path: Path, line: str, column: int) -> None:
    [error] = _errors(tmp_path, line)
    assert error.code == "D011"
    assert "may be none" in error.message and "guard it" in error.message
    written = (tmp_path / "ruleset.yaml").read_text(encoding="utf-8").splitlines()
    at = written[error.line - 1][error.column - 1 :]
    assert at.startswith(("t.worth", "w)")), at  # the value that may be none


def test_a_flow_if_step_guards_its_then_steps() -> None:
    """San Juan's builder reads the flow variable `building` (set to none at the start of each
    turn) only under `if: building != none`: accepted, and so are the shipped rulesets."""
    root = Path(__file__).resolve().parents[2]
    report = validate([root / "rulesets" / "san-juan"])
    assert [d for d in report.diagnostics if d.severity == "error"] == []
