"""--json on validate, test and simulate: the last line of stdout is one JSON object (compact,
on one line) whose numbers are the ones the command computed, and exit codes do not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.check import validate
from interpreter.cli.main import main
from interpreter.scenario import collect, discover, run_scenario
from interpreter.simulate.batch import SimSpec, run_simulation
from interpreter.simulate.summary import summarise

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_FIXTURES = ROOT / "tests" / "scenario_runner" / "fixtures"
WRONG = SCENARIO_FIXTURES / "wrong.yaml"
GAME = "puerto-rico"
# a valid ruleset nobody edits for other reasons (rulesets/ change under other work)
VALID = ROOT / "tests" / "validate" / "fixtures" / "base" / "ruleset.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def last_json(lines: list[str]) -> dict:
    assert lines, "no output"
    data = json.loads(lines[-1])
    assert isinstance(data, dict)
    return data


# -- validate ----------------------------------------------------------------------------------
def test_validate_json_is_the_report_on_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: tiny\nplayers: {min: 2, max: 4}\nbogus: 1\n", encoding="utf-8")
    code, lines, _ = run(capsys, "validate", str(bad), "--json")
    assert code == 1
    assert len(lines) == 1  # the object and nothing else, not indented
    data = last_json(lines)
    api = validate([str(bad)])
    assert data["ok"] is False and data["strict"] is False
    assert (data["errors"], data["warnings"], data["files_checked"]) == (3, 0, 1)
    assert sorted(d["code"] for d in data["diagnostics"]) == sorted(d.code for d in api.diagnostics)
    unknown = data["diagnostics"][-1]
    assert (unknown["code"], unknown["line"], unknown["json_path"]) == ("S003", 3, "/bogus")
    assert data["files"] == [str(bad)] and data["skipped"] == []

    # --format json prints the very same line
    assert run(capsys, "validate", str(bad), "--format", "json")[1] == lines

    code, lines, _ = run(capsys, "validate", str(VALID), "--json")
    data = last_json(lines)
    assert code == 0 and data["ok"] is True and data["errors"] == 0
    assert data["files_checked"] == 1 and data["files"] == [str(VALID)]

    code, lines, err = run(capsys, "validate", str(bad), "--json", "--format", "github")
    assert code == 2 and lines == [] and "--json" in err and "Traceback" not in err


# -- test --------------------------------------------------------------------------------------
def test_test_json_counts_what_the_runner_reports(capsys):
    files = discover([SCENARIO_FIXTURES])
    scenarios, expected = collect(files)
    expected += [run_scenario(sc) for sc in scenarios]
    want = {k: sum(o.status == k for o in expected) for k in ("pass", "fail", "error")}
    assert want == {"pass": 2, "fail": 1, "error": 1}  # the fixtures: one of each, one more pass

    code, lines, _ = run(capsys, "test", str(SCENARIO_FIXTURES), "--json", "--no-steps")
    assert code == 1
    assert lines[0].startswith("ERROR ")  # the per-scenario lines still come first
    data = last_json(lines)
    assert data["ok"] is False
    assert (data["passed"], data["failed"], data["errors"]) == (
        want["pass"],
        want["fail"],
        want["error"],
    )
    assert data["total"] == len(expected) == len(data["scenarios"])
    assert data["selected"] == len(scenarios) and data["files"] == len(files) == 3
    by_id = {s["id"]: s for s in data["scenarios"]}
    assert set(by_id) == {o.id for o in expected}
    failed = by_id[f"{WRONG}::prospector pays one"]
    assert failed["status"] == "fail" and failed["line"] == 7
    assert failed["where"] == f"{WRONG}:12:9"
    assert failed["message"].startswith("expected player(0).doubloons == 2")
    right = by_id[f"{WRONG}::right"]
    assert (right["status"], right["line"], right["message"], right["where"]) == (
        "pass",
        13,
        "",
        None,
    )
    broken = next(s for s in data["scenarios"] if s["name"] == "")
    assert broken["status"] == "error" and broken["file"].endswith("malformed.yaml")
    assert "S003" in broken["message"] and broken["line"] == 5

    # all passing: exit 0 and ok; nothing selected: exit 1, ok false, still JSON last
    code, lines, _ = run(capsys, "test", str(WRONG), "-k", "right", "--json")
    data = last_json(lines)
    assert code == 0 and data["ok"] is True
    assert (data["passed"], data["failed"], data["selected"]) == (1, 0, 1)
    code, lines, _ = run(capsys, "test", str(WRONG), "-k", "nothing-like-this", "--json")
    data = last_json(lines)
    assert code == 1 and data["ok"] is False and data["selected"] == 0 and data["total"] == 0


# -- simulate ----------------------------------------------------------------------------------
def test_simulate_json_is_the_out_file_without_its_games(tmp_path, capsys):
    out = tmp_path / "sim.json"
    argv = ["simulate", GAME, "-p", "3", "-n", "4", "-j", "1", "--seed", "11", "-q"]
    code, lines, _ = run(capsys, *argv, "--out", str(out), "--json")
    assert code == 0
    data = last_json(lines)
    written = json.loads(out.read_text(encoding="utf-8"))
    assert "games" not in data and len(written["games"]) == 4
    for key in ("format", "config", "summary"):
        assert data[key] == written[key]
    assert data["run"]["finished"] == written["run"]["finished"] == 4
    assert (data["out"], data["csv"], data["report"]) == (str(out), None, None)
    assert lines[0].startswith(f"{GAME}, 3 players")  # the text summary comes first

    # the same numbers the runner gives for that spec; --out may be left out with --json
    spec = SimSpec(GAME, 3, seats=("random",) * 3, games=4, seed=11)
    sim = run_simulation(spec, jobs=1)
    expected = json.loads(json.dumps(summarise(sim.records, spec.seats)))
    code, lines, err = run(capsys, *argv, "--json")
    data = last_json(lines)
    assert code == 0 and data["summary"] == expected and data["out"] is None
    assert "wrote" not in err
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--out" in err


def test_simulate_config_file(tmp_path, capsys):
    cfg = tmp_path / "sim.yaml"
    cfg.write_text(
        f"game: {GAME}\nplayers: 3\nseed: 5\nseats: [random, pr-heuristic, random]\n"
        "options: {bank: limited}\n",
        encoding="utf-8",
    )
    code, lines, _ = run(
        capsys, "simulate", "--config", str(cfg), "-n", "2", "-j", "1", "-q", "--json"
    )
    assert code == 0
    c = last_json(lines)["config"]
    assert (c["game"], c["players"], c["seed"], c["games"]) == (GAME, 3, 5, 2)
    assert c["seats"] == ["random", "pr-heuristic", "random"]
    assert c["options"]["bank"] == "limited"  # as the file says
    assert c["options"]["vp-chips-5p"] == 122  # and every default, recorded

    # flags win over the file
    argv = ["simulate", "--config", str(cfg), "-n", "2", "-j", "1", "-q", "--json"]
    code, lines, _ = run(capsys, *argv, "-p", "4", "--bots", "random", "--seed", "8")
    c = last_json(lines)["config"]
    assert code == 0 and (c["players"], c["seed"]) == (4, 8)
    assert c["seats"] == ["random"] * 4

    # nobody sits at a terminal in a simulation
    cfg.write_text(f"game: {GAME}\nplayers: 3\nseats: [random, human, random]\n")
    code, lines, err = run(capsys, *argv)
    assert code == 1 and lines == [] and "human" in err and "Traceback" not in err
    # a config key that does not exist names its line
    cfg.write_text(f"game: {GAME}\nplayer: 3\n")
    code, _, err = run(capsys, *argv)
    assert code == 1 and "sim.yaml:2:1: unknown key 'player'" in err


# -- every command that takes --json -----------------------------------------------------------
def test_every_json_flag_ends_with_one_object(tmp_path, capsys):
    """The guide's promise, command by command: the last line parses, whatever came before."""
    save, a, b = tmp_path / "game.json", tmp_path / "a.json", tmp_path / "b.json"
    sim = ["simulate", GAME, "-p", "3", "-n", "3", "-j", "1", "-q"]
    commands = {
        "play": ["play", GAME, "-p", "3", "--seed", "4", "--save", str(save)],
        "replay": ["replay", str(save)],
        "list": ["list"],
        "validate": ["validate", str(VALID)],
        "test": ["test", str(WRONG), "-k", "right"],
        "simulate": [*sim, "--seed", "1", "--out", str(a)],
        "compare": ["compare", str(a), str(b)],
    }
    assert main([*sim, "--seed", "2", "--out", str(b)]) == 0
    capsys.readouterr()
    seen = {}
    for name, argv in commands.items():
        code, lines, err = run(capsys, *argv, "--json")
        assert code == 0, (name, err)
        seen[name] = last_json(lines)
    assert seen["play"]["seed"] == 4 and seen["replay"]["scores"] == seen["play"]["scores"]
    assert seen["validate"]["ok"] and seen["test"]["passed"] == 1
    assert seen["simulate"]["config"]["seed"] == 1 and seen["compare"]["rows"]
    assert any(g["name"] == GAME for g in seen["list"]["games"])


def test_simulate_refuses_zero_games(capsys):
    assert main(["simulate", "puerto-rico", "-p", "3", "-n", "0", "--json"]) == 2
    assert "--games/-n: must be at least 1, got 0" in capsys.readouterr().err
