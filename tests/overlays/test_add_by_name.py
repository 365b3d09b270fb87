"""``add`` places a new step or option by name: ``before:``, ``after:``, ``first: true`` or at
the end; a placement naming no item is O012 with the nearest names; items placed at one spot by
two overlays, or next to one another overlay removes, conflict (O008). Through the real
composer and engine, on the shipped Puerto Rico."""

from __future__ import annotations

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game, load_game_and_data
from interpreter.load.schema import to_plain

from .house import random_log, write_overlay

ROUND = "flow/round"
OPTIONS = (
    "flow/round/choose-roles/repeat/steps/each-chooses/each-player/steps/pick-role/choose/options"
)


PLACED = f"""\
add:
  {ROUND}/at-the-end:
    log: "step: at the end"
  {ROUND}/at-the-front:
    first: true
    log: "step: at the front"
  {ROUND}/before-roles:
    before: choose-roles
    log: "step: before the roles"
  {ROUND}/after-the-front:
    after: at-the-front
    log: "step: after the front"
  {ROUND}/before-next-governor:
    before: next-governor
    log: "step: before the next governor"
"""


def test_placed_steps_run_where_their_placement_says(tmp_path):
    path = write_overlay(tmp_path, "placed", PLACED)
    _game, data = load_game_and_data("puerto-rico", 3, [path])
    names = [step.get("name") for step in data["flow"]["round"]]
    assert names == [
        "at-the-front",
        "after-the-front",
        "announce-governor",
        "reset-picks",
        "before-roles",
        "choose-roles",
        "before-next-governor",
        "next-governor",
        "at-the-end",
    ]
    # the placement is the overlay's: the composed step is its name and its rule
    assert to_plain(data["flow"]["round"][0]) == {
        "name": "at-the-front",
        "log": "step: at the front",
    }
    lines = random_log(load_game("puerto-rico", 3, [path]))
    mine = [line for line in lines if line.startswith("step: ")]
    first_round = [
        "step: at the front",
        "step: after the front",
        "step: before the roles",
        "step: before the next governor",
        "step: at the end",
    ]
    assert mine[:5] == first_round and mine[5:7] == first_round[:2], mine
    # the governor's line comes between the front steps and the roles
    governor = next(i for i, line in enumerate(lines) if "governor" in line and "step" not in line)
    assert lines.index("step: after the front") < governor < lines.index("step: before the roles")
    first_role = next(i for i, line in enumerate(lines) if " takes " in line)
    assert lines.index("step: before the roles") < first_role


def test_a_placement_naming_no_step_is_o012_with_the_nearest_names(tmp_path):
    path = write_overlay(
        tmp_path,
        "typo",
        f'add:\n  {ROUND}/income:\n    before: reset-pics\n    log: "income"\n',
    )
    with pytest.raises(RulesError) as err:
        load_game("puerto-rico", 3, [path])
    (diag,) = err.value.diagnostics
    assert diag.code == "O012" and (diag.line, diag.column) == (6, 13)
    assert "'before: reset-pics'" in diag.message and "did you mean 'reset-picks'" in diag.hint
    assert "announce-governor" in diag.hint  # the items there


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("    first: true\n    after: reset-picks\n    log: x\n", "2 placements"),
        ("    first: yes-please\n    log: x\n", "'first' takes true"),
        ("    name: other\n    log: x\n", "has name 'other'"),
    ],
)
def test_a_malformed_add_by_name_is_o012(tmp_path, entry, words):
    path = write_overlay(tmp_path, "bad", f"add:\n  {ROUND}/income:\n{entry}")
    with pytest.raises(RulesError) as err:
        load_game("puerto-rico", 3, [path])
    assert [d.code for d in err.value.diagnostics] == ["O012"]
    assert words in err.value.diagnostics[0].message


def test_an_existing_name_cannot_be_added_again(tmp_path):
    path = write_overlay(tmp_path, "again", f'add:\n  {ROUND}/reset-picks:\n    log: "x"\n')
    with pytest.raises(RulesError) as err:
        load_game("puerto-rico", 3, [path])
    assert "O006" in str(err.value) and "has an item 'reset-picks' already" in str(err.value)


def test_two_overlays_placing_steps_at_one_spot_conflict(tmp_path):
    # after announce-governor and before reset-picks are the same gap of the base round
    a = write_overlay(
        tmp_path, "a", f"add:\n  {ROUND}/a-step:\n    after: announce-governor\n    log: a\n"
    )
    b = write_overlay(
        tmp_path, "b", f"add:\n  {ROUND}/b-step:\n    before: reset-picks\n    log: b\n"
    )
    with pytest.raises(RulesError) as err:
        load_game("puerto-rico", 3, [a, b])
    (diag,) = err.value.diagnostics
    assert diag.code == "O008" and diag.file == b and "a.yaml" in diag.message
    assert "add items at the same place in one list" in diag.message
    # one that extends the other composes on its result: no conflict, in the order given
    c = write_overlay(
        tmp_path, "c", f"add:\n  {ROUND}/c-step:\n    before: reset-picks\n    log: c\n", "a"
    )
    _game, data = load_game_and_data("puerto-rico", 3, [a, c])
    names = [step.get("name") for step in data["flow"]["round"]][:4]
    assert names == ["announce-governor", "a-step", "c-step", "reset-picks"]


def test_a_step_placed_next_to_one_another_overlay_removes_conflicts(tmp_path):
    placed = write_overlay(
        tmp_path, "placed", f"add:\n  {ROUND}/x:\n    after: reset-picks\n    log: x\n"
    )
    gone = write_overlay(tmp_path, "gone", f"remove: [{ROUND}/reset-picks]\n")
    with pytest.raises(RulesError) as err:
        load_game("puerto-rico", 3, [gone, placed])
    (diag,) = err.value.diagnostics
    assert diag.code == "O008" and "place an item next to one that goes" in diag.message
    assert "gone.yaml" in diag.message and diag.file == placed


def test_an_option_is_added_by_id_and_found_by_its_family(tmp_path):
    path = write_overlay(
        tmp_path,
        "rest",
        f"add:\n"
        f"  {OPTIONS}/rest:\n"
        f'    log: "seat {{chooser}} rests"\n'
        f"    do: chooser.doubloons += 1\n"
        f"patch:\n"
        f'  {OPTIONS}/role: {{log: "seat {{chooser}} picks the {{r}}"}}\n',
    )
    _game, data = load_game_and_data("puerto-rico", 3, [path])
    options = data["flow"]["round"][2]["repeat"]["steps"][0]["each-player"]["steps"][0]["choose"][
        "options"
    ]
    assert [o["id"] for o in options] == ["role:{r}", "rest"]
    assert options[0]["log"] == "seat {chooser} picks the {r}"
    state = load_game("puerto-rico", 3, [path]).new_state(1)
    assert "rest" in [str(o) for o in state.legal_options()]
