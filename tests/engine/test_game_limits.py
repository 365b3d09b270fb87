"""No game runs for ever: a ruleset whose end condition can never be met stops at its safety
bound (E003) in every command that plays it, and validate warns about missing end conditions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.engine.loader import load_game
from interpreter.model.limits import DEFAULT_DECISIONS, DEFAULT_ROUNDS, GameLimitError

FIXTURES = Path(__file__).parent / "fixtures"
ENDLESS = str(FIXTURES / "endless" / "ruleset.yaml")
NO_END = str(FIXTURES / "no-end" / "ruleset.yaml")
BOUND = "the game did not end within 30 rounds (limits.rounds): stopped at round 30, decision 60"
ENDS = "it ends when end-after-round-if `pot >= 100`"
AT = "ruleset.yaml:24:23"  # the end condition that never became true


def test_the_engine_stops_a_game_at_its_round_bound():
    game = load_game(ENDLESS, players=2)
    state = game.new_state(5)
    with pytest.raises(GameLimitError) as caught:
        while not state.is_over:
            state.apply("wait")
    d = caught.value.diagnostics[0]
    assert d.code == "E003" and BOUND in d.message and ENDS in d.message
    assert (Path(d.file).name, d.line, d.column) == ("ruleset.yaml", 24, 23)
    assert state.round == 30 and len(state.history) == 60  # bounded, not grown further


def test_the_decision_bound_and_the_defaults(tmp_path):
    text = Path(ENDLESS).read_text().replace("rounds: 30, decisions: 500", "decisions: 7")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text)
    state = load_game(str(path), players=2).new_state(1)
    with pytest.raises(GameLimitError, match=r"within 7 decisions \(limits\.decisions\)"):
        while True:
            state.apply("wait")
    assert state.decisions == 7
    assert load_game(NO_END, players=2).rules.limits.rounds == DEFAULT_ROUNDS
    assert load_game(NO_END, players=2).rules.limits.decisions == DEFAULT_DECISIONS


def test_play_exits_1_naming_round_decision_and_end_condition(capsys):
    assert main(["play", ENDLESS, "--players", "2", "--seed", "3", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "error[E003]" in err and BOUND in err and ENDS in err and AT in err
    assert "Traceback" not in err


def test_simulate_reports_the_games_that_did_not_end_and_goes_on(capsys, tmp_path):
    out = tmp_path / "sim.json"
    args = ["simulate", ENDLESS, "-p", "3", "--games", "4", "-j", "1", "-q", "--out", str(out)]
    assert main(args) == 1
    text = capsys.readouterr().out
    assert "4 game(s) did not end (stopped at the ruleset's safety bound):" in text
    doc = json.loads(out.read_text())
    assert doc["run"]["finished"] == 0 and doc["run"]["not_ended"] == 4
    assert [g["index"] for g in doc["not_ended"]] == [0, 1, 2, 3]
    assert doc["not_ended"][0]["where"].endswith(AT)
    assert "stopped at round 30, decision 90" in doc["not_ended"][0]["message"]


def test_test_reports_the_scenario_as_not_ended_and_runs_the_others(capsys):
    folder = str(FIXTURES / "endless-scenarios")
    assert main(["test", folder, "--json", "--no-steps"]) == 1
    out = capsys.readouterr().out
    report = json.loads(out.splitlines()[-1])
    assert (report["passed"], report["failed"], report["not_ended"]) == (1, 1, 1)
    failed = next(s for s in report["scenarios"] if s["status"] == "fail")
    assert BOUND in failed["message"] and failed["where"].endswith(AT)
    assert "2 scenario(s): 1 passed, 1 failed (1 did not end)" in out


def test_validate_smoke_plays_every_player_count_and_reports_the_rule(capsys):
    assert main(["validate", ENDLESS, "--smoke", "2"]) == 1
    out = capsys.readouterr().out
    assert "smoke: 4 random game(s) played, 4 failed or did not end" in out
    assert out.count("error[E003]") == 4
    assert f"{AT}: error[E003]: smoke game, 2 players, overlays: none, seed 2: {BOUND}" in out
    assert "smoke game, 3 players, overlays: none, seed 2: " in out
    assert "replay: rulebook play" in out


def test_validate_smoke_of_a_sound_game_passes(capsys):
    toy = str(Path(__file__).parents[1] / "toy")
    assert main(["validate", toy, "--smoke", "1"]) == 0
    out = capsys.readouterr().out
    # 3 player counts, with and without the one overlay
    assert "smoke: 6 random game(s) played, 0 failed or did not end" in out


def test_validate_warns_about_a_ruleset_with_no_end_condition(capsys):
    assert main(["validate", NO_END]) == 0
    assert main(["validate", NO_END, "--strict"]) == 1
    out = capsys.readouterr().out
    assert "ruleset.yaml:12:1: warning[W006]: the ruleset has no end condition" in out


def test_validate_warns_about_an_end_condition_that_is_constant_false(capsys, tmp_path):
    text = Path(ENDLESS).read_text().replace("if: pot >= 100", "if: false")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text)
    assert main(["validate", str(path), "--strict"]) == 1
    out = capsys.readouterr().out
    assert "warning[W006]: the ruleset has only `false` as end condition" in out
