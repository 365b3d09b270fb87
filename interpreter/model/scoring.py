"""The `scoring:` section: an optional effect run before counting, the named components each seat
scores, and the tiebreak: one expression, or a list applied in order."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.dsl.compiler import Fn, Scope
from interpreter.dsl.resolve.types import SEAT
from interpreter.model.host import DslHost
from interpreter.ruleset.sections import ScoringWords


@dataclass
class Scoring:
    before: Fn | None
    seat_key: str  # the slot that names the seat being scored (`p` in the rule texts)
    components: list[tuple[str, Fn]]
    # one per expression: a later one decides only between seats the earlier ones left tied
    tiebreaks: list[Fn]
    # `tiebreak:` was a list: a seat's tiebreak is then shown as the list of its values (one
    # expression keeps the single number results, save files and goldens have always had)
    tiebreak_list: bool = False


def compile_scoring(host: DslHost, root: Scope, scoring: ScoringWords) -> Scoring:
    seat_scope = root.child()
    seat_key = seat_scope.temp("p", SEAT)
    before = (
        host.statements(scoring.before, ["scoring", "before"])
        if scoring.before is not None
        else None
    )
    components = [
        (c.name, host.expression(c.value, list(c.path), seat_scope).fn) for c in scoring.components
    ]
    as_list = scoring.tiebreak_list
    tiebreaks = [
        host.expression(text, ["scoring", "tiebreak", *([i] if as_list else [])], seat_scope).fn
        for i, text in enumerate(scoring.tiebreaks)
    ]
    return Scoring(before, seat_key, components, tiebreaks, as_list)
