"""The effect-language pipeline, once per text at load time: parse (parser.py), resolve names
and check (resolver.py, every diagnostic), then write Python (generator.py, what games run on).

An :class:`EmitPlan` says when the code is written (:class:`Emit`): a compiler that checks only
stops after the resolve pass (validation wants the diagnostics only, and gets the same ones a
game's load would raise); the others write it as each text is compiled or when it first runs.

This module is the package's front door: the model builder and the scenario runner import the
names they need from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from lark import Token, Tree

from interpreter.dsl.emit.code_parts import Counters
from interpreter.dsl.emit.emitter import NOT_CONSTANT, Emitted, Select
from interpreter.dsl.emit.generator import Deferred, Generator
from interpreter.dsl.emit.idorder import declared_order
from interpreter.dsl.emit.listing_code import listing_condition, listing_select
from interpreter.dsl.parse.parser import parse
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.failures import DslCompileError, _Nested
from interpreter.dsl.resolve.resolver import Resolver
from interpreter.dsl.resolve.scope import Callable_, Env, Scope
from interpreter.dsl.resolve.types import ANY, Type, is_text_id, item_of
from interpreter.dsl.runtime.runtime_state import Fn, RunningState
from interpreter.dsl.runtime.support import RuntimeRuleError

__all__ = [
    "Callable_",
    "Compiler",
    "Deferred",
    "DslCompileError",
    "Emitted",
    "Emit",
    "EmitPlan",
    "Env",
    "FOR_PLAY",
    "Fn",
    "RuntimeRuleError",
    "Scope",
    "_Nested",
]


def _unchecked(s: RunningState) -> None:
    """What a checking compiler returns: its texts are resolved, never run."""
    return None


class Emit(Enum):
    """When a compiler writes the Python code of a text, and whether it resolves and checks the
    text first. The resolve pass (every name resolved, every diagnostic raised) is most of a
    build's time; the code is what games run on."""

    # resolved and checked, no code written: validation, which wants the diagnostics only
    CHECK_ONLY = "check only"
    # resolved, checked and written as each text is compiled: games
    NOW = "now"
    # resolved and checked now, written when the text first runs: validation's set-up, which
    # runs few texts
    ON_FIRST_RUN = "on first run"
    # parsed, resolved (unchecked) and written when the text first runs: the set-up of a player
    # count whose texts were already checked with another count
    UNCHECKED_ON_FIRST_RUN = "unchecked, on first run"


@dataclass(frozen=True)
class EmitPlan:
    """What a compiler makes of its texts: when their code is written (:class:`Emit`) and what
    that code does besides the rules (counts rule points, notes state writes, checks reads)."""

    when: Emit = Emit.NOW
    # a coverage build's counters (model/probes.py, a stage above): the code counts each rule
    # point it runs; None counts nothing
    probes: Counters | None = None
    # the code notes each write to the state in the state's journal (dsl/emit/journal.py)
    journal: bool = False
    # the code reports a missing entry, a division by zero or a field of the wrong kind of thing
    # as a RuntimeRuleError (scenario expectations, which report a failed read, not crash)
    checked_reads: bool = False


# the plan of the games: every text checked and written now, nothing besides the rules
FOR_PLAY = EmitPlan()


