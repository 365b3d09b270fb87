"""The scenario runner itself: failures name their line, set-ups are checked, a changed
ruleset fails exactly the scenarios that depend on the change, the command line and pytest
collection work."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.diagnostics.errors import RulesError
from interpreter.scenario import collect, discover, load_scenarios, run_scenario, select
from interpreter.scenario.games import clear_cache

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
ROOT = HERE.parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"


def run_text(tmp_path: Path, text: str) -> list:
    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    return [run_scenario(sc) for sc in load_scenarios(f)]


HEAD = "game: puerto-rico\nplayers: 4\n"


def test_a_wrong_expectation_fails_naming_its_line():
    first, second = (run_scenario(sc) for sc in load_scenarios(FIXTURES / "wrong.yaml"))
    assert first.status == "fail"
    assert second.status == "pass"
    assert first.where.line == 12 and first.where.column == 9
    assert first.message == (
        "expected player(0).doubloons == 2\n    actual: player(0).doubloons = 1"
    )
    from interpreter.scenario import text_report

    text = text_report.details(first)
    assert f"{FIXTURES / 'wrong.yaml'}:12:9: expected player(0).doubloons == 2" in text
    assert "1. seat 0: role:prospector" in text and "(line 9)" in text
    assert "seat 0 takes 1 doubloon" in text  # the game's log under the step


def test_field_expectations_report_the_actual_value(tmp_path):
    (o,) = run_text(
        tmp_path,
        HEAD + "steps: [seat 0: role:prospector]\nexpect:\n  - seat 0: {doubloons: 9}\n",
    )
    assert o.status == "fail" and o.where.line == 5
    assert "expected seat 0 doubloons: 9" in o.message and "actual: 4" in o.message


def test_legal_option_expectations(tmp_path):
    (o,) = run_text(tmp_path, HEAD + "expect:\n  - seat 0 may: [role:builder, pass]\n")
    assert o.status == "fail"
    assert "not legal: [pass]" in o.message and "also legal: [role:settler" in o.message
    (o,) = run_text(tmp_path, HEAD + "expect:\n  - refused: 'seat 0: role:builder'\n")
    assert o.status == "fail" and "but it is legal for seat 0" in o.message


def test_an_illegal_step_names_the_step_and_suggests(tmp_path):
    (o,) = run_text(tmp_path, HEAD + "steps:\n  - seat 0: role:bilder\n")
    assert o.status == "fail" and o.where.line == 4
    assert "did you mean 'role:builder'?" in o.message
    (o,) = run_text(tmp_path, HEAD + "steps:\n  - seat 2: role:builder\n")
    assert "expected seat 2 to decide" in o.message and "seat 0 is to decide" in o.message


@pytest.mark.parametrize(
    "setup, message",
    [
        ("seat 0: {dublons: 3}", "seat 0 has no field 'dublons'; did you mean 'doubloons'?"),
        ("seat 0: {goods: {corm: 2}}", "unknown id 'corm'; did you mean 'corn'?"),
        ("seat 0: {doubloons: -1}", "seat 0 doubloons cannot be negative (-1)"),
        ("seat 0: {city: [{type: harbor, wokers: 1}]}", "has no field 'wokers'"),
        ("seat 0: {city: [harbr]}", "unknown id 'harbr'; did you mean 'harbor'?"),
        ("seat 0: {city: [harbor, harbor, harbor]}", "only 2 'harbor' in all"),
        ("seat 9: {doubloons: 1}", "there is no seat 9 in a 4-player game"),
        ("global: {goods-supply: {corn: 0}}", "'coffee': the set-up leaves 0 in the game"),
        ("global: {ships: {ship-4: {load: 1}}}", "holds no 'ship-4'"),
        ("global: {doubloons: 1}", "('doubloons' is a seat field)"),
    ],
)
def test_setups_that_break_the_game_are_refused(tmp_path, setup, message):
    (o,) = run_text(tmp_path, HEAD + "setup:\n  " + setup + "\n")
    assert o.status == "error", o.message
    assert message in o.message
    assert o.message.startswith("set-up refused:")
    assert o.where.line == 4


def test_setup_balances_totals_from_the_reserve(tmp_path):
    (o,) = run_text(
        tmp_path,
        HEAD
        + "setup:\n  seat 0: {goods: {corn: 3}, city: [harbor]}\n"
        + "expect:\n  - goods-supply[corn] == 7\n  - building-supply[harbor] == 1\n",
    )
    assert o.status == "pass", o.message


def test_restart_round_after_a_new_governor():
    (o,) = [run_scenario(sc) for sc in load_scenarios(FIXTURES / "restart.yaml")]
    assert o.status == "pass", o.message


def test_expressions_are_checked_and_may_not_change_the_state(tmp_path):
    (o,) = run_text(tmp_path, HEAD + "expect:\n  - draw(tile-stack) == 1\n")
    assert o.status == "error" and "'draw' changes the state" in o.message
    assert (o.where.line, o.where.column) == (4, 5)
    (o,) = run_text(tmp_path, HEAD + "expect:\n  - player(0).dublons == 1\n")
    assert o.status == "error" and "did you mean 'doubloons'?" in o.message


def test_a_malformed_file_gives_file_line_col():
    with pytest.raises(RulesError) as info:
        load_scenarios(FIXTURES / "malformed.yaml")
    text = str(info.value)
    assert "malformed.yaml:5:5:" in text and "unknown key 'stesp'" in text
    assert "did you mean 'steps'?" in text


def test_select_by_keyword():
    scenarios, broken = collect(discover([SCENARIOS]))
    assert not broken
    names = {sc.name for sc in select(scenarios, "harbor")}
    assert "the harbor adds 1 VP to each load" in names
    assert all("harbor" in sc.id.lower() for sc in select(scenarios, "harbor"))
    assert not any(
        "wharf" in n for n in {sc.name for sc in select(scenarios, "harbor and not wharf")}
    )


def test_cli_one_line_each_summary_and_exit_codes(capsys):
    assert main(["test", str(SCENARIOS), "-k", "harbor"]) == 0
    out = capsys.readouterr().out.splitlines()
    ok = [line for line in out if line.startswith("ok ")]
    assert len(ok) >= 5 and all("harbor" in line for line in ok)
    assert out[-1].startswith(f"{len(ok)} scenario(s): {len(ok)} passed in ")
    assert main(["test", str(FIXTURES / "wrong.yaml")]) == 1
    out = capsys.readouterr().out
    assert "FAIL  " in out and "wrong.yaml:12:9: expected player(0).doubloons == 2" in out
    assert "2 scenario(s): 1 passed, 1 failed" in out
    assert main(["test", str(FIXTURES / "malformed.yaml")]) == 1
    assert "malformed.yaml:5:5" in capsys.readouterr().out
    assert main(["test", str(SCENARIOS), "-k", "no-such-scenario-name"]) == 1
    assert main(["test", str(FIXTURES / "missing.yaml")]) == 2


def _failing(rulesets: Path) -> set[str]:
    clear_cache()
    scenarios, broken = collect(discover([SCENARIOS]))
    assert not broken
    import os

    old = os.environ.get("RULEBOOK_RULESETS")
    os.environ["RULEBOOK_RULESETS"] = str(rulesets)
    try:
        return {o.name for o in map(run_scenario, scenarios) if o.status != "pass"}
    finally:
        if old is None:
            del os.environ["RULEBOOK_RULESETS"]
        else:
            os.environ["RULEBOOK_RULESETS"] = old
        clear_cache()


def _copy_with(tmp_path: Path, old: str, new: str) -> Path:
    dest = tmp_path / "rulesets" / "puerto-rico"
    shutil.copytree(ROOT / "rulesets" / "puerto-rico", dest)
    f = dest / "ruleset.yaml"
    text = f.read_text(encoding="utf-8")
    assert text.count(old) == 1
    f.write_text(text.replace(old, new), encoding="utf-8")
    return dest.parent


# The harbor's knob in the base ruleset: the VP its `may:` offers per loading.
HARBOR_BONUS = "\n  harbor-vp: 1\n"


def test_unchanged_copy_passes_everything(tmp_path):
    rulesets = _copy_with(tmp_path, HARBOR_BONUS, HARBOR_BONUS)
    assert _failing(rulesets) == set()


def test_changing_the_harbor_bonus_fails_exactly_the_harbor_scenarios(tmp_path):
    rulesets = _copy_with(tmp_path, HARBOR_BONUS, HARBOR_BONUS.replace("1", "2"))
    assert _failing(rulesets) == {
        "the harbor adds 1 VP to each load",
        "harbor and wharf, the rulebook's example",
        "harbor and wharf, all tobacco on the wharf",
        # The New Buildings' small wharf ships through the same harbor hook
        "small wharf and harbor, per-kind, 1 VP for each kind shipped",
        "small wharf and harbor, per-load, 1 VP for the load",
        "the base game's harbor offers 1 VP a loading",
    }


def test_changing_the_office_cost_fails_exactly_its_scenario(tmp_path):
    old = "      office:\n        cost: 5\n"
    rulesets = _copy_with(tmp_path, old, old.replace("5", "6"))
    assert _failing(rulesets) == {"three quarries, office costs 3"}


def test_cli_runs_against_a_modified_copy(tmp_path, capsys):
    rulesets = _copy_with(tmp_path, HARBOR_BONUS, HARBOR_BONUS.replace("1", "2"))
    code = main(
        ["test", str(SCENARIOS / "puerto-rico" / "harbor.yaml"), "--rulesets", str(rulesets)]
    )
    import os

    os.environ.pop("RULEBOOK_RULESETS", None)
    clear_cache()
    assert code == 1
    out = capsys.readouterr().out
    assert "expected player(0).vp-chips == 4" in out and "actual: player(0).vp-chips = 5" in out


def test_pytest_collects_each_scenario_as_an_item():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(SCENARIOS),
            "--collect-only",
            "-p",
            "no:cacheprovider",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    lines = [x for x in proc.stdout.splitlines() if "::" in x]
    assert any(x.endswith("harbor.yaml::the harbor adds 1 VP to each load") for x in lines)
    assert len(lines) >= 30
