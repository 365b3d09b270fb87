"""Small helpers shared by the section compilers: plain values out of the YAML tree, the text
of a rule field, and the "did you mean" hint of a misspelt name."""

from __future__ import annotations

from collections.abc import Iterable

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.ruleset.nodes import rule_value

# ruamel containers to plain dicts and lists, the word `none` to None (the typed model's reading)
plain = rule_value


def rule_text(x: object) -> str:
    """The DSL text of a rule field (YAML reads a bare `true` as a bool)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


def hint(name: str, candidates: Iterable[str]) -> str | None:
    guess = did_you_mean(name, list(candidates))
    return f"did you mean '{guess}'?" if guess else None
