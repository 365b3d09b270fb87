"""Puerto Rico pieces the base game and the expansions share: goods, doubloons, victory points.

Every helper moves things between a supply and a player (never creates or destroys them), so
the conservation checks of tests/puerto_rico and tests/puerto_rico_expansions hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")


def set_goods(s: Any, seat: int, **goods: int) -> None:
    """Set `seat`'s goods exactly (others 0), moving barrels to and from the goods supply."""
    mine = s.p[seat]["goods"]
    for k in GOODS:
        s.g["goods-supply"][k] += mine[k]
        mine[k] = 0
    for k, n in goods.items():
        assert s.g["goods-supply"][k] >= n, f"not enough {k} in the supply"
        s.g["goods-supply"][k] -= n
        mine[k] = n


def set_doubloons(s: Any, seat: int, n: int) -> None:
    pl = s.p[seat]
    s.g["bank"] += pl["doubloons"] - n
    pl["doubloons"] = n


def give_vp(s: Any, seat: int, n: int) -> None:
    assert s.g["vp-chips"] >= n
    s.g["vp-chips"] -= n
    s.p[seat]["vp-chips"] += n


def vp(s: Any, seat: int) -> int:
    return s.p[seat]["vp-chips"] + s.p[seat]["vp-paper"]


def finish_game(s: Any, quiet_roles: Sequence[str]) -> Any:
    """Note an end trigger (unless one is noted), finish the round passing or taking the first
    of `quiet_roles` on offer (roles that change least), return the result."""
    if s.g["end-trigger"] is None:
        s.g["end-trigger"] = "test"
    while not s.is_over:
        opts = s.legal_options()
        for oid in ("pass", *quiet_roles):
            if oid in opts:
                s.apply(oid)
                break
        else:
            s.apply(opts[0])
    return s.result()
