"""R008 for ``presentation: acts:`` (interpreter/check/act_names.py): an entry, written in an
overlay of a shipped game, naming an option family no option has, a field that is not drawn as
things a click can land on, or a part the family's ids lack, is an error at its line and column
with a did-you-mean; the shipped games' own entries are clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.check import validate
from interpreter.check.act_names import act_faults
from interpreter.compose.rulefiles import load_rules_data
from interpreter.ruleset.ruleset import Ruleset

OVERLAY = """\
overlay: board-clicks
extends: puerto-rico
title: Clicks on the board
add:
  presentation/acts/rol: roles-in-play
  presentation/acts/sell: trading-hous
  presentation/acts/extra: {field: ships, part: 2}
"""


def test_an_act_naming_nothing_is_r008_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "board-clicks.yaml"
    path.write_text(OVERLAY)
    found = [
        (d.line, d.column, d.code, d.message, d.hint)
        for d in validate([str(path)]).diagnostics
        if d.severity == "error"
    ]
    assert [f[:3] for f in found] == [(5, 3, "R008"), (6, 27, "R008"), (7, 49, "R008")], found
    assert "did you mean 'role'?" in str(found[0][4])
    assert "field 'trading-hous' is not drawn" in found[1][3]
    assert "did you mean 'trading-house'?" in str(found[1][4])
    assert "the ids of 'extra' have 1 part(s) after the family, not 2" in found[2][3]


@pytest.mark.parametrize("game", ["puerto-rico", "san-juan"])
def test_the_shipped_acts_name_drawn_fields_and_real_families(game: str) -> None:
    data = load_rules_data(game, [])[0]
    assert data["presentation"]["acts"]  # the check has something to check
    assert act_faults(Ruleset.from_data(data)) == []
