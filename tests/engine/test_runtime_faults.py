"""What a rule does wrong while a game runs is reported at the rule's file:line, with the
decision and the seat, exit 1 from every command and no traceback: a counter or bag entry
written out of its declared range, a division by zero, a missing table entry; and a declared
invariant that stops holding (E002), from the engine, `rulebook test`, `rulebook simulate
--check` and the property-test helpers.

The broken rules are overlays in fixtures/runtime/ on the toy game (tests/toy) and Puerto Rico.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.diagnostics.errors import RulesError
from interpreter.engine.invariant_checks import broken_invariants, check_invariants
from interpreter.engine.loader import load_game

HERE = Path(__file__).resolve().parent
FIX = HERE / "fixtures" / "runtime"
TOY = str(HERE.parent / "toy" / "ruleset.yaml")
MINT = str(FIX / "mint.yaml")


def play_until_fault(game, seeds=range(20)) -> RulesError:
    """Random games until a rule fails; the RulesError it raised."""
    for seed in seeds:
        s = game.new_state(seed)
        rnd = random.Random(seed)
        try:
            while not s.is_over:
                opts = s.legal_options()
                s.apply(opts[rnd.randrange(len(opts))])
        except RulesError as e:
            return e
    raise AssertionError("no game reached the broken rule")


def toy(*overlays: str, players: int = 2):
    return load_game(TOY, players=players, overlays=tuple(str(FIX / o) for o in overlays))


# -- counter ranges --------------------------------------------------------------------------
def test_a_counter_below_its_minimum_fails_at_the_rule_with_decision_and_seat():
    [d] = play_until_fault(toy("overdraw.yaml")).diagnostics
    assert d.code == "E001"
    assert (Path(d.file).name, d.line, d.column) == ("overdraw.yaml", 8, 11)
    assert d.json_path == "/phases/odd-jobs/0/do"
    assert "a rule failed at decision " in d.message
    assert "to move, option 'card:odd-job'" in d.message
    assert "'coins' of seat " in d.message and "below its minimum 0" in d.message


def test_a_declared_minimum_allows_debt_and_a_maximum_is_enforced():
    # coins may reach -3 (min: -5); `closed` (max: 1) may not reach 2: the text's second line
    [d] = play_until_fault(toy("bounds.yaml")).diagnostics
    assert Path(d.file).name == "bounds.yaml" and (d.line, d.column) == (11, 9)
    assert "'closed' of seat " in d.message and "would be 2, above its maximum 1" in d.message


def test_a_bag_entry_never_goes_below_zero():
    [d] = play_until_fault(toy("bags.yaml")).diagnostics
    assert Path(d.file).name == "bags.yaml" and d.line == 8
    assert "'basket' of seat " in d.message and "entry 'turnip', would be -1" in d.message
    assert "below its minimum 0" in d.message


def test_shipped_games_declare_the_default_floor_on_every_counter():
    game = load_game("puerto-rico", players=4)
    ranges = game.env.ranges
    assert ranges[("player", "doubloons")] == (0, None)
    assert ranges[("global", "bank")] == (0, None)
    assert all(lo == 0 for lo, _ in ranges.values())


# -- run-time faults located -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("overlay", "cause"),
    [
        ("divide.yaml", "division by zero"),
        ("missing.yaml", "no entry 7 in the table, bag or catalog it reads"),
    ],
)
def test_a_rule_fault_is_e001_at_its_file_line(overlay, cause):
    [d] = play_until_fault(toy(overlay)).diagnostics
    assert (d.code, Path(d.file).name, d.line, d.column) == ("E001", overlay, 8, 11)
    assert d.message.endswith(cause), d.message
    assert "seat " in d.message and "decision " in d.message


def _cli(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


@pytest.mark.parametrize("overlay", ["divide.yaml", "missing.yaml", "overdraw.yaml"])
def test_play_reports_e001_at_the_rule_and_exits_1(capsys, overlay):
    code, text = _cli(capsys, "play", TOY, "-p", "2", "--seed", "1", "--with", str(FIX / overlay))
    assert code == 1, text
    assert f"{overlay}:8:11: error[E001]: a rule failed at decision " in text


def test_replay_reports_e001_at_the_rule_and_exits_1(capsys, tmp_path):
    save = tmp_path / "game.json"
    assert main(["play", TOY, "-p", "2", "--seed", "1", "--save", str(save), "-q"]) == 0
    data = json.loads(save.read_text())
    data["overlays"] = [str(FIX / "divide.yaml")]
    save.write_text(json.dumps(data))
    capsys.readouterr()
    code, text = _cli(capsys, "replay", str(save))
    assert code == 1, text
    assert "divide.yaml:8:11: error[E001]: " in text and "division by zero" in text


def test_simulate_reports_e001_with_the_seed_and_exits_1(capsys, tmp_path):
    argv = ["simulate", TOY, "-p", "2", "--games", "3", "--seed", "1", "-j", "1", "-q"]
    code, text = _cli(capsys, *argv, "--with", str(FIX / "divide.yaml"), "--json")
    assert code == 1, text
    assert "divide.yaml:8:11: error[E001]: game " in text and "(seed " in text


def test_rulebook_test_reports_e001_and_exits_1(capsys, tmp_path):
    scenario = tmp_path / "divide-scenario.yaml"
    scenario.write_text(
        f"game: {TOY}\nwith: [{FIX / 'divide.yaml'}]\nplayers: 2\nseed: 1\n"
        "scenarios:\n  - name: odd jobs\n    steps:\n      - auto: [card:odd-job]\n"
    )
    code, text = _cli(capsys, "test", str(scenario))
    assert code == 1, text
    assert "divide.yaml:8:11: error[E001]: a rule failed at decision " in text


# -- invariants ------------------------------------------------------------------------------
def test_invariants_are_compiled_with_their_positions():
    game = load_game("puerto-rico", players=2, overlays=("nobles",))
    names = [i.name for i in game.rules.invariants]
    assert names[:6] == ["doubloons", "goods", "colonists", "vp-chips", "tiles", "buildings"]
    assert "nobles" in names
    colonists = next(i for i in game.rules.invariants if i.name == "colonists")
    assert Path(colonists.file).name == "nobles.yaml" and colonists.line
    assert colonists.json_path == "/invariants/colonists/expr"
    assert broken_invariants(game.new_state(3)) == []


def test_minted_coins_break_the_doubloons_invariant_in_the_engine_and_the_test_helpers():
    from tests.puerto_rico.helpers import check_invariants as pr_check, random_game

    game = load_game("puerto-rico", players=3, overlays=(MINT,))
    with pytest.raises(RulesError) as caught:
        random_game(game, 1, check="all")
    [d] = caught.value.diagnostics
    assert d.code == "E002" and d.json_path == "/invariants/doubloons/expr"
    assert Path(d.file).name == "ruleset.yaml" and d.line
    assert "invariant 'doubloons' does not hold after decision " in d.message
    s = game.new_state(1)
    pr_check(s, 3)  # holds before the first round ends
    check_invariants(s)


def test_rulebook_test_fails_the_scenario_at_the_step_that_broke_an_invariant(capsys):
    code, text = _cli(capsys, "test", str(FIX / "mint-scenario.yaml"))
    assert code == 1, text
    assert "FAIL" in text and "mint-scenario.yaml:9:9:" in text
    assert "error[E002]: invariant 'doubloons' does not hold after decision 9" in text
    assert "puerto-rico/ruleset.yaml:" in text


def test_simulate_check_stops_at_a_broken_invariant(capsys, tmp_path):
    argv = ["simulate", "puerto-rico", "-p", "3", "--games", "4", "--seed", "5", "-q"]
    argv += ["--with", MINT, "--out", str(tmp_path / "r.json"), "--check"]
    code, text = _cli(capsys, *argv, "-j", "1")
    assert code == 1, text
    assert "error[E002]: game 0 (seed 5): invariant 'doubloons' does not hold after" in text
    assert "puerto-rico/ruleset.yaml:" in text
    # the same through worker processes (the error crosses the process boundary whole)
    code, text2 = _cli(capsys, *argv, "-j", "2")
    assert code == 1 and text2 == text
    # without --check the same games run to the end
    argv.remove("--check")
    assert _cli(capsys, *argv, "-j", "1")[0] == 0


def test_simulate_check_passes_on_the_shipped_rules(capsys, tmp_path):
    argv = ["simulate", "san-juan", "-p", "3", "--games", "3", "--seed", "2", "-q", "-j", "1"]
    code, text = _cli(capsys, *argv, "--with", "new-buildings", "--check", "--json")
    assert code == 0, text


def test_an_invariant_that_fails_to_evaluate_is_reported():
    s = toy("not-a-condition.yaml").new_state(1)
    found = {d.json_path: d.message for d in broken_invariants(s)}
    assert found == {
        "/invariants/price": "invariant 'price' cannot be evaluated: no entry 12 in the table, "
        "bag or catalog it reads after the set-up",
    }


def test_an_invariant_that_gives_a_number_is_refused_at_load():
    with pytest.raises(RulesError) as caught:
        toy("numbers.yaml")
    found = [(d.code, d.line, d.json_path) for d in caught.value.diagnostics]
    assert found == [
        ("D008", 6, "/invariants/a"),
        ("D008", 7, "/invariants/b"),
        ("D008", 8, "/invariants/c/expr"),
    ]
    assert "a condition must be true or false, got a whole number of 0 or more" in str(caught.value)
