"""Collect scenario files as ordinary pytest items: one item per scenario, named by it.

Use from a ``conftest.py`` placed above the scenario files::

    from interpreter.scenario.pytest_plugin import collect_scenarios

    def pytest_collect_file(parent, file_path):
        return collect_scenarios(parent, file_path, root=Path(__file__).parent)

Only ``*.yaml`` / ``*.yml`` files below ``root`` are collected, so other YAML in a test tree
(rule fixtures) is left alone. A failing scenario reports exactly what ``rulebook test``
prints: the expectation, the actual value, file:line and the steps taken with the log. A
scenario's warnings (a quantity checked before an optional effect) are pytest warnings.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.scenario import text_report
from interpreter.scenario.format import Scenario, load_scenarios
from interpreter.scenario.runner import Outcome, run_scenario

__all__ = [
    "ScenarioFile",
    "ScenarioItem",
    "ScenarioFailure",
    "ScenarioWarning",
    "collect_scenarios",
]


class ScenarioWarning(UserWarning):
    """What `rulebook test` prints under a scenario's line as a warning."""


class ScenarioFailure(Exception):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome


class ScenarioFile(pytest.File):
    def collect(self) -> Any:
        try:
            scenarios = load_scenarios(self.path)
        except RulesError as e:
            raise self.CollectError(str(e)) from None
        for sc in scenarios:
            yield ScenarioItem.from_parent(self, name=sc.name, scenario=sc)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario

    def runtest(self) -> None:
        outcome = run_scenario(self.scenario)
        for text in outcome.warnings:
            warnings.warn(ScenarioWarning(text), stacklevel=1)
        if outcome.status != "pass":
            raise ScenarioFailure(outcome)

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return text_report.details(excinfo.value.outcome)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        line = self.scenario.where.line
        return self.path, (line - 1 if line else None), f"scenario: {self.name}"


def collect_scenarios(parent: Any, file_path: Path, root: Path) -> ScenarioFile | None:
    """The pytest_collect_file body: scenario files below `root`, nothing else."""
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    try:
        file_path.resolve().relative_to(root.resolve())
    except ValueError:
        return None
    return ScenarioFile.from_parent(parent, path=file_path)
