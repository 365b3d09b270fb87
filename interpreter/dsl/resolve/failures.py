"""The faults the resolve pass raises (resolver.py, calls.py, barewords.py): a semantic fault
at a place in the text (`fail`), and one found inside an inlined rule function, which the model
reports at the function's own text (`_Nested`)."""

from __future__ import annotations

from lark import Token, Tree

from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.resolve.scope import Callable_

__all__ = ["DslCompileError", "_Nested", "fail", "with_guess"]


class DslCompileError(DslSyntaxError):
    """A semantic fault in an effect text (unknown name, wrong argument count, ...)."""


class _Nested(DslCompileError):
    """An error inside an inlined rule function: reported at the function's own text."""

    def __init__(self, fn: Callable_, inner: DslSyntaxError) -> None:
        super().__init__(inner.message, inner.line, inner.column, inner.code)
        self.function = fn
        self.inner = inner


def fail(node: Tree | Token, message: str, code: str = "D002") -> DslCompileError:
    line = getattr(node, "line", None)
    column = getattr(node, "column", None)
    if line is None and isinstance(node, Tree) and not node.meta.empty:
        line, column = node.meta.line, node.meta.column
    return DslCompileError(message, line or 1, column or 1, code)


def with_guess(message: str, guess: str | None, otherwise: str = "") -> str:
    """`message` with its did-you-mean, or `otherwise` where there is no guess."""
    return message + (f"; did you mean '{guess}'?" if guess else otherwise)
