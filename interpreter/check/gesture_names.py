"""R009: a ``presentation: gestures:`` entry that names no choose step, or a field that does
not exist; a ``presentation: answers:`` entry that names no choose step.

A gesture (table/gestures.py) groups the run of one choose step's decisions, addressed by the
step's ``name:``; a slip there would silently ask every pick one by one, so ``rulebook
validate`` finds it at its line and column, with a did-you-mean among the names of the choose
steps (in ``flow:`` and ``phases:``). Its ``about:`` names a state field (the deciding seat's,
else a global one), checked the same way. An answer a seat starts with (table/answers.py) is
addressed by the step's name too: a slip there would leave the question asked.
"""

from __future__ import annotations

from interpreter.check.verdicts import diagnostic_on
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["CODE", "gesture_faults"]

CODE = "R009"


def _fields(ruleset: Ruleset) -> list[str]:
    """The state fields' names, the seats' first (an ``about:`` reads the deciding seat's)."""
    names: list[str] = []
    for scope in ("player", "global"):
        names.extend(f.name for f in ruleset.fields if f.scope == scope and f.name not in names)
    return names


def gesture_faults(ruleset: Ruleset) -> list[Diagnostic]:
    """Every gesture or starting answer naming a step that is no named choose step, or a
    gesture naming an unknown field."""
    gestures = ruleset.presentation.gestures
    answers = ruleset.presentation.answers
    if not gestures and not answers:
        return []
    steps = sorted({str(s.name) for s in ruleset.flow.choose_steps()})
    fields = _fields(ruleset)
    out: list[Diagnostic] = []
    for step, (_how, pos) in answers.items():
        if step not in steps:
            out.append(
                diagnostic_on(
                    pos,
                    ["presentation", "answers", step],
                    CODE,
                    f"no choose step is named '{step}' (an answer in advance is set for the "
                    "question of one choose step, by its `name:`)",
                    hint=hint_for(step, steps),
                )
            )
    for gesture in gestures.values():
        path = ["presentation", "gestures", gesture.step]
        if gesture.step not in steps:
            out.append(
                diagnostic_on(
                    gesture.pos,
                    path,
                    CODE,
                    f"no choose step is named '{gesture.step}' (a gesture groups the decisions "
                    "of one choose step, by its `name:`)",
                    hint=hint_for(gesture.step, steps),
                )
            )
        if gesture.about is not None and gesture.about not in fields:
            out.append(
                diagnostic_on(
                    gesture.about_pos,
                    [*path, "about"],
                    CODE,
                    f"state field '{gesture.about}' does not exist",
                    hint=hint_for(gesture.about, fields),
                )
            )
    return out
