"""A leak check's finding is easy to act on: its path names the steps and options it passes
through, its hint is a command that replays it (naming every file needed to find the game),
and ``--explain D`` shows the two worlds it compares side by side: the line each tells the
seat and the hidden fields that differ. Through the real command line on the house rules of
``tests/validate/fixtures/secrets/house/``."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from interpreter.check.secrets_explain import named_pointer
from interpreter.compose.rulefiles import load_rules_data

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "tests" / "validate" / "fixtures" / "secrets" / "house"


def _rulebook(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=HOUSE,
        env={**os.environ, "RULEBOOK_JOBS": "1"},
        timeout=600,
    )


def test_a_path_counted_by_positions_is_spelt_by_names_and_ids() -> None:
    data = load_rules_data(str(HOUSE / "quiet-draw" / "ruleset.yml"))[0]
    counted = "/flow/round/0/each-player/steps/0/choose/options/1/for"
    named = "/flow/round/turns/each-player/steps/draw-or-play/choose/options/play/for"
    assert named_pointer(data, counted) == named
    # an item without a name keeps its position; a path past the data is kept as written
    assert named_pointer(data, "/flow/setup/0/do") == "/flow/setup/0/do"
    assert named_pointer(data, "/tables/nothing/3") == "/tables/nothing/3"


def test_a_finding_names_its_step_and_replays_with_every_file_it_needs() -> None:
    run = _rulebook("validate", "quiet-draw/ruleset.yml", "loud-draw.yml", "--secrets", "1")
    assert run.returncode == 1, run.stdout + run.stderr
    leak = next(line for line in run.stdout.splitlines() if "error[L001]" in line)
    assert "(at /flow/round/turns/each-player/steps/draw-or-play/choose/options/draw/log;" in leak
    decision = re.search(r"seed 1, decision (\d+)\)", leak)
    assert decision, leak
    command = re.search(r"see it: (rulebook validate .*?)\)$", leak)
    assert command, leak
    words = shlex.split(command.group(1))
    # quiet-draw is no installed game: the replay names its base too, and the decision
    assert words == [
        "rulebook",
        "validate",
        "quiet-draw/ruleset.yml",
        "loud-draw.yml",
        "--secrets",
        "1",
        "--seed",
        "1",
        "--explain",
        decision.group(1),
    ]


def test_explain_shows_the_two_worlds_and_their_lines_side_by_side() -> None:
    first = _rulebook("validate", "sj-peek-on-variation.yml", "--secrets", "1")
    leak = next(line for line in first.stdout.splitlines() if "error[L001]" in line)
    command = re.search(r"see it: rulebook (validate .*?)\)$", leak)
    assert command, leak
    run = _rulebook(*shlex.split(command.group(1)))
    assert run.returncode == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("secrets: L001 at "))
    assert "sj-peek-on-variation.yml:10:11 (/flow/round/peek/log)" in lines[at]
    told = re.search(r"'(seat \d holds [^']+)', or '(seat \d holds [^']+)'", lines[at])
    assert told, lines[at]
    head, line = lines[at + 1], lines[at + 2]
    viewer = r"(seat \d|a spectator)"
    assert re.match(rf"^\s+this game\s+a game {viewer} cannot tell from it$", head), head
    # the two lines, each in its column
    assert re.match(rf"^  log line\s+'{told.group(1)}'\s+'{told.group(2)}'$", line), line
    # and the hidden field they differ by: the hand of the seat read out
    seat = told.group(1).split()[1]
    assert any(re.match(rf"^  seat {seat} hand\s+\[", row) for row in lines[at + 3 : at + 12])


def test_explain_at_a_decision_without_a_finding_says_so() -> None:
    run = _rulebook(
        "validate", "quiet-draw/ruleset.yml", "--secrets", "1", "--explain", "2", "--json"
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert json.loads(run.stdout.splitlines()[-1])["secrets"]["explained"] == []
    text = _rulebook("validate", "quiet-draw/ruleset.yml", "--secrets", "1", "--explain", "2")
    assert "secrets: no finding at decision 2 (seed 1)" in text.stdout


def test_explain_without_secrets_is_a_usage_error() -> None:
    run = _rulebook("validate", "quiet-draw/ruleset.yml", "--explain", "2")
    assert run.returncode == 2
    assert "--explain D shows the findings of --secrets" in run.stderr


def test_a_line_written_in_a_procedure_is_found_at_the_procedures_statement() -> None:
    """Not at the call (`tell-card(actor, draw(deck))`): at the `log` inside the procedure,
    naming the call."""
    run = _rulebook("validate", "quiet-draw/ruleset.yml", "tell-in-procedure.yml", "--secrets", "3")
    assert run.returncode == 1, run.stdout + run.stderr
    # the games' finding (the static check's L005 points at the {c} of the same line)
    leaks = [line for line in run.stdout.splitlines() if "error[L001]" in line]
    assert len(leaks) == 1, run.stdout
    lines = (HOUSE / "tell-in-procedure.yml").read_text(encoding="utf-8").splitlines()
    row = next(i + 1 for i, text in enumerate(lines) if text.strip().startswith("log "))
    col = lines[row - 1].index("log ") + 1
    assert leaks[0].startswith(f"tell-in-procedure.yml:{row}:{col}: error[L001]"), leaks[0]
    assert "(at /procedures/tell-card/do;" in leaks[0]
    # and the call that ran it
    call = next(i + 1 for i, text in enumerate(lines) if "tell-card(actor" in text)
    assert f"written in a procedure called at tell-in-procedure.yml:{call}:7)" in leaks[0]
