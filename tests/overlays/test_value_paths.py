"""A word of a list of words is found by the word (a word held twice is O013, naming its
positions); a path that counts list items where a name, id or value would find them is O011, an
error that names the item the position finds now, shows its first lines and gives the path to
write; and the shipped examples of house rules use no such path. A refused ``--smoke`` stack is
a warning at both files' lines in ``--json`` and ``--format github`` too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.validate_runs import WINDROSE, validate_cli
from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game, load_game_and_data

from .house import write_overlay

ROOT = Path(__file__).resolve().parents[2]
NOBLES = ROOT / "rulesets" / "puerto-rico" / "nobles.yaml"


def test_words_of_a_list_are_removed_and_replaced_by_the_word(tmp_path):
    path = write_overlay(
        tmp_path,
        "words",
        "remove: [tables/role-set/5/prospector, tables/role-set/5/prospector-2]\n"
        "replace:\n  tables/ship-set/5/ship-8: ship-7\n",
    )
    _game, data = load_game_and_data("puerto-rico", 5, [path])
    assert list(data["tables"]["role-set"][5]) == [
        "settler", "mayor", "builder", "craftsman", "trader", "captain",
    ]  # fmt: skip
    assert list(data["tables"]["ship-set"][5]) == ["ship-6", "ship-7", "ship-7"]
    state = load_game("puerto-rico", 5, [path]).new_state(1)
    assert not any("prospector" in str(o) for o in state.legal_options())


def test_a_word_held_twice_is_o013_naming_its_positions(tmp_path):
    path = write_overlay(tmp_path, "twice", "remove: [tables/start-tiles/3/indigo-plantation]\n")
    with pytest.raises(RulesError) as err:
        load_game("puerto-rico", 3, [path])
    (diag,) = err.value.diagnostics
    assert diag.code == "O013" and (diag.line, diag.column) == (4, 10)
    assert "'indigo-plantation' is the value of items 0, 1" in diag.message


def test_a_counted_path_is_an_error_naming_the_item_there_and_the_path_to_write(tmp_path):
    path = write_overlay(
        tmp_path,
        "counted",
        "patch:\n  flow/round/2/repeat/steps/0/each-player/steps/0/choose: {label: pick}\n"
        "remove: [tables/role-set/4/6]\n",
    )
    run = validate_cli(path)
    assert run.returncode == 1, run.stdout
    assert run.stdout.count("error[O011]") == 2, run.stdout
    assert "warning" not in run.stdout
    # the item the position finds now, its first lines, and the path by name
    where = "item 0 of flow/round/2/repeat/steps/0/each-player/steps"
    assert f"{where} is now the item named 'pick-role'" in run.stdout
    assert "which reads: name: pick-role | choose: {...}" in run.stdout
    named = "flow/round/choose-roles/repeat/steps/each-chooses/each-player/steps/pick-role/choose"
    assert f"if that is the item you mean, write {named}" in run.stdout
    assert "item 6 of tables/role-set/4 is now 'prospector'" in run.stdout
    assert "write tables/role-set/4/prospector" in run.stdout


def test_an_insert_at_an_index_is_an_error_with_the_placement_to_use(tmp_path):
    path = write_overlay(tmp_path, "front", 'add:\n  flow/round/0: {log: "a round begins"}\n')
    run = validate_cli(path)
    assert run.returncode == 1 and "error[O011]" in run.stdout, run.stdout
    assert "item 0 of flow/round is now the item named 'announce-governor'" in run.stdout
    assert "add 'flow/round/NAME' with 'first: true' in the entry" in run.stdout, run.stdout


# the deck built and shuffled in one step (written when the set-up was a single step)
DECK = """\
replace:
  flow/setup/0/do: |
    for c in cards:
      for i in range(copies(c)):
        push(deck, c)
    shuffle(deck)
"""


def test_a_path_written_for_another_version_of_a_list_names_what_it_would_change(tmp_path):
    """Written when San Juan's set-up was one step, `flow/setup/0/do` now finds the step
    `first-governor`: the overlay would build the deck twice. It is refused at the overlay's
    line, naming that step and showing its first lines, not reported as an invariant broken
    at the base's line; the named path is the fix, and with it the game sets up."""
    path = write_overlay(tmp_path, "one-step-deck", DECK, extends="san-juan")
    run = validate_cli(path)
    assert run.returncode == 1
    errors = [line for line in run.stdout.splitlines() if "error[" in line]
    assert len(errors) == 1 and errors[0].startswith(f"{path}:5:3: error[O011]"), run.stdout
    assert "item 0 of flow/setup is now the item named 'first-governor'" in errors[0]
    assert "rulesets/san-juan/ruleset.yaml:" in errors[0]
    assert "which reads: name: first-governor | do: governor = 0" in errors[0]
    assert "write flow/setup/first-governor/do" in errors[0]
    assert "E002" not in run.stdout
    with pytest.raises(RulesError) as err:
        load_game("san-juan", 3, [path])
    assert [d.code for d in err.value.diagnostics] == ["O011"]
    fixed = write_overlay(
        tmp_path,
        "named-deck",
        DECK.replace("flow/setup/0/do", "flow/setup/build-deck/do"),
        extends="san-juan",
    )
    assert validate_cli("--strict", fixed).returncode == 0


def test_a_refused_stack_is_a_warning_at_both_files_in_json_and_github(tmp_path):
    house = tmp_path / "windrose.yaml"
    house.write_text(WINDROSE)
    theirs = next(
        i
        for i, line in enumerate(NOBLES.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("  functions/windrose-colonists:")
    )
    run = validate_cli(str(house), "--smoke", "1", "--json")
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout.splitlines()[-1])
    refused = [d for d in report["diagnostics"] if "refused" in d["message"]]
    assert refused and all(d["severity"] == "warning" and d["code"] == "O008" for d in refused)
    at_mine = [d for d in refused if d["file"] == str(house)]
    at_theirs = [d for d in refused if d["file"].endswith("rulesets/puerto-rico/nobles.yaml")]
    assert {(d["line"], d["column"]) for d in at_mine} == {(5, 3)}
    assert {(d["line"], d["column"]) for d in at_theirs} == {(theirs, 3)}
    assert any("stack puerto-rico + nobles + windrose refused" in d["message"] for d in at_mine)
    assert all(f"clashes with {house}:5:3" in d["message"] for d in at_theirs)
    strict = validate_cli(str(house), "--smoke", "1", "--json", "--strict")
    assert strict.returncode == 1 and json.loads(strict.stdout.splitlines()[-1])["ok"] is False
    github = validate_cli(str(house), "--smoke", "1", "--format", "github")
    assert f"::warning file={house},line=5,col=3,title=O008::stack" in github.stdout
    nobles = f"::warning file=rulesets/puerto-rico/nobles.yaml,line={theirs},col=3,title=O008::"
    assert nobles in github.stdout, github.stdout
