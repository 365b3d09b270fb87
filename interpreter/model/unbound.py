"""A seat name an `each-player` step forgot to bind, reported once, at that step.

Without `as:` an `each-player` calls its seat `actor`. When its steps, or the phases they play,
use another name that nothing declares (`chooser`), every use is an "unknown name" error, far
from the cause. Those errors are folded into one at the `each-player` that has no `as:`,
naming the name, how often it is used and where first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from interpreter.diagnostics.errors import Diagnostic
from interpreter.load.locate import json_pointer
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["fold_unbound_seat_names"]

_UNKNOWN = re.compile(r"^unknown name '([^']+)'$")


def fold_unbound_seat_names(
    ruleset: Ruleset, diagnostics: Sequence[Diagnostic]
) -> list[Diagnostic]:
    """`diagnostics` with the unknown-name errors (no did-you-mean) of a name folded into one
    at the first `each-player` without `as:` (flow first, then phases), when there is one."""
    steps = [
        s for s in ruleset.flow.steps() if s.kind == "each-player" and s.loop.seat_name is None
    ]
    if not steps:
        return list(diagnostics)
    fields = {"seat", *(f.name for f in ruleset.fields if f.scope == "player")}
    uses: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        m = _UNKNOWN.match(d.message)
        if d.code == "D003" and m is not None and not d.hint:
            uses.setdefault(m.group(1), []).append(d)
    # only a name read as a seat somewhere (`chooser.coins`): any other unknown name stays a
    # plain unknown name where it is used
    uses = {n: found for n, found in uses.items() if any(_as_seat(d, n, fields) for d in found)}
    if not uses:
        return list(diagnostics)
    step = steps[0]
    at = step.places.key("each-player")
    folded = []
    for name, found in uses.items():
        first = found[0]
        folded.append(
            Diagnostic(
                "D003",
                f"this each-player has no `as:`, so its seat is called `actor`, and '{name}' "
                f"is used {len(found)} time(s) (first at {first.location()}) but nothing "
                f"declares it",
                at.file,
                at.line,
                at.column,
                json_pointer([*step.path, "each-player"]),
                hint=f"add `as: {name}` under `each-player:`",
            )
        )
    gone = {id(d) for found in uses.values() for d in found}
    return [d for d in diagnostics if id(d) not in gone] + folded


def _as_seat(d: Diagnostic, name: str, fields: set[str]) -> bool:
    """Whether the use at `d` reads a player field of `name` (`name.coins`)."""
    if d.file is None or d.line is None or d.column is None:
        return False
    try:
        with open(d.file, encoding="utf-8") as f:
            row = f.read().split("\n")[d.line - 1]
    except (OSError, IndexError, UnicodeDecodeError):
        return False
    m = re.match(re.escape(name) + r"\.([a-zA-Z_][\w-]*)", row[d.column - 1 :])
    return m is not None and m.group(1) in fields
