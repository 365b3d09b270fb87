"""What a game can say, as a scenario checks it: the option ids it can offer and the texts its
log can hold (the checks `rulebook validate` makes, T002 and T004, by the same code)."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.model.logtexts import LogTexts
from interpreter.ruleset.option_names import OptionNames
from interpreter.scenario.format import Scenario, Where

__all__ = ["GameNames"]


@dataclass
class GameNames:
    """A compiled game's option ids (T002) and log texts (T004)."""

    options: OptionNames
    logs: LogTexts

    def fault(self, option: str, *, absent_ok: bool = False) -> tuple[str, str] | None:
        return self.options.fault(option, absent_ok=absent_ok)

    def vacuous_log(self, sc: Scenario) -> tuple[str, Where] | None:
        """The first `log contains`, `log lacks` or `log order` text of the scenario that no
        line of the game's log can hold, as (message, where): a `log lacks` of it would pass
        whatever the game does, so the scenario is at fault."""
        found = list(sc.expect)
        for step in sc.steps:
            found.extend(step.expectations or [])
        for e in found:
            if e.kind not in ("log contains", "log lacks", "log order"):
                continue
            for text in e.texts:
                fault = self.logs.fault(e.kind, text, any_case=e.any_case)
                if fault is not None:
                    return f"{fault[0]} ({fault[1]})", e.where
        return None
