"""The `scoring:` section: an optional effect run before counting, the named components each seat
scores, and the tiebreak."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.dsl.compiler import Fn, Scope
from interpreter.dsl.types import SEAT
from interpreter.model.host import DslHost


@dataclass
class Scoring:
    before: Fn | None
    seat_key: str  # the slot that names the seat being scored (`p` in the rule texts)
    components: list[tuple[str, Fn]]
    tiebreak: Fn | None


def compile_scoring(host: DslHost, root: Scope, data: Any) -> Scoring:
    sc = data.get("scoring") or {}
    seat_scope = root.child()
    seat_key = seat_scope.temp("p", SEAT)
    before = host.statements(sc["before"], ["scoring", "before"]) if "before" in sc else None
    components = [
        (
            str(c.get("name")),
            host.expression(c.get("value", "0"), ["scoring", "components", i, "value"], seat_scope),
        )
        for i, c in enumerate(sc.get("components") or [])
    ]
    tiebreak = (
        host.expression(sc["tiebreak"], ["scoring", "tiebreak"], seat_scope)
        if "tiebreak" in sc
        else None
    )
    return Scoring(before, seat_key, components, tiebreak)
