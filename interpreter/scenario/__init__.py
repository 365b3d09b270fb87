"""Scenario tests: given / when / then checks of a ruleset, written in YAML (docs/scenarios.md).

Usage, for any scenario file beside a ruleset's tests::

    from interpreter.scenario import load_scenarios, run_scenario
    outcomes = [run_scenario(sc) for sc in load_scenarios("tests/scenarios/<game>/<file>.yaml")]
    assert all(o.status == "pass" for o in outcomes)
"""

from __future__ import annotations

from interpreter.scenario.format import Expectation, Scenario, Step, Where, load_scenarios
from interpreter.scenario.runner import Outcome, collect, discover, run_scenario, select

__all__ = [
    "Expectation",
    "Outcome",
    "Scenario",
    "Step",
    "Where",
    "collect",
    "discover",
    "load_scenarios",
    "run_scenario",
    "select",
]
