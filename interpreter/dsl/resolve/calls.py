"""The resolve pass's calls (resolver.py): builtins and reducers, and rule functions, which
are inlined: a call resolves the function's text again with its parameters bound, and a fault
found inside it is raised as _Nested so the model reports it at the function's own text (or,
when one argument alone causes it, at that argument: typecalls.blame). Also the pass's error
types and `fail`, which both halves raise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from lark import Token, Tree

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.expression_types import blame
from interpreter.dsl.resolve.scope import Callable_, Scope
from interpreter.dsl.resolve.type_faults import TypeFault
from interpreter.dsl.runtime.builtins import BUILTINS

MAX_INLINE_DEPTH = 24


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


def _with_guess(message: str, guess: str | None, otherwise: str = "") -> str:
    return message + (f"; did you mean '{guess}'?" if guess else otherwise)


def _is_genexp(arg: object) -> bool:
    return isinstance(arg, Tree) and arg.data == "genexp"


class CallResolver:
    """The calls of :class:`interpreter.dsl.resolve.resolver.Resolver` (a mixin: it reads the
    resolver's env, root scope, type rules and its expression and statement walks)."""

    env: Any
    root: Scope
    tc: Any
    _depth: int
    _origin: object
    _shift: tuple[int, int] | None

    if TYPE_CHECKING:  # the resolver's own walks (resolver.py), which the calls recurse into

        def block(self, stmts: list[Tree], scope: Scope) -> list[ir.Stmt]: ...
        def expr(self, node: Tree | Token, scope: Scope) -> ir.Expr: ...
        def condition(self, node: Tree, scope: Scope) -> ir.Expr: ...
        def _declare(self, scope: Scope, tok: Token, value: ir.Expr | None = None) -> ir.Slot: ...
        def _bind(self, scope: Scope, name: str, value: ir.Expr | None = None) -> ir.Slot: ...
        def _note_bound(self, name: str, ty: Any) -> None: ...
        def trigger_params(self, fn: Callable_) -> set[str]: ...
        def trigger_value(self, node: Tree | Token, scope: Scope) -> ir.Expr: ...

    def _call(
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
            raise fail(name_tok, _with_guess(f"unknown function '{name}'", guess), "D003")
        lo, hi = builtin.min_args, builtin.max_args
        if not (lo <= len(args) <= hi):
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise fail(name_tok, f"'{name}' takes {want} values, got {len(args)}", "D005")
        for a in args:
            if isinstance(a, Tree) and a.data == "kwarg":
                raise fail(a, f"'{name}' takes no named values")
        if not builtin.is_reducer:
            return ir.BuiltinCall(name, [self.expr(a, scope) for a in args])
        if len(args) == 1 and _is_genexp(args[0]):
            element, var_tok, iterable, *cond = cast(list[Any], args[0].children)
            it = self.expr(iterable, scope)
            inner = scope.child()
            slot = self._declare(inner, var_tok)
            slot.ty = self.tc.loop_item(iterable, it) if self.tc.on else None
            el = self.expr(element, inner)
            test = self.condition(cond[0], inner) if cond else None
            return ir.ReduceEach(name, el, slot, it, test)
        if any(_is_genexp(a) for a in args):
            raise fail(name_tok, f"'{name}' takes one 'x for y in z' form or plain values")
        return ir.Reduce(name, [self.expr(a, scope) for a in args])

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
        if self._depth > MAX_INLINE_DEPTH:
            raise fail(tok, f"'{fn.name}' calls itself too deeply (recursion is not allowed)")
        given = self.trigger_params(fn)  # `trigger-end(city)`: barewords.py
        values = [
            (self.trigger_value if p in given else self.expr)(a, scope)
            for p, a in zip(fn.params, args, strict=True)
        ]
        try:
            return self._expand(fn, values)
        except TypeFault as e:
            raise blame(self, e, fn, args, values) or _Nested(fn, e) from None
        except DslSyntaxError as e:
            raise _Nested(fn, e) from None

    def _expand(self, fn: Callable_, values: list[ir.Expr]) -> ir.Expr | ir.InlineProc:
        # an inlined rule function sees its parameters, the flow variables and the globals
        inner = Scope(self.root)
        bound: list[tuple[ir.Slot, ir.Expr]] = []
        for pname, value in zip(fn.params, values, strict=True):
            if value.simple:  # read in place: no rule text can reassign it
                inner.bindings[pname] = ("alias", value)
                self._note_bound(pname, getattr(value, "ty", None))
            else:  # evaluated once
                bound.append((self._bind(inner, pname, value), value))
        self._depth += 1
        outer, self._origin = self._origin, fn.origin
        shift, self._shift = self._shift, None  # the function's own text: its own places
        try:
            tree = fn.tree()
            out: ir.Expr | ir.InlineProc
            if fn.is_procedure:
                out = ir.InlineProc(bound, self.block(tree.children, inner), fn.origin)
            else:
                out = ir.Inline(bound, self.expr(tree, inner))
            self.env.inlined.add(fn.name)
            return out
        finally:
            self._depth -= 1
            self._origin = outer
            self._shift = shift
