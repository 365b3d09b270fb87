"""What an option would cost the seat that decides, in words: the ruleset's ``cost:`` hooks
(model/costs.py) evaluated on the live state, for the option's text on the web table and at
the terminal: ``1 coin, you pay 0 with 1 discount card and the privilege``.

Evaluating changes nothing: the hook's parameters go in scratch slots that are removed again,
and a hook that fails (a slip the checks could not see) just leaves the cost out.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.machine import RULE_FAILURES
from interpreter.engine.state import State
from interpreter.model.costs import OptionCost

__all__ = ["cost_text", "describe_cost"]


def cost_text(state: State, option: str) -> str | None:
    """The cost of ``option`` for the seat to move, in words; None when its family has no
    ``cost:`` (or the hook cannot be evaluated here)."""
    family, *parts = option.split(":")
    spec: OptionCost | None = state.game.rules.costs.get(family)
    if spec is None or state.to_move is None or len(parts) < len(spec.slots) - 1:
        return None
    args = [state.to_move, *(int(p) if p.isdigit() else p for p in parts)]
    scratch = state.t
    saved = {key: scratch[key] for key in spec.slots if key in scratch}
    try:
        scratch.update(zip(spec.slots, args, strict=False))
        price = spec.price(state) if spec.price is not None else None
        pay = spec.pay(state)
        reasons = [(r.text, r.amount(state)) for r in spec.because]
    except RULE_FAILURES:
        return None
    finally:
        for key in spec.slots:
            scratch.pop(key, None)
        scratch.update(saved)
    return describe_cost(spec.unit, price, pay, reasons)


def _count(forms: tuple[str, str], n: Any) -> str:
    return (forms[0] if n == 1 else forms[1]).replace("{n}", str(n))


def describe_cost(
    unit: tuple[str, str], price: Any, pay: Any, reasons: list[tuple[tuple[str, str], Any]]
) -> str:
    """``2 coins, you pay 1 with the privilege``; the reasons with amount 0 left out.

    >>> describe_cost(("coin", "coins"), 1, 0, [(("{n} card", "{n} cards"), 1), (("x", "x"), 0)])
    '1 coin, you pay 0 with 1 card'
    >>> describe_cost(("coin", "coins"), 3, 3, [])
    '3 coins'
    >>> describe_cost(("coin", "coins"), None, 2, [])
    'you pay 2 coins'
    """
    if price is None:
        return f"you pay {pay} {_count(unit, pay).strip()}".rstrip()
    text = f"{price} {_count(unit, price)}".rstrip()
    if pay == price:
        return text
    named = [_count(forms, n) for forms, n in reasons if isinstance(n, int) and n > 0]
    why = ""
    if named:
        why = " with " + (
            named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
        )
    return f"{text}, you pay {pay}{why}"
