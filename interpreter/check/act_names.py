"""R008 for ``presentation: acts:``: an option family that no option of the ruleset has, a
field that is not drawn, or a part of the option id that the family's ids do not have.

``acts:`` says which drawn board element an option family stands for (a click on the element
picks the option: static/acts.js); a slip there would silently leave the board unclickable, so
``rulebook validate`` finds it at its line and column, with a did-you-mean among the option
families of the rules' ``choose`` steps, or the fields ``presentation: draw:`` draws as cards,
slots or a grid (the things a click can land on).
"""

from __future__ import annotations

from interpreter.check.drawing import CODE
from interpreter.check.verdicts import diagnostic_on
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.ruleset.nodes import Pos
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["act_faults"]

CLICKABLE = ("cards", "slots", "grid")  # drawings made of things with their own id


def _families(ruleset: Ruleset) -> dict[str, int]:
    """Each option family of the ruleset with the fewest parts its ids have after it."""
    out: dict[str, int] = {}
    for option in ruleset.flow.option_decls():
        family, *parts = option.id.split(":")
        out[family] = min(out.get(family, len(parts)), len(parts))
    return out


def act_faults(ruleset: Ruleset) -> list[Diagnostic]:
    """Every ``acts:`` entry naming an unknown option family, an undrawn field or a part the
    family's ids lack."""
    acts = ruleset.presentation.acts
    if not acts:
        return []
    families = _families(ruleset)
    drawn = [name for name, spec in ruleset.presentation.draw.items() if spec.as_ in CLICKABLE]
    out: list[Diagnostic] = []

    def fault(where: Pos, path: list[str], message: str, hint: str | None = None) -> None:
        out.append(diagnostic_on(where, ["presentation", "acts", *path], CODE, message, hint=hint))

    for family, spec in acts.items():
        if family not in families:
            fault(
                spec.pos,
                [family],
                f"no option of the rules is of the family '{family}' (the part of an option "
                "id before its first ':')",
                hint_for(family, families),
            )
            continue
        if spec.field not in drawn:
            fault(
                spec.field_pos,
                [family] if spec.short else [family, "field"],
                f"field '{spec.field}' is not drawn as {', '.join(CLICKABLE[:-1])} or "
                f"{CLICKABLE[-1]} (presentation: draw:)",
                hint_for(spec.field, drawn),
            )
        if spec.part > families[family]:
            fault(
                spec.part_pos,
                [family] if spec.short else [family, "part"],
                f"the ids of '{family}' have {families[family]} part(s) after the family, "
                f"not {spec.part}",
            )
    return out
