"""The runner reads, composes and schema-checks a scenario's rule files once per game it
compiles, and the game it compiles is the one ``load_game`` gives (same errors too)."""

from __future__ import annotations

from pathlib import Path

import pytest

import interpreter.game
import interpreter.yamlload
from interpreter.errors import ConfigError
from interpreter.game import load_game
from interpreter.scenario import load_scenarios, run_scenario
from interpreter.scenario.runner import _compile, clear_cache

HERE = Path(__file__).resolve().parent
WRONG = HERE / "fixtures" / "wrong.yaml"


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list]:
    """Record every load_rules_data call and every file load_yaml_file reads."""
    calls: dict[str, list] = {"rules": [], "files": []}
    real_rules = interpreter.game.load_rules_data
    real_file = interpreter.yamlload.load_yaml_file

    def rules(name, overlays=()):
        calls["rules"].append((name, tuple(overlays)))
        return real_rules(name, overlays)

    def read(path):
        calls["files"].append(str(path))
        return real_file(path)

    monkeypatch.setattr(interpreter.game, "load_rules_data", rules)
    monkeypatch.setattr(interpreter.yamlload, "load_yaml_file", read)
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


@pytest.mark.parametrize(
    ("players", "overlays", "options"),
    [(4, (), {}), (3, ("nobles",), {}), (5, ("new-buildings",), {})],
)
def test_the_compiled_game_is_load_games(players, overlays, options) -> None:
    game, data = _compile("puerto-rico", players, overlays, options)
    want = load_game("puerto-rico", players, overlays, options)
    got_meta = (game.name, game.title, game.players, game.overlays, game.options, game.sources)
    want_meta = (want.name, want.title, want.players, want.overlays, want.options, want.sources)
    assert got_meta == want_meta
    assert data.get("state"), "the data the set-up checks read"
    a, b = game.new_state(3), want.new_state(3)
    for _ in range(60):
        assert a.legal_options() == b.legal_options()
        if a.is_over:
            break
        a.apply(a.legal_options()[-1])
        b.apply(b.legal_options()[-1])
    assert a.log == b.log


@pytest.mark.parametrize(
    ("players", "options"),
    [(9, {}), (4, {"no-such-option": 1})],
)
def test_the_same_errors_as_load_game(players, options) -> None:
    with pytest.raises(ConfigError) as want:
        load_game("puerto-rico", players, (), options)
    with pytest.raises(ConfigError) as got:
        _compile("puerto-rico", players, (), options)
    assert str(got.value) == str(want.value)
