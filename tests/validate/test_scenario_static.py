"""``rulebook validate`` refuses what ``rulebook test`` would: a scenario expression that does
not compile (T003, at its line and column inside the scenario file), and a ``log contains`` /
``log lacks`` / ``log order`` text that no line of the game's log can hold (T004: a ``log
lacks`` of it would pass whatever the game does), with the same words in both commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_RULESETS"}
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "RULEBOOK_JOBS": "1"},
        timeout=300,
    )


def _codes(path: Path) -> list[tuple[str, int, int, str, str | None]]:
    run = _cli("validate", "--json", str(path))
    found = json.loads(run.stdout)["diagnostics"]
    return [(d["code"], d["line"], d["column"], d["message"], d["hint"]) for d in found]


UNTIL = """\
game: puerto-rico
players: 3
scenarios:
  - name: plays until seat 1 moves
    steps:
      - auto: [pass]
        until: to-move == 1
"""


def test_an_until_that_does_not_compile_is_t003_at_its_name(tmp_path: Path) -> None:
    f = tmp_path / "until.yaml"
    f.write_text(UNTIL, encoding="utf-8")
    ((code, line, col, message, _hint),) = _codes(f)
    assert (code, line, col) == ("T003", 7, 16)
    assert "unknown name 'to-move'" in message
    test = _cli("test", str(f))
    assert test.returncode == 1 and "unknown name 'to-move'" in test.stdout


def test_an_expect_expression_is_compiled_with_the_flow_variables(tmp_path: Path) -> None:
    f = tmp_path / "expect.yaml"
    f.write_text(
        "game: san-juan\nplayers: 3\nscenarios:\n"
        "  - name: x\n    expect:\n"
        "      - len(player(0).hand) == 4\n"  # fine
        "      - chooser == 0 or true\n"  # a flow variable of the game: fine
        '      - "len(player(0).hnad) == 4"\n',  # a slip, quoted: the column is past the quote
        encoding="utf-8",
    )
    ((code, line, col, message, _hint),) = _codes(f)
    assert (code, line, col) == ("T003", 8, 24), message
    assert "hnad" in message


# The log writes a card's name as named (`seat 0 draws 1 card (Poor house)`).
POOR_HOUSE = """\
game: san-juan
players: 3
scenarios:
  - name: no draw for a full hand
    steps:
      - auto: [pass]
        until: round == 2
    expect:
      - log lacks: {text}
"""


def test_a_log_lacks_no_line_can_hold_is_t004_with_the_spelling_the_log_uses(
    tmp_path: Path,
) -> None:
    f = tmp_path / "lacks.yaml"
    f.write_text(POOR_HOUSE.format(text="draws 1 card (poor house)"), encoding="utf-8")
    ((code, line, col, message, hint),) = _codes(f)
    assert (code, line, col) == ("T004", 9, 20)
    assert "'draws 1 card (poor house)'" in message and "would pass" in message
    assert hint == "did you mean 'draws 1 card (Poor house)'?"
    test = _cli("test", str(f))
    assert test.returncode == 1, test.stdout
    assert f"{f}:9:9: no line of this game's log can hold 'draws 1 card (poor house)'" in (
        test.stdout
    )


@pytest.mark.parametrize(
    "text",
    [
        "draws 1 card (Poor house)",  # a template with a name filled in
        "seat 2 draws 1 card",
        "(the only choice)",  # the engine's words for a forced move
        "game over",
        "Poor house",  # a name alone
    ],
)
def test_a_text_some_line_can_hold_passes(tmp_path: Path, text: str) -> None:
    f = tmp_path / "lacks.yaml"
    f.write_text(POOR_HOUSE.format(text=text), encoding="utf-8")
    assert _codes(f) == []


def test_log_contains_and_order_are_checked_too(tmp_path: Path) -> None:
    f = tmp_path / "contains.yaml"
    f.write_text(
        "game: san-juan\nplayers: 3\nscenarios:\n  - name: x\n    expect:\n"
        "      - log contains: [seat 0 chooses the Builder]\n"
        "      - log order: [game over, The game is over]\n",
        encoding="utf-8",
    )
    found = _codes(f)
    assert [(c, line, col) for c, line, col, _m, _h in found] == [
        ("T004", 6, 24),
        ("T004", 7, 32),
    ], found
    assert "would fail" in found[0][3]
