"""A scenario's rule expressions (``until:``, an ``expect`` text), compiled as the game's own
DSL compiler compiles them, against the game's names and its flow variables: the one
implementation behind T003 of ``rulebook validate`` and ``rulebook test`` (scenario/expect.py),
so the two commands refuse exactly the same texts.

An expectation only looks: a call that changes the state (``draw``, a procedure) is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lark import Tree

from interpreter.dsl.compiler import Compiler, EmitPlan, Env, Scope
from interpreter.dsl.parse.parser import DslSyntaxError, parse
from interpreter.ruleset.flow_steps import FlowSection

__all__ = ["MUTATING", "ExpressionFault", "compile_look", "flow_names"]

# builtins that change the state; an expectation only looks
MUTATING = frozenset({"draw", "push", "shuffle", "clear", "remove", "place", "random"})


class ExpressionFault(Exception):
    """An expression that does not compile: why, and where in its own text (1-based)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def compile_look(env: Env, names: Iterable[str], text: str) -> tuple[Any, Any, str | None]:
    """(whole, left, op) of an expression over the game's names and the flow variables
    ``names``: ``left``/``op`` are set when the text is one comparison, to report it.
    Raises :class:`ExpressionFault`."""
    scope = Scope(None, **{k: ("var", k) for k in names})
    compiler = Compiler(env, scope, EmitPlan(checked_reads=True))
    try:
        tree = parse(text, "expr")
        _refuse_changes(tree, env)
        whole = compiler.expression_tree(tree, scope.child(), text)
        left = op = None
        if isinstance(tree, Tree) and tree.data == "compare":
            left = compiler.expression_tree(tree.children[0], scope.child(), text)
            op = str(tree.children[1])
        return whole, left, op
    except DslSyntaxError as e:
        raise ExpressionFault(e.message, e.line, e.column) from None


def _refuse_changes(tree: Tree, env: Env) -> None:
    for node in tree.iter_subtrees():
        if node.data == "call":
            tok = node.children[0]
            name = str(tok)
            fn = env.functions.get(name)
            if name in MUTATING or (fn is not None and fn.is_procedure):
                line = getattr(tok, "line", 1) or 1
                col = getattr(tok, "column", 1) or 1
                if line == 1:  # parse() reads an expression inside brackets
                    col = max(1, col - 1)
                raise DslSyntaxError(
                    f"'{name}' changes the state; an expectation may only look", line, col
                )


def flow_names(flow: FlowSection) -> set[str]:
    """Every flow variable a ruleset declares (``flow: variables:``, and the seat each
    ``each-player`` loop names, ``actor`` by default): the names an expression may read at
    some moment of the game."""
    found = set(flow.variables)
    for step in flow.steps():
        if step.kind == "each-player":
            found.add(step.loop.seat)
    return found
