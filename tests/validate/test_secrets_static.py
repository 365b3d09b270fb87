"""The static leak check (L005, interpreter/check/taint.py): plain ``rulebook validate`` finds
a hidden value written where other seats read it, however the rule reads it, at the place it is
written, naming where it was read; and says nothing of the look-alikes that tell no secret.

Through the real CLI and API on house rules of San Juan (``tests/validate/fixtures/secrets/
static/``, kept as ``.yml`` so the plain-validate corpus leaves them alone), one rule form
each: a sealed choice written with `for` + `if`, with `for` over the hand, through a function,
through a procedure; the councillor's kept card logged by its option's text; a public counter
set from a hidden hand; a secret pick told by a later step; a card turned up only when a
hidden hand lacks something. The shipped games pass clean (tests/validate/
test_validate_project.py validates the whole project; tests/validate/test_secrets.py the
shipped folders).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.check.pipeline import validate

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "tests" / "validate" / "fixtures" / "secrets" / "static"


def _at(path: Path, line_text: str, part: str) -> tuple[int, int]:
    """(line, column) of `part` on the first line holding `line_text`, 1-based."""
    for i, text in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if line_text in text:
            return i + 1, text.index(part) + 1
    raise AssertionError(f"{line_text!r} not in {path}")


def _leaks(path: Path) -> list:
    report = validate([path], jobs=1)
    assert all(d.code == "L005" for d in report.diagnostics if d.severity == "error"), [
        d.format() for d in report.diagnostics
    ]
    return [d for d in report.diagnostics if d.code == "L005"]


# fixture -> (the sink: a line pattern and the text at the column), (the source likewise)
LEAKS = {
    "sealed-for-if.yml": (
        ("seat {actor} chooses", "c}"),
        ("      if: c in actor.hand", "actor.hand"),
    ),
    "sealed-for-hand.yml": (
        ("seat {actor} chooses", "c}"),
        ("      for: c in distinct", "actor.hand"),
    ),
    "sealed-function.yml": (("seat {actor} chooses", "c}"), ("expr: c in p.hand", "p.hand")),
    "sealed-procedure.yml": (("seat {p} hides", "c}"), ("for: c in distinct", "actor.hand")),
    "keep-by-option-text.yml": (('id: "keep:', "c}"), ("if: c in actor.drawn", "actor.drawn")),
    "counter-from-hand.yml": (
        ("hand-value = sum", "sum("),
        ("hand-value = sum", "player(i).hand)"),
    ),
    "nested-choose.yml": (
        ("picked {hidden-pick}", "hidden-pick}"),
        ("      for: c in distinct", "actor"),
    ),
    "turned-up-if-lacking.yml": (("push(turned-up", "push"), ("if not any", "player(governor)")),
}


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_a_leak_is_found_where_it_is_written_naming_where_it_was_read(name: str) -> None:
    path = STATIC / name
    (sink, source) = LEAKS[name]
    leaks = _leaks(path)
    assert len(leaks) == 1, [d.format() for d in leaks]
    leak = leaks[0]
    assert (leak.line, leak.column) == _at(path, *sink), leak.format()
    line, column = _at(path, *source)
    assert f"{path}:{line}:{column}" in leak.message, leak.format()
    assert leak.severity == "error" and leak.hint


def test_a_sealed_choice_names_the_hand_it_reads_and_the_public_line() -> None:
    leak = _leaks(STATIC / "sealed-for-if.yml")[0]
    assert leak.message.startswith("'c' comes from actor.hand (hidden from the other seats)")
    assert "is written into a public log line here" in leak.message


def test_the_option_text_the_log_shows_is_a_public_text() -> None:
    leak = _leaks(STATIC / "keep-by-option-text.yml")[0]
    assert "the text of this option, which the log shows every seat" in leak.message


def test_a_public_counter_from_a_hidden_hand_names_the_field() -> None:
    leak = _leaks(STATIC / "counter-from-hand.yml")[0]
    assert "the public field 'player(i).hand-value'" in leak.message


@pytest.mark.parametrize(
    "name", ["clean-reveal-same-move.yml", "clean-public-count.yml", "clean-chapel-count.yml"]
)
def test_a_look_alike_that_tells_no_secret_is_not_reported(name: str) -> None:
    """A card shown (turned up) by the move that logs it; a bid up to a hand's size (which
    every seat is shown), and the seat's own options naming its own hand; the count of a
    `hidden: all` pile whose every card was put there in public."""
    assert _leaks(STATIC / name) == []


def test_who_is_asked_reading_a_hand_is_found_at_the_decision() -> None:
    path = STATIC / "who-reads-hand.yml"
    leaks = _leaks(path)
    assert len(leaks) == 1, [d.format() for d in leaks]
    assert (leaks[0].line, leaks[0].column) == _at(path, "- id: pass", "pass")
    line, column = _at(path, "who: player(min", "player(i).hand")
    assert f"read at {path}:{line}:{column}" in leaks[0].message
    assert "is asked here depends on player(i).hand" in leaks[0].message


def test_hooks_run_by_an_event_emitted_under_a_hidden_condition_tell_it() -> None:
    """The market stand's and market hall's draws write their lines in the base game's
    procedures: each is reported there, naming the house rule's condition."""
    path = STATIC / "emit-under-hidden-condition.yml"
    leaks = _leaks(path)
    base = (ROOT / "rulesets" / "san-juan" / "ruleset.yaml").resolve()
    assert leaks and all(Path(d.file or "").resolve() == base for d in leaks), [
        d.format() for d in leaks
    ]
    line, column = _at(path, "if any(card-cost", "player(governor).hand")
    assert all(f"read at {path}:{line}:{column}" in d.message for d in leaks)
    assert all("this log line happens only when" in d.message for d in leaks)


def test_the_base_game_the_probes_change_is_clean() -> None:
    report = validate([ROOT / "rulesets" / "san-juan"], jobs=1)
    assert [d.format() for d in report.diagnostics if d.code == "L005"] == []


def test_the_command_fails_with_the_leak_at_its_place() -> None:
    path = STATIC / "sealed-for-if.yml"
    done = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", str(path.relative_to(ROOT))],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    line, column = _at(path, "seat {actor} chooses", "c}")
    assert re.search(
        rf"^tests/validate/fixtures/secrets/static/sealed-for-if\.yml:{line}:{column}: "
        r"error\[L005\]: 'c' comes from actor\.hand",
        done.stdout,
        re.MULTILINE,
    ), done.stdout
