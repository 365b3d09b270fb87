"""A word of a list of words is found by the word (a word held twice is O013, naming its
positions); a path that counts list items where a name, id or value would find them is O011, a
warning that names the path to write and that ``--strict`` fails on; and the shipped examples
of house rules use no such path. A refused ``--smoke`` stack is a warning at both files' lines
in ``--json`` and ``--format github`` too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game, load_game_and_data

from .house import write_overlay

ROOT = Path(__file__).resolve().parents[2]
NOBLES = ROOT / "rulesets" / "puerto-rico" / "nobles.yaml"


def _validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", *args],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), timeout=300,
    )  # fmt: skip


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


def test_a_counted_path_warns_with_the_name_to_use_and_strict_fails(tmp_path):
    path = write_overlay(
        tmp_path,
        "counted",
        "patch:\n  flow/round/2/repeat/steps/0/each-player/steps/0/choose: {label: pick}\n"
        "remove: [tables/role-set/4/6]\n",
    )
    plain = _validate(path)
    assert plain.returncode == 0, plain.stdout
    assert plain.stdout.count("warning[O011]") == 2, plain.stdout
    named = "flow/round/choose-roles/repeat/steps/each-chooses/each-player/steps/pick-role/choose"
    assert f"use {named}" in plain.stdout
    assert "use tables/role-set/4/prospector" in plain.stdout
    strict = _validate("--strict", path)
    assert strict.returncode == 1 and "warning[O011]" in strict.stdout


def test_an_insert_at_an_index_warns_with_the_placement_to_use(tmp_path):
    path = write_overlay(tmp_path, "front", 'add:\n  flow/round/0: {log: "a round begins"}\n')
    run = _validate("--strict", path)
    assert run.returncode == 1
    assert "use 'flow/round/NAME' with 'first: true' in the entry" in run.stdout, run.stdout


def test_the_example_house_rules_use_no_counted_path():
    run = _validate("--strict", "--json", str(ROOT / "examples" / "variants"))
    report = json.loads(run.stdout.splitlines()[-1])
    assert run.returncode == 0 and report["warnings"] == 0, report["diagnostics"]


WINDROSE = """\
overlay: windrose
extends: puerto-rico
title: Every colonist on the windrose counts
replace:
  functions/windrose-colonists:
    params: [p]
    expr: p.san-juan
"""


def test_a_refused_stack_is_a_warning_at_both_files_in_json_and_github(tmp_path):
    house = tmp_path / "windrose.yaml"
    house.write_text(WINDROSE)
    theirs = next(
        i
        for i, line in enumerate(NOBLES.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("  functions/windrose-colonists:")
    )
    run = _validate(str(house), "--smoke", "1", "--json")
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
    strict = _validate(str(house), "--smoke", "1", "--json", "--strict")
    assert strict.returncode == 1 and json.loads(strict.stdout.splitlines()[-1])["ok"] is False
    github = _validate(str(house), "--smoke", "1", "--format", "github")
    assert f"::warning file={house},line=5,col=3,title=O008::stack" in github.stdout
    nobles = f"::warning file=rulesets/puerto-rico/nobles.yaml,line={theirs},col=3,title=O008::"
    assert nobles in github.stdout, github.stdout
