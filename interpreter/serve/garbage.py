"""The garbage collector's settings for the server's long-lived processes: the event loop's and
each rule worker's (``rule_workers.py``).

Both allocate a few hundred small containers a move (a request's parsing, a position's
message, a snapshot) that live until the move is answered. At CPython's default (a
young-generation collection every 700 allocations) the collector walked them, and every tenth
time the older generations, and now and then the whole heap (the imported modules, the
compiled rules): a share of each process's CPU worth cutting (docs/performance.md). So once
a process is started its heap is frozen out of the collector's walks (what it holds then lives
as long as the process) and the young generation is collected less often. Cyclic garbage made
later is still collected, only after more allocations.
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG", "settle"]

YOUNG = 20_000  # allocations between young-generation collections (CPython's default: 700)


def settle() -> None:
    """Freeze what this process holds now out of the collector's walks, and collect the young
    generation every :data:`YOUNG` allocations (the older generations' thresholds kept)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(max(gc.get_threshold()[0], YOUNG), *gc.get_threshold()[1:])
