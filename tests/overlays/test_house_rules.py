"""docs/variants.md shows a house rule of every kind a player group typically writes, and each is
real: the overlay in the doc is the file in examples/variants/ word for word, every overlay there
passes `rulebook validate --strict` (the doc's own example runs it: a refused stack is a warning,
so strict fails on one), and each has a scenario file beside it, in examples/variants/scenarios/,
that `rulebook test` passes through the real engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "examples" / "variants"
DOC = ROOT / "docs" / "variants.md"

# The kinds of house rule the issue that asked for this listed, in its words.
KINDS = [
    "starting resources by seat",
    "a bigger face-up row",
    "a component removed",
    "the trading house changed",
    "an end condition removed",
    "income at the start of each round",
    "a once-per-game personal power",
    "a scoring value changed",
    "a different starting building",
    "a privilege changed",
    "a building restricted",
    "a shorter game",
]

_ROW = re.compile(r"^\|\s*([^|]+?)\s*\|\s*`(examples/variants/[\w.-]+\.yaml)`", re.MULTILINE)
_SHOWN = re.compile(r"`(examples/variants/[\w.-]+\.yaml)`:\n\n```yaml\n(.*?)```", re.DOTALL)


def _kinds_table() -> dict[str, str]:
    return {kind.lower(): file for kind, file in _ROW.findall(DOC.read_text(encoding="utf-8"))}


def _overlays() -> list[Path]:
    return sorted(VARIANTS.glob("*.yaml"))


def test_the_doc_has_a_house_rule_of_every_kind():
    table = _kinds_table()
    missing = [kind for kind in KINDS if kind not in table]
    assert not missing, f"docs/variants.md has no example of: {missing}"
    for file in table.values():
        assert (ROOT / file).is_file(), file


def test_every_overlay_the_doc_shows_is_the_file_itself():
    shown = _SHOWN.findall(DOC.read_text(encoding="utf-8"))
    assert len(shown) >= len(KINDS)
    for file, text in shown:
        assert (ROOT / file).read_text(encoding="utf-8") == text, f"{file} differs from the doc"


@pytest.mark.parametrize("overlay", _overlays(), ids=lambda p: p.stem)
def test_every_house_rule_has_a_passing_scenario_file(overlay, capsys):
    scenarios = VARIANTS / "scenarios" / overlay.name
    assert scenarios.is_file(), f"{overlay.name} has no scenario file {scenarios}"
    assert str(overlay.name) in scenarios.read_text(encoding="utf-8")
    code = main(["test", str(scenarios)])
    out = capsys.readouterr().out
    assert code == 0, out
