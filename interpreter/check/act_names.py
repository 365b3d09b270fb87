"""R008 for ``presentation: acts:``: an option family that no option of the ruleset has, a
field that is not drawn, or a part of the option id that the family's ids do not have.

``acts:`` says which drawn board element an option family stands for (a click on the element
picks the option: static/acts.js); a slip there would silently leave the board unclickable, so
``rulebook validate`` finds it at its line and column, with a did-you-mean among the option
families of the rules' ``choose`` steps, or the fields ``presentation: draw:`` draws as cards,
slots or a grid (the things a click can land on).
"""

from __future__ import annotations

from typing import Any

from interpreter.check.drawing import CODE
from interpreter.check.families import option_lines
from interpreter.check.verdicts import diagnostic_at
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import is_map

__all__ = ["act_faults"]

CLICKABLE = ("cards", "slots", "grid")  # drawings made of things with their own id


def _families(data: Any) -> dict[str, int]:
    """Each option family of the ruleset with the fewest parts its ids have after it."""
    out: dict[str, int] = {}
    for line in option_lines(data):
        family, *parts = line.ident.split(":")
        out[family] = min(out.get(family, len(parts)), len(parts))
    return out


def _drawn(pres: Any) -> list[str]:
    """The fields drawn as things a click can land on."""
    draw = pres.get("draw")
    names = []
    for name, spec in draw.items() if is_map(draw) else []:
        kind = spec.get("as") if is_map(spec) else spec
        if kind in CLICKABLE:
            names.append(str(name))
    return names


def act_faults(data: Any) -> list[Diagnostic]:
    """Every ``acts:`` entry naming an unknown option family, an undrawn field or a part the
    family's ids lack."""
    pres = data.get("presentation") if is_map(data) else None
    acts = pres.get("acts") if is_map(pres) else None
    if not is_map(acts):
        return []
    families = _families(data)
    drawn = _drawn(pres)
    out: list[Diagnostic] = []

    def fault(path: list[Any], message: str, hint: str | None = None, key: bool = False) -> None:
        out.append(
            diagnostic_at(data, ["presentation", "acts", *path], CODE, message, key=key, hint=hint)
        )

    for family, spec in acts.items():
        if family not in families:
            fault(
                [family],
                f"no option of the rules is of the family '{family}' (the part of an option "
                "id before its first ':')",
                hint_for(str(family), families),
                key=True,
            )
            continue
        field = spec.get("field") if is_map(spec) else spec
        at = [family, "field"] if is_map(spec) else [family]
        if field not in drawn:
            fault(
                at,
                f"field '{field}' is not drawn as {', '.join(CLICKABLE[:-1])} or "
                f"{CLICKABLE[-1]} (presentation: draw:)",
                hint_for(str(field), drawn),
            )
        part = spec.get("part", 1) if is_map(spec) else 1
        if isinstance(part, int) and part > families[family]:
            fault(
                [family, "part"] if is_map(spec) else [family],
                f"the ids of '{family}' have {families[family]} part(s) after the family, "
                f"not {part}",
            )
    return out
