"""The base rulesets keep an extension point for each rule a house rule used to copy (who may
take a quarry, a start bonus by seat and player count, San Juan's building cost): each house
rule of tests/overlays/house-rules/ that fills one is a patch of a few lines naming a point the
base lists under `extension-points:`, passes `rulebook validate --strict` through the real CLI,
and docs/authoring.md's table of extension points names every point each base lists. The
scenarios that play them are tests/scenarios/*/extension-points.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "tests" / "overlays" / "house-rules"
DOC = ROOT / "docs" / "authoring.md"

# house rule -> (game, the extension point it fills)
FILLED = {
    "pr-two-quarries.yaml": ("puerto-rico", "quarry-allowed"),
    "pr-late-seat-doubloons.yaml": ("puerto-rico", "start-doubloons-of"),
    "sj-cheap-first-buildings.yaml": ("san-juan", "house-discount"),
}


def _points(game: str) -> list[str]:
    data = YAML(typ="safe").load((ROOT / "rulesets" / game / "ruleset.yaml").read_text("utf-8"))
    return [str(name) for name in data["extension-points"]]


@pytest.mark.parametrize("name", sorted(FILLED))
def test_a_house_rule_fills_an_extension_point_in_a_few_lines(name, capsys):
    game, point = FILLED[name]
    assert point in _points(game)
    path = HOUSE / name
    text = path.read_text(encoding="utf-8")
    rules = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(rules) <= 6, rules  # overlay, extends, title, patch, the one line
    assert f"functions/{point}:" in text
    assert main(["validate", "--strict", str(path)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("game", ["puerto-rico", "san-juan"])
def test_the_authoring_guide_lists_every_extension_point(game):
    doc = DOC.read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if line.startswith(f"| {game} |")]
    listed = " ".join(rows)
    missing = [p for p in _points(game) if f"`{p}`" not in listed and f"`{p}(" not in listed]
    assert not missing, f"docs/authoring.md lists no extension point {missing} of {game}"
