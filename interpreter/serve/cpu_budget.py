"""A CPU-time budget for a block of work in a rule worker (``player.py``): a timer signal
that stops the work with :class:`OverBudget` once the process has used the budget.

The signal's handler runs between two Python steps of whatever runs then, so where it
raises decides what the exception can break. It raises only in the interpreter's own code
and the code it writes from rule texts, never inside an import or a library:

* the import system is Python code, and an exception between two of its steps can leave a
  module half made in ``sys.modules``, failing every later request of the worker;
* a library may catch every exception: ruamel.yaml's ``CommentedMap.get`` answers its default
  for any exception, so a stop raised there is swallowed and the compile goes on without a
  budget, reading a key as missing that is there;
* Python prints an exception raised in a ``__del__`` as ignored, with its traceback, and
  goes on: the stop would be lost.

Elsewhere the handler looks again after :data:`GRACE_S` of CPU time: imports and library
calls are bounded by the input the server already bounds, and the worker's own watchdog
(``rule_workers.py``) kills a worker whose request runs on past twice its budget.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

__all__ = ["GRACE_S", "OverBudget", "cpu_budget"]

GRACE_S = 0.005  # CPU seconds between looks while the budget waits for a place to stop
_OWN = str(Path(__file__).resolve().parents[1]) + os.sep  # the interpreter package's folder
# code objects without a file: the ones the import system runs, and those other code wrote
# (dataclasses, namedtuple, fastjsonschema's validators); any other is a rule's compiled text
_NOT_OURS = ("<frozen", "<string>", "<schema")


class OverBudget(BaseException):  # noqa: N818 - a stop, like KeyboardInterrupt, not an error
    """A request passed its CPU-time budget (raised in the worker by a timer signal; a
    BaseException, so that no rule's or bot's ``except Exception`` swallows it)."""


def stoppable(frame: FrameType | None) -> bool:
    """Whether the work may be stopped in ``frame``: the interpreter's own code or code it
    wrote, with no import and no finalizer (``__del__``) running below it."""
    if frame is None:
        return False
    name = frame.f_code.co_filename
    if not (name.startswith(_OWN) or (name.startswith("<") and not name.startswith(_NOT_OURS))):
        return False
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith("<frozen importlib") or code.co_name == "__del__":
            return False
        frame = frame.f_back
    return True


def _over_budget(_signum: int, frame: FrameType | None) -> None:
    if not stoppable(frame):
        signal.setitimer(signal.ITIMER_PROF, GRACE_S)
        return
    raise OverBudget


@contextlib.contextmanager
def cpu_budget(seconds: float | None) -> Iterator[None]:
    """Interrupt the block with :class:`OverBudget` once this process has used ``seconds`` of
    CPU time in it (None: no budget), at the first place after that where it may stop
    (:func:`stoppable`). Only in a process's main thread (a worker's)."""
    if seconds is None:
        yield
        return
    previous = signal.signal(signal.SIGPROF, _over_budget)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
