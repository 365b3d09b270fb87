"""The `scoring:` section: an optional effect run before counting, the named components each seat
scores, and the tiebreak: one expression, or a list applied in order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.dsl.compiler import Fn, Scope
from interpreter.dsl.resolve.types import SEAT
from interpreter.model.host import DslHost


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


def compile_scoring(host: DslHost, root: Scope, data: Any) -> Scoring:
    sc = data.get("scoring") or {}
    seat_scope = root.child()
    seat_key = seat_scope.temp("p", SEAT)
    before = host.statements(sc["before"], ["scoring", "before"]) if "before" in sc else None
    components = [
        (
            str(c.get("name")),
            host.expression(
                c.get("value", "0"), ["scoring", "components", i, "value"], seat_scope
            ).fn,
        )
        for i, c in enumerate(sc.get("components") or [])
    ]
    tiebreak = sc.get("tiebreak")
    as_list = isinstance(tiebreak, list)
    texts = [] if tiebreak is None else tiebreak if as_list else [tiebreak]
    tiebreaks = [
        host.expression(text, ["scoring", "tiebreak", *([i] if as_list else [])], seat_scope).fn
        for i, text in enumerate(texts)
    ]
    return Scoring(before, seat_key, components, tiebreaks, as_list)
