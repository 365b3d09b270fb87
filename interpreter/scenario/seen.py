"""`seat N sees:` / `seat N does not see:`: what the engine shows one seat of the fields of
another (or of its own, or the global ones), checked on ``state.view(N)``, the very view bots
and people decide from.

A field is *shown* (its whole value), shown *as a count* (a hidden pile: how many, not which)
or *not shown* (a hidden field, or a pile hidden even as a count)::

    seat 1 sees: {seat 0: [area, coins]}               # shown
    seat 1 sees: {seat 0: {coins: 3, secret: count}}   # shown and 3; the pile as a count
    seat 1 sees: {seat 0: {secret: {count: 4}}}        # the pile as a count, and it is 4
    seat 1 does not see: {seat 0: [secret, points]}    # not shown (a count may be)
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.engine.state import State
from interpreter.ruleset.nodes import Plain
from interpreter.scenario.format import ANY_ORDER, Expectation, _flow

__all__ = ["check_seen", "Shown"]

TARGET = re.compile(r"^seat ([0-9]+)$")


class Shown:
    """How a seat is shown one field."""

    FULL, COUNT, NOTHING = "shown", "shown as a count", "not shown"


def _how(viewed: dict[str, Any], name: str) -> tuple[str, Any]:
    if name not in viewed:
        return Shown.NOTHING, None
    value = viewed[name]
    if isinstance(value, dict) and value.get("hidden") is True:
        if "count" in value:
            return Shown.COUNT, value["count"]
        return Shown.NOTHING, None
    return Shown.FULL, value


def _targets(
    s: State, seat: int, e: Expectation, bad: type[Exception]
) -> list[tuple[str, Any, dict, dict]]:
    """(label, fields asked, the viewed holder, the field kinds) for every target named in
    what ``seat`` is shown."""
    view = s.view(seat)
    value = e.value
    if not isinstance(value, dict):
        raise bad(
            f"`{e.text()}`: give {{seat N: [field, ...]}} or {{global: [field, ...]}}", e.where
        )
    out = []
    for key, asked in value.items():
        m = TARGET.match(str(key))
        if str(key) == "global":
            out.append(("global", asked, view["global"], s.g))
        elif m and int(m.group(1)) < len(s.p):
            seat = int(m.group(1))
            out.append((f"seat {seat}", asked, view["players"][seat], s.p[seat]))
        else:
            raise bad(
                f"`{e.text()}`: '{key}' is not `global` or a seat of this "
                f"{len(s.p)}-player game (seat 0-{len(s.p) - 1})",
                e.where,
            )
    return out


def check_seen(s: State, e: Expectation, failed: type[Exception], bad: type[Exception]) -> None:
    """Raise `failed` unless seat e.seat is shown (or not shown) the fields e.value names;
    `bad` for a scenario that names no such seat or field."""
    n = len(s.p)
    if not isinstance(e.seat, int) or not 0 <= e.seat < n:
        raise bad(f"there is no seat {e.seat} in a {n}-player game", e.where)
    for label, asked, viewed, real in _targets(s, e.seat, e, bad):
        wanted = {str(f): None for f in asked} if isinstance(asked, list) else asked
        if not isinstance(wanted, dict):
            raise bad(f"`{e.text()}`: list the fields of {label}, not {asked!r}", e.where)
        for name, value in wanted.items():
            if name not in real or name == "seat":
                guess = did_you_mean(name, [k for k in real if k != "seat"])
                hint = f"; did you mean '{guess}'?" if guess else ""
                raise bad(f"{label} has no field '{name}'{hint}", e.where)
            how, shown = _how(viewed, name)
            _judge(e, label, name, value, how, shown, failed, bad)


def _judge(
    e: Expectation,
    label: str,
    name: str,
    value: Plain,
    how: str,
    shown: Any,
    failed: type[Exception],
    bad: type[Exception],
) -> None:
    what = f"seat {e.seat} {e.kind} {label} {name}"
    actual = f"    actual: {label} {name} is {how} to seat {e.seat}"
    if how != Shown.NOTHING:
        actual += f": {_flow(shown)}"
    if e.kind == "does not see":
        if value is not None:
            raise bad(f"`{e.text()}`: list the fields seat {e.seat} must not see", e.where)
        if how == Shown.FULL:
            raise failed(f"expected {what}\n{actual}", e.where)
        return
    if value == "count" or (isinstance(value, dict) and set(value) == {"count"}):
        if how != Shown.COUNT:
            raise failed(f"expected {what} as a count\n{actual}", e.where)
        if isinstance(value, dict) and shown != value["count"]:
            raise failed(f"expected {what} as a count of {value['count']}\n{actual}", e.where)
        return
    if how != Shown.FULL:
        raise failed(f"expected {what}\n{actual}", e.where)
    if value is not None and not _same(shown, value):
        raise failed(f"expected {what}: {_flow(value)}\n{actual}", e.where)


def _same(shown: Any, value: Plain) -> bool:
    """A seen value against the scenario's: a bag by its non-zero counts, an area by types."""
    if isinstance(value, dict) and set(value) == {ANY_ORDER} and isinstance(shown, list):
        listed = value[ANY_ORDER]
        ids: list[Any] = list(listed) if isinstance(listed, list | str | dict) else []
        return sorted(_types(shown)) == sorted(ids)
    if isinstance(shown, dict) and isinstance(value, dict):
        return {k: v for k, v in shown.items() if v} == {k: v for k, v in value.items() if v}
    if isinstance(shown, list) and isinstance(value, list):
        return _types(shown) == value
    return shown == (None if value == "none" else value)


def _types(shown: list) -> list:
    """A pile's ids, an area's piece types."""
    return [x["type"] if isinstance(x, dict) and "type" in x else x for x in shown]
