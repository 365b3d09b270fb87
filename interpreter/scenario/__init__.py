"""Scenario tests: given / when / then checks of a ruleset, written in YAML (docs/scenarios.md).

>>> from interpreter.scenario import load_scenarios, run_scenario
>>> scenarios = load_scenarios("tests/scenarios/puerto-rico/captain.yaml")
>>> [run_scenario(sc).status for sc in scenarios][:1]
['pass']
"""

from __future__ import annotations

from .format import Expectation, Scenario, Setup, Step, Where, load_scenarios
from .runner import Outcome, collect, discover, run_scenario, select

__all__ = [
    "Expectation",
    "Outcome",
    "Scenario",
    "Setup",
    "Step",
    "Where",
    "collect",
    "discover",
    "load_scenarios",
    "run_scenario",
    "select",
]
