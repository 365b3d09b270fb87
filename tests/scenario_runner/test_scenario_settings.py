"""Issue 27, scenarios for authors who change rules: `forced: ask`, `optional: take | decline`,
forced moves logged with their seat, a set-up that places a unique card wherever it is now,
`rulebook test` and `rulebook validate` agreeing on `seat N may not`, a failing step naming the
moves the engine took before it, and a warning for a quantity checked before an optional effect.

Each runs the shipped rulesets through the scenario files in tests/scenarios/*/scenario-settings
.yaml and tests/scenario_runner/house-rule/, and breaks them to see each feature fail."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from interpreter.check.pipeline import validate
from interpreter.cli.test_cmd import json_report
from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game
from interpreter.engine.machine import only_choice_line
from interpreter.scenario import load_scenarios, run_scenario, text_report

ROOT = Path(__file__).resolve().parents[2]
PR = ROOT / "tests" / "scenarios" / "puerto-rico" / "scenario-settings.yaml"
SJ = ROOT / "tests" / "scenarios" / "san-juan" / "scenario-settings.yaml"
HOUSE = ROOT / "tests" / "scenario_runner" / "house-rule"


def _findings(paths: list[Path]) -> list:
    """validate's diagnostics but the stacks it refuses: the house rule removes the factory,
    which The New Buildings' fixed selection names, so it cannot join that expansion (a
    warning at both files, tests/validate/test_validate_project.py)."""
    found = validate(paths).diagnostics
    return [d for d in found if not (d.severity == "warning" and " refused: " in d.message)]


ASKED = "forced ask, a seat with nothing to sell is asked its only option"
ASKED_STEP = "forced ask on one step, the engine takes the others"
LOGGED = "a forced move is logged with its seat"
TAKE = "optional take, the captain's privilege taken on the way"
DECLINE = "optional decline, the captain's privilege declined on the way"
STEP_OPTIONAL = "optional on one step"


def _outcomes(path: Path) -> dict[str, object]:
    return {o.name: o for o in map(run_scenario, load_scenarios(path))}


def _edited(tmp_path: Path, source: Path, old: str, new: str, count: int = 1) -> Path:
    """A copy of scenario file `source` with `old` replaced by `new` (`count` times)."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == count, old
    dest = tmp_path / source.name
    dest.write_text(text.replace(old, new), encoding="utf-8")
    return dest


def test_the_settings_scenarios_pass_without_warnings():
    for path in (PR, SJ, HOUSE / "no-factory.yaml"):
        for name, o in _outcomes(path).items():
            assert (name, o.status, o.warnings) == (name, "pass", []), o.message


def test_the_settings_validate_clean():
    assert [d.format() for d in _findings([PR, SJ, HOUSE])] == []


def test_a_setting_with_a_wrong_value_is_refused_at_its_line(tmp_path):
    f = _edited(tmp_path, PR, "    forced: ask\n", "    forced: sometimes\n")
    with pytest.raises(RulesError) as info:
        load_scenarios(f)
    (d,) = info.value.diagnostics
    assert d.line == 12 and "sometimes" in d.message


# -- 1. forced: ask, and 6. the moves the engine took before a failing step -----------------
def test_without_forced_ask_the_only_option_is_taken_and_the_failure_names_it(tmp_path):
    f = _edited(tmp_path, PR, "    forced: ask\n", "")
    o = _outcomes(f)[ASKED]
    assert o.status == "fail"
    assert "expected seat 0 may: [pass]\n    but seat 1 is to decide" in o.message
    assert (
        "before this step the engine took seat 0's only option `Pass (sell a good)`, seat 1's "
        "only option `Pass (sell a good)`, seat 2's only option `Pass (sell a good)`, seat 3's "
        "only option `Pass (sell a good)` itself"
    ) in o.message


def test_forced_ask_on_a_step_stops_before_that_step_only(tmp_path):
    f = _edited(tmp_path, PR, ", forced: ask}", "}", count=2)
    o = _outcomes(f)[ASKED_STEP]
    assert o.status == "fail"
    assert "the engine took seat 0's only option `Pass (sell a good)`" in o.message


def test_forced_ask_is_the_engine_asking_every_decision():
    sc = next(sc for sc in load_scenarios(PR) if sc.name == ASKED)
    assert sc.forced == "ask"
    o = run_scenario(sc)
    assert o.status == "pass"
    assert not any("(the only choice)" in line for line in o.steps)


# -- 2. optional: take | decline -------------------------------------------------------------
def test_without_optional_take_the_privilege_is_still_a_question(tmp_path):
    f = _edited(tmp_path, PR, "    optional: take\n", "")
    o = _outcomes(f)[TAKE]
    assert o.status == "fail"
    assert "expected player(0).vp-chips == 2\n    actual: player(0).vp-chips = 1" in o.message


def test_optional_decline_and_take_give_different_games(tmp_path):
    f = _edited(tmp_path, PR, "    optional: decline\n", "    optional: take\n")
    o = _outcomes(f)[DECLINE]
    assert o.status == "fail"
    assert "actual: player(0).vp-chips = 2" in o.message
    assert any("> seat 0: privilege-vp (optional: take)" in line for line in o.steps)


