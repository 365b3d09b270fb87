"""The places a :class:`~interpreter.infoset.knowledge.Recorder` follows: every pile of the
state, as ``("g", name)`` for a global pile or ``(seat, name)`` for a seat's, and, worked out
once from the rules' declarations, which of them each seat cannot see, which belong together
(one collection), and which hide their size from every seat but their owner (``hidden: all``).
"""

from __future__ import annotations

from collections.abc import Mapping

from interpreter.infoset.position import SecretRules

__all__ = ["Place", "kin_places", "pile_places", "unseen_by", "untold_places"]

Place = tuple[int | str, str]  # ("g", field) or (seat, field)


def pile_places(rules: SecretRules, seats: int) -> list[Place]:
    """Every place that is a pile: the global ones, then each seat's."""
    return [("g", n) for n, (kind, _s) in rules.global_init.items() if kind == "pile"] + [
        (seat, n)
        for seat in range(seats)
        for n, (kind, _s) in rules.player_init.items()
        if kind == "pile"
    ]


def unseen_by(rules: SecretRules, places: list[Place], seat: int) -> frozenset[Place]:
    """The places ``seat`` cannot see: hidden globals, and the other seats' hidden fields."""
    return frozenset(
        pl
        for pl in places
        if (pl[0] == "g" and pl[1] in rules.hidden_global)
        or (pl[0] != "g" and pl[0] != seat and pl[1] in rules.hidden_player)
    )


def kin_places(
    collections: Mapping[str, str], unseen: frozenset[Place]
) -> dict[Place, frozenset[Place]]:
    """Per unseen place, the unseen places of its collection."""
    return {
        pl: frozenset(
            q for q in unseen if collections.get(q[1], q[1]) == collections.get(pl[1], pl[1])
        )
        for pl in unseen
    }


def untold_places(
    rules: SecretRules, places: list[Place]
) -> dict[str, tuple[tuple[Place, ...], tuple[Place, ...]]]:
    """Per collection with places hidden as ``all``: those places, and all its places."""
    collections = rules.collections
    out: dict[str, tuple[tuple[Place, ...], tuple[Place, ...]]] = {}
    for key in {collections.get(pl[1], pl[1]) for pl in places}:
        kin = tuple(pl for pl in places if collections.get(pl[1], pl[1]) == key)
        untold = tuple(pl for pl in kin if pl[1] in rules.hidden_all)
        if untold:
            out[key] = (untold, kin)
    return out
