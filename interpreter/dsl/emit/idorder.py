"""The order options come in: the order their ids are declared in the ruleset.

An option line's `for` over ids (`t in distinct(x.type for x in actor.area)`,
`c in distinct(actor.hand)`) goes through a collection in the state's order: pieces in the
order they were placed, a pile in the order it was drawn, a bag's keys in the order they were
first counted. That order changes as the game goes on (a piece filled, a card paid), and the
options would change places between two prompts of one decision under a typed number or a
finger. So the engine lists the values of such a `for` in the order their ids are declared in
their set or catalog (engine/options.py), the same at every prompt: this module gives that
order.

>>> from interpreter.dsl.resolve.types import Id, OneOf
>>> universes = {"crates": ("red", "blue"), "boxes": ("small", "big"), "n": 3}
>>> order = declared_order(universes, OneOf((Id("boxes"), Id("crates"))))
>>> sorted(["big", "blue", "small", "red"], key=order.__getitem__)
['red', 'blue', 'small', 'big']
>>> declared_order(universes, Id("crates"), ("red", "blue")) is None  # already in order
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.dsl.resolve.types import Id, OneOf, Type


class IdOrder(dict[str, int]):
    """Each id's place; a value not declared (never, by its type) goes after them all."""

    __slots__ = ()

    def __missing__(self, key: str) -> int:
        return len(self)


def declared_order(
    constants: Mapping[str, Any], item: Type | None, fixed: Any = None, every: bool = False
) -> IdOrder | None:
    """The place of each id a value of type `item` may be: its set's or catalog's order (ids of
    several, as in ``x.type for x in p.yard + p.shed``: each universe's ids in turn, the
    universes in the order the ruleset declares them). None when the values are not ids of
    declared sets or catalogs, or when they are the constant `fixed`, already in that order.
    `every` with no type known (an unchecked build): every declared id, in the same order."""
    if item is None and every:
        members: tuple[Any, ...] = tuple(
            Id(name)
            for name, ids in constants.items()
            if isinstance(ids, tuple) and ids and all(type(x) is str for x in ids)
        )
        if not members:
            return None
        return _ordered(constants, members, fixed)
    if isinstance(item, Id):
        members = (item,)
    elif isinstance(item, OneOf) and all(type(m) is Id for m in item.members):
        place = {name: i for i, name in enumerate(constants)}  # in the order declared
        members = tuple(sorted(item.members, key=lambda m: place.get(m.universe, len(place))))
    else:
        return None
    return _ordered(constants, members, fixed)


def _ordered(constants: Mapping[str, Any], members: tuple[Any, ...], fixed: Any) -> IdOrder | None:
    order = IdOrder()
    for member in members:
        ids = constants.get(member.universe)
        if not isinstance(ids, tuple) or not all(type(x) is str for x in ids):
            return None  # not a set's or catalog's ids (the phases)
        for x in ids:
            order.setdefault(x, len(order))
    if isinstance(fixed, tuple | list) and all(
        order[a] <= order[b] for a, b in zip(fixed, fixed[1:], strict=False)
    ):
        return None
    return order
