"""Every *.yaml below this folder is a scenario file (docs/scenarios.md); pytest collects each
scenario as one test item, named by the scenario."""

from __future__ import annotations

from pathlib import Path

from interpreter.scenario.pytest_plugin import collect_scenarios

HERE = Path(__file__).resolve().parent


def pytest_collect_file(parent, file_path):
    return collect_scenarios(parent, file_path, root=HERE)
