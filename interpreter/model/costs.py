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

from interpreter.dsl.compiler import Fn
from interpreter.dsl.resolve.types import ANY, SEAT
from interpreter.model.host import DslHost
from interpreter.ruleset.nodes import Plain
from interpreter.ruleset.presentation import PresentationSection

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


def _forms(value: Plain) -> tuple[str, str]:
    """A text as (one, many): a plain text serves both."""
    if isinstance(value, (list, tuple)) and value:
        return str(value[0]), str(value[-1])
    return str(value or ""), str(value or "")


def compile_costs(host: DslHost, presentation: PresentationSection) -> dict[str, OptionCost]:
    """Every option family's ``cost:`` (presentation/options/FAMILY/cost), compiled."""
    out: dict[str, OptionCost] = {}
    for family, style in presentation.options.items():
        cost = style.cost
        if cost is None:
            continue
        path = list(cost.path)
        scope = host.c.root.child()
        params = cost.params
        slots = [scope.temp(params[0], SEAT)] + [scope.temp(p, ANY) for p in params[1:]]
        price = (
            host.expression(cost.price, [*path, "price"], scope, expect="number").fn
            if cost.price is not None
            else None
        )
        pay = host.expression(cost.pay, [*path, "pay"], scope, expect="number").fn
        because = []
        for reason in cost.because:
            amount = host.expression(
                reason.amount, [*reason.path, "amount"], scope, expect="number"
            ).fn
            because.append(CostReason(reason.name, amount, _forms(reason.text)))
        out[family] = OptionCost(
            family, tuple(slots), price, pay, _forms(cost.unit), tuple(because)
        )
    return out
