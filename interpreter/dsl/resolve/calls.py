"""The resolve pass's calls (resolver.py): builtins and reducers, and rule functions, which
are inlined: a call resolves the function's text again with its parameters bound, and a fault
found inside it is raised as _Nested so the model reports it at the function's own text (or,
when one argument alone causes it, at that argument: expression_types.blame).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from lark import Token, Tree

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.barewords import BareWords
from interpreter.dsl.resolve.expression_types import blame
from interpreter.dsl.resolve.failures import _Nested, fail, with_guess
from interpreter.dsl.resolve.none_safety import known_not_none
from interpreter.dsl.resolve.scope import Callable_, Env, Scope
from interpreter.dsl.resolve.type_checker import TypeChecker
from interpreter.dsl.resolve.type_faults import TypeFault
from interpreter.dsl.resolve.types import Type
from interpreter.dsl.runtime.builtins import BUILTINS

__all__ = ["MAX_INLINE_DEPTH", "Calls", "Walk"]

MAX_INLINE_DEPTH = 24


def _is_genexp(arg: object) -> bool:
    return isinstance(arg, Tree) and arg.data == "genexp"


class Walk(Protocol):
    """What the calls read of the resolver (resolver.py) whose walks they recurse into: its
    names, scope and checker, and where the text being resolved is (`origin`: the inlined
    function or None; `shift`: the start of a template's part), which an inlining moves."""

    env: Env
    root: Scope
    tc: TypeChecker
    words: BareWords
    origin: ir.Origin
    shift: tuple[int, int] | None

    def block(self, stmts: list[Tree], scope: Scope) -> list[ir.Stmt]: ...
    def expr(self, node: Tree | Token, scope: Scope) -> ir.Expr: ...
    def condition(self, node: Tree, scope: Scope) -> ir.Expr: ...
    def declare(self, scope: Scope, tok: Token, value: ir.Expr | None = None) -> ir.Slot: ...
    def bind(self, scope: Scope, name: str, value: ir.Expr | None = None) -> ir.Slot: ...
    def note_bound(self, name: str, ty: Type | None) -> None: ...


class Calls:
    """The calls of one resolver's texts (`walk`): each resolved as a builtin, a reducer or
    an inlined rule function."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.env = walk.env
        self.tc = walk.tc
        self.depth = 0  # how many inlined functions the text being resolved is inside

    def call(
        self, name_tok: Token, rest: list, scope: Scope, statement: bool
    ) -> ir.Expr | ir.InlineProc:
        name = str(name_tok)
        if rest and isinstance(rest[0], Tree):
            args = list(rest[0].children)  # the `args` node
        else:
            args = list(rest)
        fn = self.env.functions.get(name)
        if fn is not None:
            return self._inline(name_tok, fn, args, scope, statement)
        builtin = BUILTINS.get(name)
        if builtin is None:
            guess = did_you_mean(name, [*BUILTINS, *self.env.functions])
            raise fail(name_tok, with_guess(f"unknown function '{name}'", guess), "D003")
        lo, hi = builtin.min_args, builtin.max_args
        if not (lo <= len(args) <= hi):
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise fail(name_tok, f"'{name}' takes {want} values, got {len(args)}", "D005")
        for a in args:
            if isinstance(a, Tree) and a.data == "kwarg":
                raise fail(a, f"'{name}' takes no named values")
        if not builtin.is_reducer:
            return ir.BuiltinCall(name, [self.walk.expr(a, scope) for a in args])
        if len(args) == 1 and _is_genexp(args[0]):
            element, var_tok, iterable, *cond = cast(list[Any], args[0].children)
            it = self.walk.expr(iterable, scope)
            inner = scope.child()
            slot = self.walk.declare(inner, var_tok)
            slot.ty = self.tc.loop_item(iterable, it) if self.tc.on else None
            test = self.walk.condition(cond[0], inner) if cond else None
            with self.tc.assume(known_not_none(test) if test is not None else ()):
                el = self.walk.expr(element, inner)  # where the `if` holds: it guards
            return ir.ReduceEach(name, el, slot, it, test)
        if any(_is_genexp(a) for a in args):
            raise fail(name_tok, f"'{name}' takes one 'x for y in z' form or plain values")
        return ir.Reduce(name, [self.walk.expr(a, scope) for a in args])

    def _inline(
        self, tok: Token, fn: Callable_, args: list, scope: Scope, statement: bool
    ) -> ir.Expr | ir.InlineProc:
        if len(args) != len(fn.params):
            raise fail(
                tok,
                f"'{fn.name}' takes {len(fn.params)} values ({', '.join(fn.params)}), "
                f"got {len(args)}",
                "D005",
            )
        if fn.is_procedure and not statement:
            raise fail(tok, f"'{fn.name}' is a procedure; call it as a statement")
        if self.depth > MAX_INLINE_DEPTH:
            raise fail(tok, f"'{fn.name}' calls itself too deeply (recursion is not allowed)")
        given = self.walk.words.trigger_params(fn)  # `trigger-end(city)`: barewords.py
        values = [
            (self.walk.words.trigger_value if p in given else self.walk.expr)(a, scope)
            for p, a in zip(fn.params, args, strict=True)
        ]
        try:
            return self.expand(fn, values)
        except TypeFault as e:
            raise blame(self, e, fn, args, values) or _Nested(fn, e) from None
        except DslSyntaxError as e:
            raise _Nested(fn, e) from None

    def expand(self, fn: Callable_, values: list[ir.Expr]) -> ir.Expr | ir.InlineProc:
        """`fn`'s text resolved with its parameters bound to `values`: an inlined rule
        function sees its parameters, the flow variables and the globals."""
        inner = Scope(self.walk.root)
        bound: list[tuple[ir.Slot, ir.Expr]] = []
        for pname, value in zip(fn.params, values, strict=True):
            if value.simple:  # read in place: no rule text can reassign it
                inner.bindings[pname] = ("alias", value)
                self.walk.note_bound(pname, getattr(value, "ty", None))
            else:  # evaluated once
                bound.append((self.walk.bind(inner, pname, value), value))
        walk = self.walk
        self.depth += 1
        outer, walk.origin = walk.origin, fn.origin
        shift, walk.shift = walk.shift, None  # the function's own text: its own places
        try:
            tree = fn.tree()
            out: ir.Expr | ir.InlineProc
            if fn.is_procedure:
                out = ir.InlineProc(bound, self.walk.block(tree.children, inner), fn.origin)
            else:
                out = ir.Inline(bound, self.walk.expr(tree, inner))
            self.env.inlined.add(fn.name)
            return out
        finally:
            self.depth -= 1
            walk.origin = outer
            walk.shift = shift
