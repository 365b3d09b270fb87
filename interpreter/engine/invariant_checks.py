"""Checking the ruleset's declared invariants on a state (model/invariants.py compiles them).

`broken_invariants` returns one E002 diagnostic per invariant that does not hold, at the
file:line:col of its text and naming the decision; it costs nothing for a ruleset without
invariants. The drivers call it after every decision when asked to (`rulebook test`,
`rulebook simulate --check`, property tests).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.dsl.runtime.support import show
from interpreter.engine.machine import RULE_FAILURES, cause

if TYPE_CHECKING:
    from interpreter.engine.state import State
    from interpreter.model.invariants import Invariant


def broken_invariants(s: State, skip: Collection[str] = ()) -> list[Diagnostic]:
    """The invariants of `s`'s rules that do not hold on `s` (none: an empty list), except those
    named in `skip`.

    They hold from the first round on: while the set-up runs (round 0, which may ask for
    decisions, e.g. a draft) the state is still being built and nothing is checked."""
    return [d for _, d in _broken(s, skip)]


def broken_names(s: State) -> set[str]:
    """The names of the invariants that do not hold on `s`."""
    return {inv.name for inv, _ in _broken(s, ())}


def rigged_invariants(s: State) -> list[tuple[str, Diagnostic]]:
    """(name, diagnostic) of each invariant a state edited by hand (a scenario's set-up) leaves
    broken, in any round: a set-up made in round 0 (a draft before the first round) is a
    finished state too."""
    return [(inv.name, d) for inv, d in _broken(s, (), any_round=True)]


def _broken(
    s: State, skip: Collection[str], any_round: bool = False
) -> list[tuple[Invariant, Diagnostic]]:
    invariants = s.game.rules.invariants
    if not invariants or (s.round == 0 and not any_round):
        return []
    out: list[tuple[Invariant, Diagnostic]] = []
    for inv in invariants:
        if inv.name in skip:
            continue
        try:
            held = inv.test(s)
        except RULE_FAILURES as e:
            out.append((inv, _diagnostic(s, inv, f"cannot be evaluated: {cause(e)}")))
            continue
        if held is True:
            continue
        if held is False:
            what = "does not hold"
        else:
            what = f"is not a condition (it gives {show(held)}, not yes/no)"
        out.append((inv, _diagnostic(s, inv, what)))
    return out


def check_invariants(s: State) -> None:
    """Raise a RulesError carrying every broken invariant of `s` (nothing when all hold)."""
    broken = broken_invariants(s)
    if broken:
        raise RulesError(broken)


def when(s: State) -> str:
    """The point of the game a state is at, as a message names it."""
    if s.decisions == 0:
        return "after the set-up"
    last = s.history[-1] if s.history else None
    taken = f" ('{last}')" if last is not None else ""
    return f"after decision {s.decisions}{taken}, round {s.round}"


def _diagnostic(s: State, inv: Invariant, what: str) -> Diagnostic:
    return Diagnostic(
        "E002",
        f"invariant '{inv.name}' {what} {when(s)}",
        inv.file,
        inv.line,
        inv.column,
        inv.json_path,
    )
