"""What an option costs, for people: the ``cost:`` of an option family in ``presentation:``.

The section changes no rule. It names, in the effect language, the printed price of what an
option takes, what the deciding seat would really pay (best the ruleset's own cost function, so
the two can never disagree), and each discount that explains the difference, with a text. Each
text is compiled once here, through the DSL host, so a slip is a located diagnostic that
``rulebook validate`` reports like any rule's; the web table and the terminal evaluate them
(table/option_costs.py) to write "1 coin, you pay 0 with 1 discount card".

```yaml
presentation:
  options:
    buy:
      text: "Buy {1}"
      cost:
        params: [p, x]          # the deciding seat, then the option id's parts after the family
        price: x.cost
        pay: buy-cost(p, x)
        unit: [coin, coins]     # one, many
        because:                # a map, so an overlay adds its own discount by name
          cards: {amount: "min(p.cards, 1)", text: ["{n} discount card", "{n} discount cards"]}
```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.dsl.compiler import Fn
from interpreter.dsl.resolve.types import ANY, SEAT
from interpreter.model.host import DslHost

__all__ = ["CostReason", "OptionCost", "compile_costs"]


@dataclass(frozen=True)
class CostReason:
    """One discount: how much it takes off, and its text (one, many; ``{n}`` the amount)."""

    name: str
    amount: Fn
    text: tuple[str, str]


@dataclass(frozen=True)
class OptionCost:
    """The compiled ``cost:`` of one option family."""

    family: str
    slots: tuple[str, ...]  # temp keys: the deciding seat, then one per id part
    price: Fn | None
    pay: Fn
    unit: tuple[str, str]
    because: tuple[CostReason, ...]


def _forms(value: Any) -> tuple[str, str]:
    """A text as (one, many): a plain text serves both."""
    if isinstance(value, (list, tuple)) and value:
        return str(value[0]), str(value[-1])
    return str(value or ""), str(value or "")


def compile_costs(host: DslHost, data: Any) -> dict[str, OptionCost]:
    """Every option family's ``cost:`` (presentation/options/FAMILY/cost), compiled."""
    section = (data.get("presentation") or {}).get("options") or {}
    out: dict[str, OptionCost] = {}
    for family, spec in section.items():
        cost: Any = spec.get("cost") if hasattr(spec, "get") else None
        if not hasattr(cost, "get"):
            continue
        path = ["presentation", "options", family, "cost"]
        scope = host.c.root.child()
        params = [str(p) for p in cost.get("params") or ["seat"]]
        slots = [scope.temp(params[0], SEAT)] + [scope.temp(p, ANY) for p in params[1:]]
        price = (
            host.expression(cost["price"], [*path, "price"], scope, expect="number").fn
            if "price" in cost
            else None
        )
        pay = host.expression(cost.get("pay", 0), [*path, "pay"], scope, expect="number").fn
        because = []
        for name, reason in (cost.get("because") or {}).items():
            rpath = [*path, "because", name]
            amount = host.expression(
                reason.get("amount", 0), [*rpath, "amount"], scope, expect="number"
            ).fn
            because.append(CostReason(str(name), amount, _forms(reason.get("text", name))))
        out[str(family)] = OptionCost(
            str(family), tuple(slots), price, pay, _forms(cost.get("unit")), tuple(because)
        )
    return out
