"""The code generator (generator.py) as the modules that write parts of its code read it.

How an assignment is written (assignments.py), how a test and the sums it computes become
statements (lowering.py) and a listing's forms of a condition (listing_code.py) each take the
generator that writes the whole text and call back into it for the parts. generator.py imports
them, so they name its shape here, as the :class:`Writer` protocol, instead of importing it;
mypy checks the ``Generator`` against it wherever one is passed. :class:`Memo`, the parts of a
listing's condition computed once a listing, is the one state they share with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

from interpreter.dsl.emit.code_parts import Counters
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.scope import Env
from interpreter.dsl.runtime.runtime_state import Fn

__all__ = ["Memo", "Writer"]


class Memo(dict):
    """id(part) -> its place, for the parts of a listing's condition computed once a listing
    (generator.py's `x` writes each as `form` gives it): kept in the locals ``_m{i}`` of a select
    function, or in the list ``_m`` of a test written as a closure (where a local would be
    the closure's own); `sets`: id(`has` call) -> the place of the set it asks."""

    def __init__(self, parts: list[ir.Expr], local: bool, sets: list[ir.Expr]) -> None:
        super().__init__((id(part), i) for i, part in enumerate(parts))
        self.local = local
        self.sets = {id(node): i for i, node in enumerate(sets)}

    def form(self, i: int, value: str) -> str:
        if self.local:
            return f"(_m{i} if _m{i} is not _U else (_m{i} := {value}))"
        return f"(_m[{i}] if _m[{i}] is not _U else _put(_m, {i}, {value}))"

    def has(self, i: int, area: str, kind: str) -> str:
        """`has(area, kind)` as a lookup in the set of the area's types (an id is in it when
        a piece of that type is: what the builtin's walk finds)."""
        made = f"{{_p['type'] for _p in {area}}}"
        return f"({kind} in (_h{i} if _h{i} is not _U else (_h{i} := {made})))"


class Writer(Protocol):
    """A code generator (generator.py's ``Generator``) as its helper modules use it: what it
    writes against and how, the names it numbers, and the parts it writes on request."""

    @property
    def env(self) -> Env: ...

    @property
    def checked(self) -> bool: ...  # reads that report a fault in words (scenario checks)

    @property
    def deferred(self) -> bool: ...  # texts written when they first run

    @property
    def journal(self) -> bool: ...  # writes noted in the state's journal

    @property
    def probes(self) -> Counters | None: ...  # a coverage build's counters

    @property
    def names(self) -> Iterator[int]: ...  # the numbers of the names it defines

    @property
    def sum_locals(self) -> Iterator[int]: ...  # the numbers of sums' loop locals

    @property
    def ns(self) -> dict[str, Any]: ...  # the namespace its code reads its names from

    @property
    def _named(self) -> dict[int, str]: ...  # id(node) -> the local a line before filled

    # the parts of a listing's condition computed once a listing (None: none)
    _memo: Memo | None
    _loops: int  # how many comprehensions the part being written is inside

    def x(self, node: ir.Expr) -> str: ...

    def _each(self, node: ir.ReduceEach) -> tuple[str, str]: ...

    def _with_flow_reads(self, write: Callable[[], list[str]]) -> list[str]: ...

    def _build(self, body: list[str], label: str) -> Fn: ...
