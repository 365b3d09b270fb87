"""Each knob table of Puerto Rico changes the game as its `presentation: docs:` line says.

A knob is a table an overlay changes in one line. Each case writes that one-line overlay and a
scenario to a temporary folder and plays it through the real engine: the scenario's
expectations hold with the overlay, and (where the base game differs) fail without it, so a
rule that stops reading its knob is caught.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interpreter.scenario import load_scenarios, run_scenario

RULESET = Path(__file__).resolve().parents[2] / "rulesets" / "puerto-rico" / "ruleset.yaml"

# (knob, overlay operations, scenario set-up, steps, expectations)
CASES = [
    (
        "face-up-tiles-extra",
        {"replace": {"tables/face-up-tiles-extra": 0}},
        {},
        [],
        ["len(tile-row) == 4"],
    ),
    (
        "start-doubloons-seat-bonus",
        {"patch": {"tables/start-doubloons-seat-bonus": {3: 2}}},
        {},
        [],
        ["player(3).doubloons == 5", "player(0).doubloons == 3"],
    ),
    (
        "city-full-at",
        {"replace": {"tables/city-full-at": 1}},
        {"seat 0": {"doubloons": 1}},
        ["seat 0: role:builder", "seat 0: build:small-indigo-plant"],
        ['end-trigger == "city"'],
    ),
    (
        "game-ends-when",
        {"patch": {"tables/game-ends-when": {"vp-chips-run-out": False}}},
        {"seat 0": {"goods": {"corn": 2}}, "global": {"vp-chips": 1}},
        ["seat 0: role:captain", "seat 0: load:corn:ship-5"],
        ["vp-chips == 0", "end-trigger == none", "player(0).vp-paper == 1"],
    ),
    (
        "trading-house-same-kind",
        {"replace": {"tables/trading-house-same-kind": True}},
        {"seat 0": {"goods": {"corn": 1}}, "global": {"trading-house": {"corn": 1}}},
        ["seat 0: role:trader", "seat 0: sell:corn"],
        ["trading-house[corn] == 2"],
    ),
    (
        "settler-quarry",
        {"replace": {"tables/settler-quarry": False}},
        {},
        ["seat 0: role:settler"],
        [{"refused": "seat 0: tile:quarry"}],
    ),
    (
        "mayor-colonists",
        {"replace": {"tables/mayor-colonists": 2}},
        {},
        ["seat 0: role:mayor", "seat 0: privilege-colonist", "seat 0: privilege-colonist"],
        ["player(0).san-juan == 3"],  # 2 privilege + 1 from the ship
    ),
    (
        "builder-discount",
        {"replace": {"tables/builder-discount": 2}},
        {"seat 0": {"doubloons": 1}},
        ["seat 0: role:builder", "seat 0: build:indigo-plant"],  # 3 - 2
        ["player(0).doubloons == 0", {"seat 0": {"city": ["indigo-plant"]}}],
    ),
    (
        "craftsman-extra-goods",
        {"replace": {"tables/craftsman-extra-goods": 2}},
        {"seat 0": {"island": [{"type": "corn-plantation", "workers": 1}]}},
        ["seat 0: role:craftsman", "seat 0: produce", "seat 0: extra:corn"],
        [{"seat 0": {"goods": {"corn": 3}}}],
    ),
    (
        "trader-bonus",
        {"replace": {"tables/trader-bonus": 3}},
        {"seat 0": {"goods": {"coffee": 1}}},
        ["seat 0: role:trader", "seat 0: sell:coffee"],
        ["player(0).doubloons == 7"],
    ),
    (
        "captain-bonus-vp",
        {"replace": {"tables/captain-bonus-vp": 2}},
        {"seat 0": {"goods": {"corn": 2}}},
        ["seat 0: role:captain", "seat 0: load:corn:ship-5", "seat 0: privilege-vp"],
        ["player(0).vp-chips == 4"],
    ),
    (
        "vp-per-barrel",
        {"replace": {"tables/vp-per-barrel": 2}},
        {"seat 0": {"goods": {"corn": 2}}},
        ["seat 0: role:captain", "seat 0: load:corn:ship-5", "seat 0: privilege-vp"],
        ["player(0).vp-chips == 5"],
    ),
    (
        "prospector-doubloons",
        {"replace": {"tables/prospector-doubloons": 2}},
        {},
        ["seat 0: role:prospector"],
        ["player(0).doubloons == 2"],
    ),
    (
        "coins-per-unused-role",
        {"replace": {"tables/coins-per-unused-role": 2}},
        {},
        [{"auto": ["pass"], "until": "governor == 1"}],
        ["total(role-coins) == 6"],  # three roles left, two doubloons each
    ),
    (
        "guild-hall-vp",
        {"patch": {"tables/guild-hall-vp": {"large": 3}}},
        {
            "global": {"end-trigger": "test"},
            "seat 0": {
                "city": [{"type": "guild-hall", "workers": 1}, "small-sugar-mill", "sugar-mill"]
            },
        },
        [{"auto": ["pass", "role:prospector", "role:trader", "role:builder", "role:settler"]}],
        [{"scores": {0: {"large-buildings": 4}}}],
    ),
    (
        "fortress-colonists-per-vp",
        {"replace": {"tables/fortress-colonists-per-vp": 1}},
        {
            "global": {"end-trigger": "test"},
            "seat 0": {
                "city": [{"type": "fortress", "workers": 1}, {"type": "sugar-mill", "workers": 3}]
            },
        },
        [{"auto": ["pass", "role:prospector", "role:trader", "role:builder", "role:settler"]}],
        [{"scores": {0: {"large-buildings": 4}}}],
    ),
]


def _scenario(tmp_path: Path, ops: dict | None, setup: dict, steps: list, expect: list) -> str:
    """Write the overlay (if any) and the scenario; run it; return its status."""
    doc: dict = {"game": "puerto-rico", "players": 4, "seed": 1}
    if ops is not None:
        overlay = {"overlay": "knob", "extends": "puerto-rico", "title": "Knob", **ops}
        (tmp_path / "knob.yaml").write_text(yaml.safe_dump(overlay, sort_keys=False))
        doc["with"] = ["knob.yaml"]
    base = {"every seat": {"island": [], "doubloons": 0}}
    doc["setup"] = {**base, **setup} if setup else base
    if setup.get("global", {}).get("end-trigger") is None and steps == []:
        doc.pop("setup")  # a set-up-only check reads the game as dealt
    doc["scenarios"] = [{"name": "knob", "steps": steps, "expect": expect}]
    path = tmp_path / ("with.yaml" if ops is not None else "without.yaml")
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    (outcome,) = [run_scenario(sc) for sc in load_scenarios(str(path))]
    return f"{outcome.status}: {outcome.message}"


@pytest.mark.parametrize("knob, ops, setup, steps, expect", CASES, ids=[c[0] for c in CASES])
def test_knob_changes_the_game(
    tmp_path: Path, knob: str, ops: dict, setup: dict, steps: list, expect: list
) -> None:
    assert (
        f"\n  {knob}:" in RULESET.read_text().split("\ntables:\n", 1)[1].split("\ncatalogs:\n")[0]
    )
    result = _scenario(tmp_path, ops, setup, steps, expect)
    assert result.startswith("pass"), result
    # The base game plays differently: the same expectations do not hold without the knob.
    assert not _scenario(tmp_path, None, setup, steps, expect).startswith("pass")


def test_every_knob_is_documented() -> None:
    data = yaml.safe_load(RULESET.read_text())
    docs = data["presentation"]["docs"]
    for knob, *_ in CASES:
        assert knob in docs and knob in data["tables"]
    # besides the knobs, the texts people see for the roles (their tooltips)
    assert set(docs) <= set(data["tables"]) | set(data["catalogs"]["roles"]["entries"])


def _library_prospector(tmp_path: Path, doubles: list[str] | None) -> str:
    """A library owner takes the prospector; `doubles`: the overlay's library-doubles."""
    with_ = ["new-buildings"]
    if doubles is not None:
        overlay = {
            "overlay": "knob",
            "extends": "new-buildings",
            "title": "Knob",
            "replace": {"tables/library-doubles": doubles},
        }
        (tmp_path / "knob.yaml").write_text(yaml.safe_dump(overlay, sort_keys=False))
        with_.append("knob.yaml")
    doc = {
        "game": "puerto-rico",
        "players": 4,
        "seed": 1,
        "with": with_,
        "options": {"building-selection": "all-new"},
        "setup": {
            "every seat": {"doubloons": 0},
            "seat 0": {"city": [{"type": "library", "workers": 1}]},
        },
        "scenarios": [
            {
                "name": "knob",
                "steps": ["seat 0: role:prospector"],
                "expect": ["player(0).doubloons == 2"],
            }
        ],
    }
    path = tmp_path / "library.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    (outcome,) = [run_scenario(sc) for sc in load_scenarios(str(path))]
    return f"{outcome.status}: {outcome.message}"


def test_library_doubles_lists_the_roles_the_library_doubles(tmp_path: Path) -> None:
    assert _library_prospector(tmp_path, None).startswith("pass")
    everything_but_prospector = ["settler", "mayor", "builder", "craftsman", "trader", "captain"]
    assert not _library_prospector(tmp_path, everything_but_prospector).startswith("pass")