class Compiler:
    """Compiles effect texts against one Env; `root` holds the flow variables, seen everywhere."""

    def __init__(self, env: Env, root: Scope | None = None, plan: EmitPlan = FOR_PLAY) -> None:
        self.env = env
        self.root = root if root is not None else Scope(None)
        self.plan = plan
        self.resolver = Resolver(env, self.root)
        self.lazy = plan.when is Emit.UNCHECKED_ON_FIRST_RUN
        self.generator = (
            None
            if plan.when is Emit.CHECK_ONLY
            else Generator(
                env,
                plan.checked_reads,
                deferred=plan.when is Emit.ON_FIRST_RUN,
                probes=plan.probes,
                journal=plan.journal,
            )
        )
        self.last_type: Type | None = None
        self.last: tuple[Tree | Token, ir.Expr] | None = None
        # the statements the last text of statements resolved to (None: a lazy text, not yet
        # resolved): the host follows what they assign (infoset/secrecy.py)
        self.last_block: list[ir.Stmt] | None = None

    def recheck(self, tree: Tree, node: ir.Expr, expect: str) -> None:
        """A flow variable's place checked again once every text that assigns it is compiled."""
        types = self.env.types
        if types is not None and isinstance(node, ir.FlowVar):
            node.ty = types.variables.get(node.key)
            self.resolver.tc.expect(tree, node, expect)

    def expression(self, text: str, scope: Scope, expect: str | None = None) -> Fn:
        """`expect`: what the text's place needs (bool, seat, number, phase), checked at load."""
        return self.emitted_tree(parse(text, "expr"), scope, text, expect).fn

    def emitted_expression(self, text: str, scope: Scope, expect: str | None = None) -> Emitted:
        """`expression`, with what its users know of it without calling it (dsl/emit/emitter.py)."""
        return self.emitted_tree(parse(text, "expr"), scope, text, expect)

    def expression_tree(
        self, tree: Tree, scope: Scope, label: str = "expression", expect: str | None = None
    ) -> Fn:
        """An already parsed expression (a caller that inspects the tree first)."""
        return self.emitted_tree(tree, scope, label, expect).fn

    def emitted_tree(
        self, tree: Tree, scope: Scope, label: str = "expression", expect: str | None = None
    ) -> Emitted:
        """An already parsed expression, compiled, with what its users know of it."""
        self.last_type = None
        if self.lazy:
            later = self._later(lambda: self.resolver.expr(tree, scope), label, expect)
            return Emitted(later, label)
        node = self.resolver.expr(tree, scope)
        self.last_type = getattr(node, "ty", None)  # the type of its values, for the caller
        self.last = (tree, node)
        if expect is not None:
            self.resolver.tc.expect(tree, node, expect)
        if self.generator is None:
            return Emitted(_unchecked, label)
        fn = self.generator.expression(node, label)
        constant = node.value if isinstance(node, ir.Const) else NOT_CONSTANT
        item = item_of(self.last_type or ANY)
        if isinstance(fn, Deferred):
            if expect == "collection":  # a text written when it first runs: sorted as it runs
                order = declared_order(self.env.constants, item)
                fn = fn if order is None else in_order(fn, order)
            return Emitted(fn, label, constant)
        # a variable read alone: engine/blocks.py reads it in place
        reads_var = node.key if isinstance(node, ir.FlowVar) else None
        if expect != "collection":
            return Emitted(fn, label, constant, reads_var)
        # an option line's values (engine/options.py): ids (texts) are listed by lookups, in
        # the order they are declared, not the state's (idorder.py); a listing that keeps
        # the first of equal ids needs no `distinct` of its own
        fixed = node.value if isinstance(node, ir.Const) else None
        repeats = None
        if isinstance(node, ir.Reduce) and node.kind == "distinct" and len(node.args) == 1:
            repeats = self.generator.expression(node.args[0], label)
        return Emitted(
            fn,
            label,
            constant,
            reads_var,
            text_values=is_text_id(item),
            id_order=declared_order(self.env.constants, item, fixed),
            with_repeats=repeats,
        )

    def listing_condition(self, label: str, loop_keys: frozenset[str]) -> Fn | None:
        """The last expression compiled, an option line's condition whose `for` parts bind
        `loop_keys`, in its form for one listing (codegen_select.listing_condition); None when it
        has none."""
        if self.generator is None or self.last is None:
            return None
        return listing_condition(self.generator, self.last[1], label, loop_keys)

    def listing_select(self, label: str, loop_keys: list[str]) -> Select | None:
        """The last expression compiled, the condition of an option line of one `for` part
        (temp slot ``loop_keys[0]``), as the loop that picks its legal values (listing_code.py);
        None where the generator writes no plain code."""
        if self.generator is None or self.last is None:
            return None
        return listing_select(self.generator, self.last[1], label, loop_keys[0])

    def statements(self, text: str, scope: Scope) -> Fn:
        self.last_block = None
        if self.lazy:
            return self._later(
                lambda: self.resolver.block(parse(text, "start").children, scope), text
            )
        stmts = self.resolver.block(parse(text, "start").children, scope)
        self.last_block = stmts
        if self.generator is None:
            return _unchecked
        return self.generator.statements(stmts, text)

    def template(self, token: Token, scope: Scope, words: bool = False) -> Fn:
        """A quoted text (a STRING token) whose {expr} parts are filled in when it runs; a log
        line's (`words`) with the ids it fills in as their names."""
        if self.lazy:
            return self._later(lambda: self.resolver.template(token, scope, words), str(token))
        node = self.resolver.template(token, scope, words)
        self.last = (token, node)
        if self.generator is None:
            return _unchecked
        return self.generator.expression(node, str(token))

    def template_parts(self, loop_keys: list[str]) -> tuple[str | int, ...] | None:
        """The last template compiled, when it is plain text and `for` names only: its parts,
        a text or the index of the name in `loop_keys` (an option id a listing can write
        without a call); None for any other template."""
        node = self.last[1] if self.last is not None else None
        if not isinstance(node, ir.Template):
            return None
        parts: list[str | int] = []
        for part in node.parts:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, ir.Temp) and part.key in loop_keys:
                parts.append(loop_keys.index(part.key))
            else:
                return None
        return tuple(parts)

    _format = template  # the name model/rules.py calls it by

    def _later(
        self, resolve: Callable[[], ir.Expr | list[ir.Stmt]], label: str, expect: str | None = None
    ) -> Deferred:
        """A lazy compiler's text: resolved and written out when it first runs (an option
        line's collection, `expect` "collection", in its ids' declared order, idorder.py)."""
        generator = self.generator
        assert generator is not None
        constants = self.env.constants

        def make() -> Fn:
            node = resolve()
            if isinstance(node, list):
                return generator.statements(node, label)
            fn = generator.expression(node, label)
            if expect == "collection":
                fixed = node.value if isinstance(node, ir.Const) else None
                ty = getattr(node, "ty", None)
                # (an unchecked build knows no types: every declared id in its place)
                order = declared_order(constants, item_of(ty) if ty else None, fixed, every=True)
                if order is not None:
                    return in_order(fn, order)
            return fn

        return Deferred(make)


def in_order(fn: Fn, order: dict[str, int]) -> Fn:
    """The values of collection `fn` in the order `order` gives (idorder.py)."""
    key = order.__getitem__

    def ordered(s: RunningState) -> list[Any]:
        return sorted(fn(s), key=key)

    return ordered
