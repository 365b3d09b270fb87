"""Overlay paths address list items by their `name:`: a named step is found wherever it
stands, a name and a position for one item conflict like two positions, and a misspelt name
gets the names that exist. Through the real composer and engine, on the shipped San Juan."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.engine.loader import load_game

from .house import random_log, write_overlay


def _overlay(tmp_path: Path, name: str, body: str, extends: str = "san-juan") -> str:
    return write_overlay(tmp_path, name, body, extends)


def _first_lines(game, seed: int = 3, decisions: int = 40) -> list[str]:
    return random_log(game, seed, decisions)


def test_a_named_step_is_replaced_by_its_name(tmp_path):
    path = _overlay(
        tmp_path,
        "loud-governor",
        "replace:\n"
        "  flow/round/announce-governor:\n"
        "    name: announce-governor\n"
        '    log: "a new round: seat {governor} is governor"\n',
    )
    lines = _first_lines(load_game("san-juan", 3, [path]))
    assert lines[0] == "a new round: seat 0 is governor"
    assert not any(line.startswith("governor: seat") for line in lines)


def test_a_name_and_a_position_of_one_item_conflict(tmp_path):
    by_name = _overlay(
        tmp_path,
        "a",
        "patch:\n  flow/round/choose-roles/repeat/steps/pick-role/choose:\n    label: pick\n",
    )
    by_position = _overlay(
        tmp_path, "b", "patch:\n  flow/round/2/repeat/steps/1/choose:\n    label: choose one\n"
    )
    with pytest.raises(RulesError) as err:
        load_game("san-juan", 3, [by_name, by_position])
    assert "O008" in str(err.value) and "b.yaml" in str(err.value) and "a.yaml" in str(err.value)


def test_a_named_step_is_found_after_an_insert_before_it(tmp_path):
    # another overlay inserts a step at the front of the round: the positions move, the
    # names do not, so an overlay that extends it still finds its step by name
    first = _overlay(
        tmp_path,
        "first",
        'add:\n  flow/round/round-begins:\n    first: true\n    log: "a round begins"\n',
    )
    then = _overlay(
        tmp_path,
        "then",
        "replace:\n"
        "  flow/round/announce-governor:\n"
        "    name: announce-governor\n"
        '    log: "governor is seat {governor}"\n',
        extends="first",
    )
    lines = _first_lines(load_game("san-juan", 3, [first, then]))
    assert lines[:2] == ["a round begins", "governor is seat 0"]


def test_a_misspelt_name_names_the_steps_there(tmp_path):
    path = _overlay(
        tmp_path,
        "typo",
        'replace:\n  flow/round/announce-governer:\n    log: "x"\n',
    )
    with pytest.raises(RulesError) as err:
        load_game("san-juan", 3, [path])
    text = str(err.value)
    assert "O007" in text and "nor the `name:`, id or value of one of its items" in text
    assert "announce-governor" in text


def test_two_steps_of_one_list_may_not_share_a_name(tmp_path):
    root = Path(__file__).resolve().parents[2]
    text = (root / "rulesets" / "san-juan" / "ruleset.yaml").read_text(encoding="utf-8")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("- name: count-pick", "- name: next-chooser"), "utf-8")
    with pytest.raises(RulesError) as err:
        load_game(str(path), 3)
    shown = str(err.value)
    assert "R002" in shown and "the step name 'next-chooser' is already the name of step 0" in shown
