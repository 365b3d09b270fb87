"""A rule file loaded without overlays is read into its typed rules once per process
(``Ruleset.of``, kept beside the parse): the validator's session, ``rulebook show``,
``rulebook new overlay`` and the table's presentation take that one, not a second reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.check.session import Session
from interpreter.cli.main import main
from interpreter.load.yamlload import load_yaml_file
from interpreter.ruleset.ruleset import Ruleset
from interpreter.table.presenter import Presentation

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "rulesets" / "san-juan" / "ruleset.yaml"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The trees read into typed rules from here on; the shipped base's are read first."""
    Ruleset.of(load_yaml_file(BASE).data)
    read = Ruleset.from_data
    seen: list[object] = []

    def counted(data: object) -> Ruleset:
        seen.append(data)
        return read(data)

    monkeypatch.setattr(Ruleset, "from_data", staticmethod(counted))
    return seen


def test_the_session_takes_a_kept_parse_typed_rules(reads: list[object]) -> None:
    data = load_yaml_file(BASE).data
    assert Session().typed(data) is Ruleset.of(data)
    assert reads == []


def test_show_reads_no_kept_parse_again(reads: list[object], capsys) -> None:
    assert main(["show", "san-juan", "catalogs/cards/entries/palace"]) == 0
    assert "palace" in capsys.readouterr().out
    assert reads == []


def test_new_overlay_reads_no_kept_parse_again(reads: list[object], tmp_path, capsys) -> None:
    out = tmp_path / "house.yaml"
    assert main(["new", "overlay", "house", "--game", "san-juan", "--out", str(out)]) == 0
    assert out.is_file()
    assert reads == []


def test_a_presentation_of_a_kept_parse_reads_it_no_more(reads: list[object]) -> None:
    Presentation.from_data(load_yaml_file(BASE).data)
    assert reads == []
