"""Bare words read by where they are written: an end trigger where a text gives one, a key of a
table known at load where a text reads that table. A rule says "the game ends: the points ran
out" and "if the points running out ends the game"; its text writes `trigger-end(points)` and
`ends-when[points-run-out]`, without quotes.

Where a text gives an end trigger (the names under `presentation: ends:`, Env.end_triggers):
* the value assigned to a trigger field (a state field the flow's `trigger:` reads:
  `end-trigger = city`), or compared with one (`end-trigger == city`);
* an argument a rule function or procedure passes on to such a field (a parameter `why` of
  `trigger-end` whose text says `end-trigger = why`: `trigger-end(points)`).
There, a bare word that is an end trigger is that trigger, even where it also names a state
field or a table (a counter `points` beside the trigger `points`); a local name (a `let`,
a loop's, a parameter) keeps its meaning. A bare word naming no trigger and nothing else is
R001 (unknown end trigger) with a did-you-mean among the triggers.

Where a text reads a table known at load by a key (`ends-when[city-full]`), a bare word
that names nothing else and is a key of that table is that key; naming nothing and no key, it
is D003 with a did-you-mean among the keys too.
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Token, Tree

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.failures import fail, with_guess
from interpreter.dsl.resolve.scope import SPECIAL_NAMES, Callable_, Env, Scope

__all__ = ["BareWords"]


def _bare(node: Tree | Token) -> Token | None:
    """The word of a text that is one bare name (`city`), else None."""
    if isinstance(node, Tree) and node.data == "name":
        tok = node.children[0]
        return tok if isinstance(tok, Token) else None
    return None


def trigger_params(env: Env, fn: Callable_, visiting: frozenset[str] = frozenset()) -> set[str]:
    """The parameters of `fn` whose argument is an end trigger: what its text assigns to a
    trigger field (`end-trigger = why`), or passes on to another function's such parameter."""
    if not env.trigger_fields or fn.name in visiting:
        return set()
    known = env.trigger_param_names.get(fn.name)
    if known is not None:
        return known
    try:
        tree = fn.tree()
    except DslSyntaxError:
        return set()
    found: set[str] = set()
    for node in tree.iter_subtrees():
        if node.data == "assign":
            target, value = _bare(node.children[0]), _bare(node.children[-1])
            if target in env.trigger_fields and value in fn.params:
                found.add(str(value))
        elif node.data in ("call_stmt", "call") and isinstance(node.children[0], Token):
            callee = env.functions.get(str(node.children[0]))
            if callee is None or len(node.children) < 2:
                continue
            args = node.children[1].children if isinstance(node.children[1], Tree) else []
            passed = trigger_params(env, callee, visiting | {fn.name})
            for param, arg in zip(callee.params, args, strict=False):
                word = _bare(arg)
                if param in passed and word in fn.params:
                    found.add(str(word))
    env.trigger_param_names[fn.name] = found
    return found


# the resolver's walk of an expression (resolver.py), what a word that is no bare word is read by
ExprWalk = Callable[[Tree | Token, Scope], ir.Expr]


class BareWords:
    """The bare-word readings of a resolver's texts: `expr` reads a text that is none."""

    def __init__(self, env: Env, root: Scope, expr: ExprWalk) -> None:
        self.env = env
        self.root = root
        self.expr = expr

    def _local(self, word: str, scope: Scope) -> bool:
        """Whether `word` is a name the text itself binds (a let, a loop's, a parameter)."""
        hit = scope.lookup(word)
        return hit is not None and self.root.bindings.get(word) is not hit

    def _names_something(self, word: str, scope: Scope) -> bool:
        env = self.env
        return (
            scope.lookup(word) is not None
            or word in env.global_fields
            or word in env.constants
            or word in env.functions
            or word in SPECIAL_NAMES
        )

    def trigger_params(self, fn: Callable_) -> set[str]:
        """The parameters of `fn` whose argument is an end trigger."""
        return trigger_params(self.env, fn)

    def is_trigger_field(self, node: Tree | Token, scope: Scope) -> bool:
        """Whether `node` is a bare trigger field (`end-trigger`), not a local name."""
        word = _bare(node)
        return word in self.env.trigger_fields and not self._local(str(word), scope)

    def trigger_value(self, node: Tree | Token, scope: Scope) -> ir.Expr:
        """`node` where its value is an end trigger (see the module docstring)."""
        tok = _bare(node)
        triggers = self.env.end_triggers
        if tok is None or not triggers or self._local(str(tok), scope):
            return self.expr(node, scope)
        word = str(tok)
        if word in triggers:
            return ir.Const(word)
        if self._names_something(word, scope):
            return self.expr(node, scope)
        guess = did_you_mean(word, triggers)
        raise fail(tok, with_guess(f"unknown end trigger '{word}'", guess), "R001")

    def key_value(self, table: ir.Expr, node: Tree | Token, scope: Scope) -> ir.Expr:
        """`node` as the key `table` is read by (see the module docstring)."""
        tok = _bare(node)
        if tok is None or not isinstance(table, ir.Const) or not isinstance(table.value, dict):
            return self.expr(node, scope)
        word = str(tok)
        if self._names_something(word, scope):
            return self.expr(node, scope)
        keys = [str(k) for k in table.value if isinstance(k, str)]
        if word in keys:
            return ir.Const(word)
        guess = did_you_mean(word, [*keys, *scope.visible(), *self.env.names()])
        raise fail(tok, with_guess(f"unknown name '{word}'", guess), "D003")
