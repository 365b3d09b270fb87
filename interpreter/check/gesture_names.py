"""R009: a ``presentation: gestures:`` entry that names no choose step, or a field that does
not exist.

A gesture (table/gestures.py) groups the run of one choose step's decisions, addressed by the
step's ``name:``; a slip there would silently ask every pick one by one, so ``rulebook
validate`` finds it at its line and column, with a did-you-mean among the names of the choose
steps (in ``flow:`` and ``phases:``). Its ``about:`` names a state field (the deciding seat's,
else a global one), checked the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.check.verdicts import diagnostic_at
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import is_map, is_seq

__all__ = ["CODE", "gesture_faults"]

CODE = "R009"


def _choose_steps(node: Any) -> Iterator[str]:
    """The ``name:`` of every named choose step under ``node`` (steps nest in branches and
    loops)."""
    if is_map(node):
        if "choose" in node and isinstance(node.get("name"), str):
            yield str(node["name"])
        for value in node.values():
            yield from _choose_steps(value)
    elif is_seq(node):
        for value in node:
            yield from _choose_steps(value)


def _fields(data: Any) -> list[str]:
    state = data.get("state")
    names: list[str] = []
    for part in ("player", "global"):
        decls = state.get(part) if is_map(state) else None
        if is_map(decls):
            names.extend(str(k) for k in decls if str(k) not in names)
    return names


def gesture_faults(data: Any) -> list[Diagnostic]:
    """Every gesture naming a step that is no named choose step, or an unknown field."""
    pres = data.get("presentation") if is_map(data) else None
    gestures = pres.get("gestures") if is_map(pres) else None
    if not is_map(gestures):
        return []
    steps = sorted(set(_choose_steps(data.get("flow"))) | set(_choose_steps(data.get("phases"))))
    fields = _fields(data)
    out: list[Diagnostic] = []
    for name, spec in gestures.items():
        if name not in steps:
            out.append(
                diagnostic_at(
                    data,
                    ["presentation", "gestures", name],
                    CODE,
                    f"no choose step is named '{name}' (a gesture groups the decisions of one "
                    "choose step, by its `name:`)",
                    key=True,
                    hint=hint_for(str(name), steps),
                )
            )
        about = spec.get("about") if is_map(spec) else None
        if isinstance(about, str) and about not in fields:
            out.append(
                diagnostic_at(
                    data,
                    ["presentation", "gestures", name, "about"],
                    CODE,
                    f"state field '{about}' does not exist",
                    hint=hint_for(about, fields),
                )
            )
    return out
