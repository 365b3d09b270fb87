"""A type fault of the effect language (TypeFault) and the small helpers every type rule uses:
where a token is, the type a resolved node was given, and how a message names a value."""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.types import ANY, Optional, Type, describe
from interpreter.dsl.runtime.support import show as show_value

__all__ = ["TypeFault", "found_words", "position", "strip_optional", "type_of"]


class TypeFault(DslSyntaxError):
    """A value of the wrong type; `culprit` is the resolved value to blame, `expected` what
    was wanted in its place (None: no single type would do)."""

    def __init__(
        self,
        message: str,
        at: Tree | Token,
        culprit: ir.Expr | None = None,
        expected: Type | None = None,
        code: str = "D008",
    ) -> None:
        line, column = position(at)
        super().__init__(message, line, column, code)
        self.culprit = culprit
        self.expected = expected


def position(node: Tree | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    if not node.meta.empty:
        return node.meta.line, node.meta.column
    for tok in node.scan_values(lambda v: isinstance(v, Token)):
        return tok.line or 1, tok.column or 1
    return 1, 1


def type_of(node: ir.Expr) -> Type:
    return getattr(node, "ty", None) or ANY


def found_words(node: ir.Expr) -> str:
    """What a value is, for messages: its type, and the id itself when known at load."""
    words = describe(type_of(node))
    if isinstance(node, ir.Const) and isinstance(node.value, str):
        words += f" ('{show_value(node.value)}')"
    return words


def strip_optional(t: Type) -> Type:
    """`t` without its 'or none' (the checks that need a value check that part themselves)."""
    return t.inner if isinstance(t, Optional) else t


def literal(tree: Any, node: ir.Expr) -> bool:
    """Whether `node` is a value written out (`none`, an id), not a name that stands for one."""
    if not isinstance(node, ir.Const):
        return False
    while isinstance(tree, Tree) and len(tree.children) == 1 and isinstance(tree.children[0], Tree):
        tree = tree.children[0]  # a chain of one-operand levels
    if isinstance(tree, Tree) and tree.data == "name":
        return str(tree.children[0]) == ("none" if node.value is None else str(node.value))
    return isinstance(tree, Tree) and tree.data in ("none", "number", "string")
