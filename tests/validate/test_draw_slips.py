"""Slips in the board's drawing (`presentation: cards:` and `draw:`): a one-line edit naming a
state field, catalog, attribute, piece field or table that does not exist is an R008 error of
`rulebook validate` at its line and column, with a did-you-mean."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.check.pipeline import validate

ROOT = Path(__file__).resolve().parents[2]
PR = "rulesets/puerto-rico/ruleset.yaml"
NOBLES = "rulesets/puerto-rico/nobles.yaml"
SJ = "rulesets/san-juan/ruleset.yaml"
CANAL = "examples/games/canal-town/ruleset.yaml"


@dataclass(frozen=True)
class Slip:
    file: str
    old: str
    new: str
    mark: str  # the error points at the first occurrence of this text in the edited line
    guess: str | None  # the did-you-mean


SLIPS = {
    "unknown-field": Slip(
        PR, "    tile-stack: stack", "    tile-stak: stack", "tile-stak", "tile-stack"
    ),
    "unknown-catalog": Slip(
        PR,
        "    buildings: {cost: cost, vp: vp, kind: kind}",
        "    buildngs: {cost: cost}",
        "buildngs",
        "buildings",
    ),
    "unknown-card-attribute": Slip(
        SJ, "cards: {cost: cost, vp: vp, kind: kind}", "cards: {cost: cots, vp: vp}", "cots", "cost"
    ),
    "unknown-spaces-table": Slip(
        CANAL,
        "town: {as: grid, spaces: town-size}",
        "town: {as: grid, spaces: twon-size}",
        "twon-size",
        "town-size",
    ),
    "unknown-capacity": Slip(
        PR,
        "ships: {as: slots, capacity: capacity,",
        "ships: {as: slots, capacity: capacty,",
        "capacty",
        "capacity",
    ),
    "unknown-width-attribute": Slip(
        PR,
        "width: spaces, capacity: circles",
        "width: spaced, capacity: circles",
        "spaced",
        "spaces",
    ),
    "unknown-marked-field": Slip(
        NOBLES,
        "presentation/draw/city: {marked: nobles}",
        "presentation/draw/city: {marked: nobels}",
        "nobels",
        "nobles",
    ),
    "unknown-fill-field": Slip(
        PR, "fill: load, content: cargo", "fill: lode, content: cargo", "lode", "load"
    ),
    "unknown-occupant-field": Slip(
        PR, "occupants: [workers]}", "occupants: [worker]}", "worker", "workers"
    ),
    "unknown-tile-table": Slip(
        SJ,
        "{as: tile, table: tile-prices}",
        "{as: tile, table: tile-price}",
        "tile-price",
        "tile-prices",
    ),
    "unknown-track-max": Slip(
        PR,
        "{as: track, max: vp-chips-start}",
        "{as: track, max: vp-chip-start}",
        "vp-chip-start",
        "vp-chips-start",
    ),
}


def _mutated_copy(tmp_path: Path, slip: Slip) -> tuple[Path, int, int]:
    """The slip's folder copied with the one edit; the path, line and column of the mark."""
    folder = (ROOT / slip.file).parent
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("*.py", "scenarios"))
    path = copy / Path(slip.file).name
    text = path.read_text()
    assert slip.old in text, slip.old
    text = text.replace(slip.old, slip.new, 1)
    path.write_text(text)
    offset = text.index(slip.new) + slip.new.index(slip.mark)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return path, line, column


@pytest.mark.parametrize("name", list(SLIPS))
def test_a_drawing_slip_is_an_error_at_its_place(name, tmp_path):
    slip = SLIPS[name]
    path, line, column = _mutated_copy(tmp_path, slip)
    report = validate([path])
    errors = [d for d in report.diagnostics if d.severity == "error"]
    here = [d for d in errors if d.code == "R008" and Path(d.file).resolve() == path.resolve()]
    assert here, f"{name}: no R008; got:\n" + "\n".join(d.format() for d in errors)
    [error] = here
    assert (error.line, error.column) == (line, column), error.format()
    assert f"'{slip.mark}' does not exist" in error.message
    assert error.hint == f"did you mean '{slip.guess}'?"


def test_the_shipped_drawings_name_only_what_exists():
    report = validate([ROOT / PR, ROOT / NOBLES, ROOT / SJ, ROOT / CANAL])
    assert not [d for d in report.diagnostics if d.code == "R008"]
