"""The `invariants:` section: conditions in the effect language that hold after every decision
(money and workers conserved, counts never negative ...), each compiled once through the DSL
host at ["invariants", name] and kept with the file:line:col of its text.

The engine checks them on a state (engine/invariant_checks.py) for the drivers that ask for it
(`rulebook test`, `rulebook simulate --check`, property tests); plain play never runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from interpreter.dsl.compiler import Fn
from interpreter.load.locate import json_pointer
from interpreter.model.host import DslHost
from interpreter.ruleset.definitions import InvariantDecl


@dataclass(frozen=True)
class Invariant:
    """One declared condition and where its text is."""

    name: str
    test: Fn
    file: str | None
    line: int | None
    column: int | None
    json_path: str
    doc: str = ""

    def where(self) -> str:
        return ":".join(str(x) for x in (self.file, self.line, self.column) if x is not None)


def compile_invariants(host: DslHost, declared: Sequence[InvariantDecl]) -> tuple[Invariant, ...]:
    """Every entry of `invariants:` (name -> expression, or {expr, doc}), in file order."""
    out: list[Invariant] = []
    for decl in declared:
        path = list(decl.path)
        # a condition, type-checked like an `if:` (D008 for a number, a list, ...)
        test = host.expression(decl.expr, path, expect="bool").fn
        file, line, column = host.position(path, 1, 1)
        out.append(Invariant(decl.name, test, file, line, column, json_pointer(path), decl.doc))
    return tuple(out)
