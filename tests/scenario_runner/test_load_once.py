"""The runner reads, composes and schema-checks a scenario's rule files once per game it
compiles (through ``load_game_and_data``, the one loader ``load_game`` also uses)."""

from __future__ import annotations

from pathlib import Path

import pytest

import interpreter.engine.loader
import interpreter.load.yamlload
from interpreter.scenario import load_scenarios, run_scenario
from interpreter.scenario.games import clear_cache

HERE = Path(__file__).resolve().parent
WRONG = HERE / "fixtures" / "wrong.yaml"


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list]:
    """Record every load_rules_data call and every file load_yaml_file reads."""
    calls: dict[str, list] = {"rules": [], "files": []}
    real_rules = interpreter.engine.loader.load_rules_data
    real_file = interpreter.load.yamlload.load_yaml_file

    def rules(name, overlays=()):
        calls["rules"].append((name, tuple(overlays)))
        return real_rules(name, overlays)

    def read(path):
        calls["files"].append(str(path))
        return real_file(path)

    monkeypatch.setattr(interpreter.engine.loader, "load_rules_data", rules)
    monkeypatch.setattr(interpreter.load.yamlload, "load_yaml_file", read)
    clear_cache()
    yield calls
    clear_cache()


def test_each_file_is_loaded_once(counted: dict[str, list]) -> None:
    scenarios = load_scenarios(WRONG)
    outcomes = [run_scenario(sc) for sc in scenarios]
    assert [o.status for o in outcomes] == ["fail", "pass"]
    # both scenarios share one game: its rules are loaded once, the scenario file once
    assert counted["rules"] == [("puerto-rico", ())]
    assert counted["files"].count(str(WRONG)) == 1
    ruleset = [f for f in counted["files"] if f.endswith("ruleset.yaml")]
    assert len(ruleset) == 1, counted["files"]
