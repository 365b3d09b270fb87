"""What running one scenario gave (:func:`interpreter.scenario.runner.run_scenario`), apart
from the runner so that the file loader and the reporters use it without running anything."""

from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.scenario.format import Scenario, Where

__all__ = ["Outcome"]


@dataclass
class Outcome:
    """What running one scenario gave. `status`: pass, fail (an expectation did not hold) or
    error (the scenario cannot run: a broken file, unknown game, bad set-up or option)."""

    scenario: Scenario | None
    status: str
    message: str = ""
    where: Where | None = None
    steps: list[str] = field(default_factory=list)  # the steps taken, with their log lines
    seconds: float = 0.0
    name: str = ""
    file: str = ""
    not_ended: bool = False  # the game ran into the ruleset's safety bound (E003)
    warnings: list[str] = field(default_factory=list)  # `file:line: text`, pass or fail

    @property
    def id(self) -> str:
        return f"{self.file}::{self.name}" if self.name else self.file
