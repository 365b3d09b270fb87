"""Which stacks of overlays a file joins: an overlay's chain with each set of the overlays beside
its base, each set ordered so that an overlay comes after the one it extends.

``rulebook validate`` composes and compiles these stacks (check/stacks.py) and ``--smoke`` plays
them (simulate/smoke.py); both take them from here, so the two verdicts are about the same
stacks. Each caller says how it knows an overlay: ``parent`` gives the key of what an overlay
extends and ``key`` the key it is known by (an id, or a file's real path), the same kind of key.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

__all__ = ["MAX_COMBINATIONS", "in_extends_order", "stacks_beside"]

# Most stacks (or combinations of a base's own overlays) composed for one file.
MAX_COMBINATIONS = 16


def in_extends_order(
    combo: Sequence[str],
    known: Iterable[str],
    parent: Callable[[str], str | None],
    key: Callable[[str], str],
) -> list[str] | None:
    """``combo`` ordered so that each overlay comes after what it extends (name order
    otherwise), or None when one extends something neither ``known`` nor in the combo."""
    have = set(known)
    left = list(combo)
    out: list[str] = []
    while left:
        ready = [p for p in left if parent(p) in have]
        if not ready:
            return None
        out.append(ready[0])
        left.remove(ready[0])
        have.add(key(ready[0]))
    return out


def stacks_beside(
    chain: Sequence[str],
    others: Sequence[str],
    known: Iterable[str],
    parent: Callable[[str], str | None],
    key: Callable[[str], str],
    *,
    smallest: int,
) -> list[list[str]]:
    """The chain (ending with the overlay itself) with each set of ``others`` of at least
    ``smallest`` files, smallest sets first, each set in ``extends`` order after the chain's
    other files and before the overlay, which composes last; at most ``MAX_COMBINATIONS``."""
    known = set(known)
    stacks: list[list[str]] = []
    for size in range(smallest, len(others) + 1):
        for combo in itertools.combinations(others, size):
            ordered = in_extends_order(combo, known, parent, key)
            if ordered is not None:
                stacks.append([*chain[:-1], *ordered, chain[-1]])
            if len(stacks) == MAX_COMBINATIONS:
                return stacks
    return stacks