def test_optional_on_a_step(tmp_path):
    f = _edited(tmp_path, PR, ", optional: take}", "}")
    assert _outcomes(f)[STEP_OPTIONAL].status == "fail"


def test_optional_leaves_a_question_the_next_step_answers(tmp_path):
    # `optional: decline` would pass; the step takes the privilege itself
    f = _edited(
        tmp_path,
        PR,
        "      - expect: player(0).vp-chips == 1     # 1 barrel, the privilege declined\n",
        "      - seat 0: privilege-vp\n      - expect: player(0).vp-chips == 2\n",
    )
    o = _outcomes(f)[DECLINE]
    assert o.status == "fail"  # the last check still counts the declined privilege
    assert "actual: player(0).vp-chips = 3" in o.message


# -- 3. a forced move's log line names its seat --------------------------------------------
def test_a_forced_move_is_logged_with_its_seat_in_a_whole_game():
    game = load_game("puerto-rico", 4)
    state = game.new_state(5)
    rng = random.Random(5)
    for _ in range(300):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_options()))
    forced = [(seat, text) for _r, seat, text in state.log if text.endswith("(the only choice)")]
    assert forced
    for seat, text in forced:
        assert text.startswith(f"seat {seat}"), text


def test_a_text_that_names_its_seat_is_not_named_twice():
    assert only_choice_line(2, "pass") == "seat 2: pass (the only choice)"
    assert only_choice_line(1, "seat 1 sells a ware") == "seat 1 sells a ware (the only choice)"
    assert only_choice_line(None, "deal") == "deal (the only choice)"


# -- 4. a set-up places a unique card wherever it is now -------------------------------------
def test_a_set_up_swaps_a_card_out_of_a_hand_and_puts_one_back_in_the_deck():
    outcomes = _outcomes(SJ)
    moved, replaced = outcomes.values()
    assert (moved.status, replaced.status) == ("pass", "pass")
    assert any("took 1 palace from seat 1 hand, which got" in line for line in moved.steps)
    assert any("put 2 palace back in deck" in line for line in replaced.steps)


def test_a_card_that_is_nowhere_to_take_is_still_refused(tmp_path):
    # three palaces: the two copies and one more than there are
    f = _edited(
        tmp_path,
        SJ,
        "seat 0: {hand: [palace, indigo-plant, sugar-mill, sugar-mill]}",
        "seat 0: {hand: [palace, palace, palace, sugar-mill]}",
    )
    o = next(iter(_outcomes(f).values()))
    assert o.status == "error"
    assert "'palace': the set-up leaves 5 in the game, 3 more than the 2 there are" in o.message
    assert "nor enough in seats' fields it does not set" in o.message
    assert "it is now in: seat 0 hand, seat 1 hand" in o.message


# -- 5. `rulebook test` and `rulebook validate` agree on `seat N may not` --------------------
def test_may_not_of_a_removed_component_passes_both():
    assert [d.format() for d in _findings([HOUSE])] == []
    (o,) = _outcomes(HOUSE / "no-factory.yaml").values()
    assert o.status == "pass"


def test_a_misspelt_may_not_is_refused_by_both(tmp_path):
    folder = tmp_path / "house-rule"
    shutil.copytree(HOUSE, folder)
    f = _edited(folder, HOUSE / "no-factory.yaml", "may not: build:factory", "may not: build:harbr")
    (d,) = _findings([folder])
    assert (d.code, d.line) == ("T002", 15)
    assert "'build:harbr' is not an option this game offers" in d.message
    assert d.hint == "did you mean 'build:harbor'?"
    (o,) = _outcomes(f).values()
    assert o.status == "error"
    assert "'build:harbr' is not an option this game offers (did you mean 'build:harbor'?)" in (
        o.message
    )


# -- 7. a quantity checked before an optional effect ----------------------------------------
def test_a_check_before_the_optional_effect_warns(tmp_path):
    f = _edited(
        tmp_path,
        PR,
        "      - {expect: player(0).vp-chips == 2, optional: take}",
        "      - expect: player(0).vp-chips == 1",
    )
    o = _outcomes(f)[STEP_OPTIONAL]
    assert o.status == "pass"
    (warning,) = o.warnings
    assert "`player(0).vp-chips == 1` is checked while seat 0's optional question" in warning
    assert "answered with `privilege-vp` it would fail" in warning
    assert warning in text_report.line(o)
    # and `rulebook test --json` carries it
    doc = json_report([o], selected=1, files=1, seconds=0.0, ok=True)
    assert doc["warnings"] == 1 and doc["scenarios"][0]["warnings"] == [warning]


def test_no_warning_when_the_next_step_answers_the_question(tmp_path):
    f = _edited(
        tmp_path,
        PR,
        "      - {expect: player(0).vp-chips == 2, optional: take}",
        "      - expect: player(0).vp-chips == 1\n      - seat 0: privilege-vp",
    )
    o = _outcomes(f)[STEP_OPTIONAL]
    assert (o.status, o.warnings) == ("pass", [])
