"""Run one function over a few work lists in forked worker processes (validation's fan-out).

Forking, not spawning: the children start with everything the parent has already loaded
(parsed files, imported modules), so a worker pays only for its own share of the checking.
Where fork is not available, or there is only one list, the lists run here, one after another.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_TASK: Callable[[Any], Any] | None = None  # set in the parent just before forking


def available_cores() -> int:
    """Cores this process may run on (the affinity mask where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def balance(costs: Sequence[tuple[T, float]], bins: int) -> list[list[T]]:
    """Split items into at most ``bins`` lists of similar total cost (largest first, each to the
    lightest list), keeping each list in the items' original order.

    >>> balance([("a", 5), ("b", 4), ("c", 3), ("d", 2)], 2)
    [['a', 'd'], ['b', 'c']]
    """
    order = {item: i for i, (item, _) in enumerate(costs)}
    loads = [0.0] * max(1, bins)
    lists: list[list[T]] = [[] for _ in loads]
    for item, cost in sorted(costs, key=lambda ic: -ic[1]):
        k = loads.index(min(loads))
        loads[k] += cost
        lists[k].append(item)
    return [sorted(lst, key=order.__getitem__) for lst in lists if lst]


def _call(arg: Any) -> Any:
    assert _TASK is not None
    return _TASK(arg)


def run_all(task: Callable[[Any], T], args: Sequence[Any]) -> list[T]:
    """``[task(a) for a in args]``, each in its own forked process when that is possible."""
    global _TASK
    if len(args) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [task(a) for a in args]
    _TASK = task
    try:
        with multiprocessing.get_context("fork").Pool(len(args)) as pool:
            return pool.map(_call, args)
    except (OSError, multiprocessing.ProcessError):  # no processes to be had: do it here
        return [task(a) for a in args]
    finally:
        _TASK = None
