"""The `invariants:` section: conditions in the effect language that hold after every decision
(money and workers conserved, counts never negative ...), each compiled once through the DSL
host at ["invariants", name] and kept with the file:line:col of its text.

The engine checks them on a state (engine/invariants.py) for the drivers that ask for it
(`rulebook test`, `rulebook simulate --check`, property tests); plain play never runs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.dsl.compiler import Fn
from interpreter.dsl.parser import DslSyntaxError, parse
from interpreter.load.locate import json_pointer
from interpreter.model.host import DslHost
from interpreter.model.values import rule_text

# what an expression's outermost form says it gives, when that is plainly not yes/no
_NOT_CONDITIONS = {
    "number": "a number",
    "string": "a text",
    "list_": "a list",
    "binop": "a number",
    "neg": "a number",
}
_NUMBER_CALLS = {"sum", "count", "len", "total", "min", "max", "abs", "list", "distinct", "keys"}


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


def compile_invariants(host: DslHost, data: Any) -> tuple[Invariant, ...]:
    """Every entry of `invariants:` (name -> expression, or {expr, doc}), in file order."""
    out: list[Invariant] = []
    for name, spec in (data.get("invariants") or {}).items():
        if hasattr(spec, "get"):
            text, doc, path = (
                spec.get("expr", ""),
                str(spec.get("doc", "")),
                ["invariants", name, "expr"],
            )
        else:
            text, doc, path = spec, "", ["invariants", name]
        test = host.expression(text, path)
        kind = _not_a_condition(rule_text(text))
        if kind is not None:
            host.error(path, "D002", f"an invariant must be a condition (yes/no), not {kind}")
        file, line, column = host.position(path, 1, 1)
        out.append(Invariant(str(name), test, file, line, column, json_pointer(path), doc))
    return tuple(out)


def _not_a_condition(text: str) -> str | None:
    """What the text plainly gives instead of yes/no (a number, a list ...), else None; what
    only running can tell (a field, a function's result) is checked as the game runs."""
    try:
        tree = parse(text, "expr")
    except DslSyntaxError:
        return None  # reported by the compile itself
    while tree.data in ("or_", "and_", "compare", "binop") and len(tree.children) == 1:
        tree = tree.children[0]  # a lone operand: the parser keeps a node per precedence level
    kind = _NOT_CONDITIONS.get(tree.data)
    if kind is None and tree.data == "call" and str(tree.children[0]) in _NUMBER_CALLS:
        kind = f"the value of {tree.children[0]}(...)"
    return kind
