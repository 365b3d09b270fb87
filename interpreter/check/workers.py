"""Run one function over a few work lists in forked worker processes (validation's fan-out).

Forking, not spawning: the children start with everything the parent has already loaded
(parsed files, imported modules), so a worker pays only for its own share of the checking.
Where fork is not available, or there is only one list, the lists run here, one after another.
Also the process-level setting a check runs under: fewer garbage collections (see below).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

_TASK: Callable[[Any], Any] | None = None  # set in the parent just before forking


# Allocations between young-generation collections while checking (CPython's default: 700).
# A check builds hundreds of thousands of small objects (parse trees, resolved code) that live
# until its file is done; at the default, the collector walks them again and again, which
# measured a third of `rulebook validate rulesets/` (bench_validate). Memory stays bounded: the
# collections still run, only less often (peak RSS within a few MB).
_FEWER = 100_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect garbage less often inside the block (a batch of short-lived allocations);
    restores the thresholds after, also when nested or when the block raises."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], _FEWER), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def env_jobs() -> int:
    """``RULEBOOK_JOBS`` as a whole number (a cap for shared CI machines); anything else, or
    nothing, is 0: "not set"."""
    text = os.environ.get("RULEBOOK_JOBS", "").strip()
    return int(text) if text.isdigit() else 0


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
