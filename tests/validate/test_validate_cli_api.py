"""The same diagnostics from the CLI (every format), the Python API and ``rulebook play``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.check import validate
from interpreter.cli.main import main
from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game

# beside conftest.py's own FIXTURES: `from conftest import` would find another tests/ folder's
# conftest when several folders run in one session
FIXTURES = Path(__file__).resolve().parent / "fixtures"

ROOT = FIXTURES.parents[2]
BROKEN = FIXTURES / "d_syntax_block.yaml"
WARNS = FIXTURES / "w_unused_table.yaml"
VALID = FIXTURES / "base" / "ruleset.yaml"


def _keys(diags):
    return [(os.path.normpath(d.file), d.line, d.column, d.code, d.message) for d in diags]


# Ruleset fixtures whose every finding the engine's own loading reports too (R004-R006, R008 (the
# board's drawing), R009 (gestures) and the W codes are validate-only lint checks that do not
# stop a game from loading).
API_CASES = [
    p
    for p in sorted(FIXTURES.glob("*.yaml"))
    if all(
        d.code[0] in "YSRD" and d.code not in ("R004", "R005", "R006", "R008", "R009")
        for d in validate([p]).diagnostics
    )
]


@pytest.mark.parametrize("path", API_CASES, ids=lambda p: p.name)
def test_load_game_raises_the_same_diagnostics(path: Path) -> None:
    expected = _keys(validate([path]).diagnostics)
    with pytest.raises(RulesError) as info:
        load_game(str(path), 2)
    assert sorted(set(_keys(info.value.diagnostics))) == sorted(set(expected))


def test_api_cases_cover_each_stage() -> None:
    assert len(API_CASES) >= 20
    assert {p.name[0] for p in API_CASES} >= {"y", "s", "r", "d"}


def test_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(VALID)]) == 0
    assert main(["validate", str(BROKEN)]) == 1
    assert main(["validate", str(WARNS)]) == 0
    assert main(["validate", "--strict", str(WARNS)]) == 1
    assert main(["validate", str(FIXTURES / "no-such-file.yaml")]) == 2
    assert main(["validate"]) == 2
    assert main(["validate", "--format", "xml", str(VALID)]) == 2
    err = capsys.readouterr().err
    assert "no such file or folder" in err and "Traceback" not in err


def test_text_output_has_source_line_caret_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    main(["validate", str(BROKEN)])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{BROKEN}:58:26: error[D001]: unexpected 'start-points'")
    assert out[1].strip() == "gain(player(i) start-points[players])"
    assert out[2].index("^") - 4 == 25  # under column 26 (4 spaces of excerpt indent)
    assert out[-1] == "1 error (1 file checked)"


def test_json_format_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "json", str(BROKEN), str(WARNS)]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is False
    assert (payload["errors"], payload["warnings"], payload["files_checked"]) == (1, 1, 2)
    d = payload["diagnostics"][0]
    got = (d["code"], d["line"], d["column"], d["json_path"])
    assert got == ("D001", 58, 26, "/flow/setup/0/do")


def test_json_strict_ok_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "json", str(WARNS)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["validate", "--format", "json", "--strict", str(WARNS)]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_github_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "github", str(BROKEN), str(WARNS)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"::error file={BROKEN},line=58,col=26,title=D001::unexpected")
    assert lines[1].startswith(f"::warning file={WARNS},line=16,col=3,title=W003::table 'limit'")


def test_play_with_a_broken_file_shows_the_same_diagnostics() -> None:
    env = {**os.environ, "RULEBOOK_RULESETS": str(FIXTURES)}
    env.pop("RULEBOOK_DEBUG", None)
    proc = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "play", str(BROKEN), "--players", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    (d,) = validate([BROKEN]).diagnostics
    assert d.format() in proc.stderr


def test_subprocess_validate_of_shipped_rulesets() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", "rulesets"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "error" not in proc.stdout.splitlines()[-1]


def test_the_projects_rulesets_have_no_findings_at_all() -> None:
    # not even warnings: definitions kept for the expansions are listed as extension points
    report = validate([ROOT / "rulesets"])
    assert [d.format() for d in report.diagnostics] == []
    assert len(report.checked) >= 6
