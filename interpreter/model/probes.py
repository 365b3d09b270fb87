"""The counters of a coverage build: one per rule point (a flow step, an option line offered or
taken, a piece's hook or grant, an arm of an `if`), each at the file:line:col of its rule text.

Only a game loaded with a `Probes` (``load_game(..., probes=Probes())``, which
interpreter/coverage/ does for ``rulebook test --coverage``) has any: its generated code bumps
``counts[k]`` where a point runs. Every other game is compiled exactly as before, with no
counting in it, so collecting costs nothing when it is off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from interpreter.dsl.runtime.runtime_state import Fn, RunningState
from interpreter.ruleset.nodes import TreePath

T = TypeVar("T")

Locate = Callable[[Sequence[str | int], int, int], tuple]

#: what a point counts, in the order reports list them
KINDS = ("step", "option-offered", "option-taken", "effect", "grant", "branch")


@dataclass(frozen=True, order=True)
class Point:
    """One countable rule point. The same point compiled twice (another player count, a rule
    function inlined at several call sites) is one key: reports add up their counts."""

    file: str
    line: int
    column: int
    kind: str  # one of KINDS
    label: str  # what runs there: `choose`, `then`, `ENTRY on EVENT`, an option's id ...


class Probes:
    """The points of one coverage build and how often each ran (``counts[k]`` for
    ``points[k]``)."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.points: list[Point] = []
        # where the text being compiled sits in the rule data, and how a position inside a
        # text becomes file:line:col (both set by the DSL host, model/host.py)
        self.path: TreePath = ()
        self.locate: Locate | None = None
        # (piece type, ability) -> the point of that entry's `grants:` line
        self.grants: dict[tuple[str, str], int] = {}

    def add(
        self, kind: str, label: str, origin: TreePath | None = None, line: int = 1, column: int = 1
    ) -> int:
        """A point inside an effect text (line and column within it); `origin` is the data path
        of an inlined rule function's text, None for the text being compiled."""
        path = origin if origin is not None else self.path
        if self.locate is None:
            return self.point(kind, label, None, line, column)
        file, fline, fcol = self.locate(path, line, column)
        return self.point(kind, label, file, fline, fcol)

    def point(
        self, kind: str, label: str, file: str | None, line: int | None, column: int | None
    ) -> int:
        """A new point at file:line:col; returns its counter's index."""
        self.points.append(Point(str(file or "?"), int(line or 0), int(column or 0), kind, label))
        self.counts.append(0)
        return len(self.counts) - 1

    def hit(self, k: int, value: T) -> T:
        """Count point `k` and pass `value` on (an arm of an `x if c else y` expression)."""
        self.counts[k] += 1
        return value

    def counter(self, k: int) -> Fn:
        """A flow instruction's function that counts point `k`."""
        counts = self.counts

        def count(s: RunningState) -> None:
            counts[k] += 1

        return count

    def wrap(self, k: int, fn: Fn) -> Fn:
        """`fn`, counting point `k` each time it runs."""
        counts = self.counts

        def counted(s: RunningState) -> Any:
            counts[k] += 1
            return fn(s)

        return counted
