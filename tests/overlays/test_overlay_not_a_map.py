"""An overlay file that holds no map (a list, a lone text) is a rules error the composer
reports (O001, at the file), never a traceback out of reading its id first."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.compose.rulefiles import load_rules_data
from interpreter.diagnostics.errors import RulesError

BASE = Path(__file__).resolve().parents[2] / "tests" / "validate" / "fixtures" / "base"


@pytest.mark.parametrize("text", ["- patch\n- tables/start-points\n", "just a text\n"])
def test_an_overlay_that_is_no_map_is_reported(tmp_path: Path, text: str) -> None:
    overlay = tmp_path / "not-a-map.yaml"
    overlay.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as raised:
        load_rules_data(str(BASE / "ruleset.yaml"), [str(overlay)])
    found = [(d.code, d.file) for d in raised.value.diagnostics]
    assert found == [("O001", str(overlay))], found
