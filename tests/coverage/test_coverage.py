"""Rule coverage: `rulebook test --coverage`, `rulebook simulate --coverage` (docs/coverage.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.coverage import Coverage, summarize
from interpreter.engine.loader import load_game

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
GAME = FIXTURES / "coin-pile.yaml"
TAKES = FIXTURES / "takes.yaml"
TOY = HERE.parent / "toy" / "ruleset.yaml"


def _json_report(tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "coverage.json"
    assert main([*args, "--coverage-format", "json", "--coverage-out", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def _fixture_file(doc: dict) -> dict:
    (entry,) = [f for f in doc["files"] if f["file"].endswith("coin-pile.yaml")]
    return entry


def test_a_rule_no_scenario_reaches_is_listed_as_missed_at_its_line(capsys, monkeypatch):
    monkeypatch.chdir(HERE.parents[1])  # the report names files relative to this folder
    assert main(["test", str(TAKES), "--coverage"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("tests/coverage/"))
    # 8 points: 2 steps, each option line offered and taken, both arms of take-one's `if`;
    # `wait` never taken (line 24), the else arm never run (line 35)
    assert row.split() == [
        "tests/coverage/fixtures/coin-pile.yaml",
        "8",
        "6",
        "2",
        "75.0%",
        "24,",
        "35",
    ]
    assert "option-taken 1/2 (50.0%)" in out and "branch 1/2 (50.0%)" in out


def test_json_report_shape(tmp_path):
    doc = _json_report(tmp_path, "test", str(TAKES))
    assert set(doc) == {"rules", "covered", "missed", "percent", "kinds", "files"}
    assert (doc["rules"], doc["covered"], doc["missed"], doc["percent"]) == (8, 6, 2, 75.0)
    assert doc["kinds"]["branch"] == {"rules": 2, "covered": 1}
    entry = _fixture_file(doc)
    assert entry["missing_lines"] == [24, 35]
    points = {(p["line"], p["kind"], p["label"]): p["count"] for p in entry["points"]}
    assert set(entry["points"][0]) == {"line", "column", "kind", "label", "count"}
    assert points[(24, "option-taken", "wait")] == 0
    assert points[(22, "option-taken", "take")] == 6  # 2 seats x 3 rounds
    assert points[(35, "branch", "else")] == 0
    assert points[(32, "branch", "then")] == 6  # in the procedure's own text, not the caller's


def test_html_report_marks_covered_and_never_run_lines(tmp_path, capsys):
    folder = tmp_path / "html"
    assert (
        main(["test", str(TAKES), "--coverage-format", "html", "--coverage-out", str(folder)]) == 0
    )
    assert f"wrote the rule coverage report to {folder / 'index.html'}" in capsys.readouterr().err
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert "6 of 8 rule points ran (75.0%)" in index
    (page,) = [p for p in folder.glob("*.html") if p.name != "index.html"]
    text = page.read_text(encoding="utf-8")
    assert "<tr class='miss' id='L35'" in text  # the else arm: never ran
    assert "<tr class='part' id='L24'" in text  # `wait`: offered, never taken
    assert "<tr class='run' id='L32'" in text  # `if pile &gt; 0`: its then arm ran
    assert "<tr class='' id='L1'" in text  # a comment: no rule there
    assert "if pile &gt; 0:" in text


def test_hooks_grants_and_unwritten_else_arms_are_counted():
    game = Coverage()
    g = game.load_game(str(TOY), 3)
    for seed in range(10):
        s = g.new_state(seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_options()))
    points = [p for r in summarize(game.totals()) for p, n in r.points if n]
    kinds = {p.kind for p in points}
    assert kinds >= {"step", "option-offered", "option-taken", "effect", "grant", "branch"}
    labels = {p.label for p in points}
    assert "awning grants markup" in labels and "else (none written)" in labels


def _simulated(tmp_path: Path, *extra: str) -> dict:
    """The JSON coverage report of 6 two-seat games of the fixture game."""
    return _json_report(
        tmp_path, "simulate", str(GAME), "-p", "2", "-n", "6", "--json", "-q", *extra
    )


def test_simulate_coverage_adds_up_the_workers_counts(tmp_path):
    one = _simulated(tmp_path, "-j", "1")
    two = _simulated(tmp_path, "-j", "2", "--seed", "0")
    seeded = _simulated(tmp_path, "-j", "1", "--seed", "0")
    assert one["rules"] == two["rules"] == 8
    # the same seeded games give the same counts from one process or two
    assert _fixture_file(two)["points"] == _fixture_file(seeded)["points"]
    taken = {
        p["label"]: p["count"]
        for p in _fixture_file(seeded)["points"]
        if p["kind"] == "option-taken"
    }
    assert taken["take"] + taken["wait"] == 6 * 2 * 3  # games x seats x rounds


def test_simulate_prints_the_text_report(capsys):
    assert (
        main(["simulate", str(GAME), "-p", "2", "-n", "2", "-j", "1", "--json", "-q", "--coverage"])
        == 0
    )
    out = capsys.readouterr().out
    assert "coin-pile.yaml" in out and "TOTAL" in out and "by kind: step 2/2" in out


@pytest.mark.parametrize("command", ["test", "simulate"])
def test_coverage_flags_are_in_the_help(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("--coverage ", "--coverage-format text|json|html", "--coverage-out PATH"):
        assert flag in out
    assert "rule coverage" in out


def test_collecting_costs_nothing_when_off():
    """An ordinary game runs no counting code: none of its generated rules names a counter and
    its flow program has no counting instructions; a coverage build has both."""
    plain = load_game(str(GAME), 2)
    counted = Coverage().load_game(str(GAME), 2)
    assert plain.rules.probes is None and counted.rules.probes is not None

    def names(game):
        return {n for code in game.rules.origins._host.texts for n in code.co_names}

    assert not names(plain) & {"_cov", "_hit"}
    assert "_cov" in names(counted)
    assert len(plain.program.code) < len(counted.program.code)
