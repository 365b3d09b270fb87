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
        # a generator's `if` guards its element
        "          host += sum(w for w in [t.worth] if w != none)\n",
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


@pytest.mark.parametrize(
    ("line", "at"),
    [
        # `first(...)` is the first match or none: a field of it read unguarded
        ("          host += first(x for x in pool if x == t).copies\n", "first(x for x"),
        ("          let f = first(pool)\n          host += f.copies\n", "f.copies"),
        (
            "          let f = first(pool)\n          if f.copies > 1:\n            host += 1\n",
            "f.copies",
        ),
        # an index of one, and one passed to a rule function that uses it as a number
        ("          let f = first([[1], [2]])\n          host += f[0]\n", "f[0]"),
        ("          gain(player(0), first([1, 2]))\n", "first([1, 2])"),
    ],
)
def test_a_value_of_first_used_unguarded_is_d011_at_its_token(
    tmp_path: Path, line: str, at: str
) -> None:
    [error] = _errors(tmp_path, line)
    assert error.code == "D011", error.message
    assert "may be none" in error.message and "guard" in error.message
    written = (tmp_path / "ruleset.yaml").read_text(encoding="utf-8").splitlines()
    assert written[error.line - 1][error.column - 1 :].startswith(at)


def test_a_computed_value_is_told_to_be_named_before_its_guard(tmp_path: Path) -> None:
    [error] = _errors(tmp_path, "          host += first(x for x in pool if x == t).copies\n")
    assert "'let x = first(x for x in pool if x == t)' then 'if x != none:'" in error.message
    [error] = _errors(tmp_path, "          gain(player(0), first([1, 2]))\n")
    assert error.message.startswith("argument 2 of 'gain': 'first([1, 2])' may be none")
    assert "'gain' uses it as a value" in error.message


@pytest.mark.parametrize(
    "line",
    [
        "          let f = first(x for x in pool if x == t)\n          if f != none:\n"
        "            host += f.copies\n",
        "          let f = first(pool)\n          host += f.copies if f != none else 0\n",
        "          let f = first(pool)\n          if f != none and f.copies > 1:\n"
        "            host += 1\n",
        "          host += first(pool).copies if first(pool) != none else 0\n",
        "          let f = first([1, 2])\n          if f != none:\n"
        "            gain(player(0), f)\n",
        # a generator's `if` guards its element
        "          host += sum(x.copies for x in [first(pool)] if x != none)\n",
        # compared with none, or shown, a value that may be none needs no guard
        "          if first(pool) == none:\n            host += 1\n",
    ],
)
def test_a_guarded_value_of_first_is_accepted(tmp_path: Path, line: str) -> None:
    assert _errors(tmp_path, "          host += 0 if t.worth == none else t.worth\n" + line) == []


def test_a_field_of_any_value_that_may_be_none_is_d011(tmp_path: Path) -> None:
    """Not only `first(...)`: a flow variable that may be none (set to none in the set-up,
    to a card by a choice) has no fields either where the round's phase step reads one."""
    [error] = _errors(tmp_path, "          card = none\n")
    written = (tmp_path / "ruleset.yaml").read_text(encoding="utf-8").splitlines()
    assert error.code == "D011", error.message
    assert written[error.line - 1][error.column - 1 :] == "card.phase"
    assert "'card' may be none" in error.message
