"""A loaded game holds its composed rule files as one typed, immutable `Ruleset`
(interpreter/ruleset/), every object at the file, line and column where it was written, even
when an overlay wrote it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.ruleset.header import read_header
from interpreter.ruleset.nodes import Pos
from interpreter.ruleset.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "rulesets" / "puerto-rico" / "ruleset.yaml"
OVERLAY = ROOT / "rulesets" / "puerto-rico" / "new-buildings.yaml"


def _written(pos: Pos) -> str:
    """The text from a position on to the end of its line."""
    assert pos.file is not None and pos.line is not None and pos.column is not None, pos
    line = Path(pos.file).read_text(encoding="utf-8").splitlines()[pos.line - 1]
    return line[pos.column - 1 :]


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_game("puerto-rico", 3, ["new-buildings"]).ruleset


def test_a_loaded_game_holds_its_typed_rules(ruleset: Ruleset) -> None:
    assert ruleset.header.id == "puerto-rico"
    assert ruleset.header.players.min <= 3 <= ruleset.header.players.max
    island = ruleset.presentation.draw["island"]
    assert (island.as_, island.occupants) == ("grid", ("workers",))
    assert "island" in {f.name for f in ruleset.fields if f.scope == "player"}


def test_each_declaration_carries_where_it_was_written(ruleset: Ruleset) -> None:
    island = ruleset.presentation.draw["island"]
    assert Path(str(island.pos.file)).resolve() == BASE.resolve()
    assert _written(island.pos).startswith("island: {as: grid")
    table = next(iter(ruleset.tables.values()))
    assert _written(table.pos).startswith(f"{table.name}:")
    option = next(iter(ruleset.header.options.values()))
    assert _written(option.pos).startswith(f"{option.name}:")


def test_an_entry_an_overlay_added_is_at_the_overlay_line(ruleset: Ruleset) -> None:
    entry = ruleset.catalogs["buildings"].entries["aqueduct"]
    assert Path(str(entry.pos.file)).resolve() == OVERLAY.resolve()
    assert _written(entry.pos).startswith("catalogs/buildings/entries/aqueduct:")
    assert entry.catalog == "buildings" and "cost" in entry.attrs  # defaults under its own


def test_the_typed_rules_cannot_be_changed(ruleset: Ruleset) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.header.title = "another"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ruleset.catalogs["buildings"].entries["aqueduct"].attrs["cost"] = 0  # type: ignore[index]


def test_one_files_header_alone() -> None:
    head = read_header(OVERLAY)
    assert (head.kind, head.id, head.extends) == ("overlay", "new-buildings", "puerto-rico")
    assert str(head.pos).startswith(str(OVERLAY))
