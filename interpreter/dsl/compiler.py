"""Compiles effect-DSL parse trees into Python closures, once, at load time.

Every compiled expression or statement is a function of one argument, the running state `s`
(see interpreter/state.py), which carries:
  s.g  global fields (counters, bags, piles, areas) by name
  s.p  one dict per seat with that seat's fields
  s.v  flow variables that live across decisions (seat numbers and ids only)
  s.t  scratch slots for let, loop and parameter bindings inside one effect
Names are resolved here, at compile time; the hot loop does no string dispatch on rule names.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Tree

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.parser import DslSyntaxError, parse

Fn = Callable[[Any], Any]

_MISSING = object()
_uid = itertools.count()


class DslCompileError(DslSyntaxError):
    """A semantic fault in an effect text (unknown name, wrong argument count, ...)."""


@dataclass
class Callable_:
    """A function or procedure declared by the ruleset, inlined at each call site."""

    name: str
    params: list[str]
    text: str
    is_procedure: bool
    origin: Any = None  # where the text lives, for error positions (set by the model builder)
    _tree: Tree | None = None

    def tree(self) -> Tree:
        if self._tree is None:
            self._tree = parse(self.text, "start" if self.is_procedure else "expr")
        return self._tree


@dataclass
class Env:
    """Everything a rule text may name, declared by the ruleset."""

    players: int
    global_fields: dict[str, str]  # name -> kind (counter, value, bag, pile, area)
    player_fields: dict[str, str]
    piece_fields: set[str]
    abilities: dict[str, dict[str, int]]  # ability -> {piece type: amount}
    constants: dict[str, Any]  # ids, sets, catalogs, tables
    attrs: dict[str, dict[str, Any]]  # id -> static attributes (catalog entries)
    piece_defaults: dict[str, dict[str, Any]]  # piece type -> its dynamic fields' start values
    options: dict[str, Any]
    functions: dict[str, Callable_] = field(default_factory=dict)
    events: dict[str, list[str]] = field(default_factory=dict)
    # late-bound by the game once hooks and abilities are compiled
    runtime: dict[str, Any] = field(default_factory=dict)
    emitted: set[str] = field(default_factory=set)

    def names(self) -> list[str]:
        return [
            *self.global_fields,
            *self.constants,
            *self.functions,
            *BUILTINS,
            *SPECIAL_NAMES,
        ]


SPECIAL_NAMES = ("players", "seats", "round", "option", "true", "false", "none")


class Scope:
    """Compile-time map from a rule name to where its value lives."""

    def __init__(self, parent: Scope | None = None, **bindings: tuple[str, Any]) -> None:
        self.parent = parent
        self.bindings: dict[str, tuple[str, Any]] = dict(bindings)

    def lookup(self, name: str) -> tuple[str, Any] | None:
        scope: Scope | None = self
        while scope is not None:
            hit = scope.bindings.get(name)
            if hit is not None:
                return hit
            scope = scope.parent
        return None

    def visible(self) -> list[str]:
        out: list[str] = []
        scope: Scope | None = self
        while scope is not None:
            out.extend(scope.bindings)
            scope = scope.parent
        return out

    def child(self) -> Scope:
        return Scope(self)

    def temp(self, name: str) -> str:
        key = f"{name}#{next(_uid)}"
        self.bindings[name] = ("temp", key)
        return key


def flow_scope(variables: Iterable[str]) -> Scope:
    return Scope(None, **{v: ("var", v) for v in variables})


# ---------------------------------------------------------------------------------------------
# runtime helpers used by compiled closures


def _player_or_piece_get(s: Any, o: Any, name: str, attrs: dict[str, dict[str, Any]]) -> Any:
    t = type(o)
    if t is int:
        return s.p[o][name]
    if t is dict:
        r = o.get(name, _MISSING)
        if r is not _MISSING:
            return r
        return attrs[o["type"]][name]
    if t is str:
        return attrs[o][name]
    if o is None:
        raise RuntimeRuleError(f"cannot read '{name}' of none")
    raise RuntimeRuleError(f"cannot read '{name}' of {o!r}")


class RuntimeRuleError(Exception):
    """A rule did something impossible while running (a bug in a rule file)."""


def _count_of(values: Any) -> int:
    return len(values)


class Compiler:
    """Turns parse trees into closures against one Env."""

    def __init__(self, env: Env, root: Scope | None = None) -> None:
        self.env = env
        self.root = root if root is not None else Scope(None)  # flow variables, seen everywhere
        self._depth = 0

    # -- entry points ---------------------------------------------------------------------
    def expression(self, text: str, scope: Scope) -> Fn:
        return self.expr(parse(text, "expr"), scope)

    def statements(self, text: str, scope: Scope) -> Fn:
        return self.block(parse(text, "start").children, scope)

    # -- errors -------------------------------------------------------------------------
    @staticmethod
    def _fail(node: Tree | Token, message: str, code: str = "D002") -> DslCompileError:
        line = getattr(node, "line", None)
        column = getattr(node, "column", None)
        if line is None and isinstance(node, Tree) and not node.meta.empty:
            line, column = node.meta.line, node.meta.column
        return DslCompileError(message, line or 1, column or 1, code)

    def _unknown(self, token: Token, scope: Scope) -> DslCompileError:
        name = str(token)
        guess = did_you_mean(name, [*scope.visible(), *self.env.names()])
        message = f"unknown name '{name}'"
        split = self._subtraction(name, scope)
        if split:
            message += f" (write '{split}' with spaces to subtract)"
        elif guess:
            message += f"; did you mean '{guess}'?"
        return self._fail(token, message, "D003")

    def _subtraction(self, name: str, scope: Scope) -> str | None:
        """'a-b' read as one name that is unknown, where 'a - b' would make sense."""
        known = set(self.env.names())
        parts = name.split("-")
        for i in range(1, len(parts)):
            left, right = "-".join(parts[:i]), "-".join(parts[i:])
            ok_left = left in known or scope.lookup(left) is not None
            ok_right = right.isdigit() or right in known or scope.lookup(right) is not None
            if ok_left and ok_right:
                return f"{left} - {right}"
        return None

    def _check_field_target(self, tok: Token, name: str) -> None:
        """Only declared player or piece fields can be assigned: a typo must not add a field."""
        env = self.env
        if name in env.player_fields or name in env.piece_fields:
            return
        if any(name in a for a in env.attrs.values()):
            raise self._fail(tok, f"'{name}' is fixed by the rules and cannot be assigned")
        guess = did_you_mean(name, [*env.player_fields, *env.piece_fields])
        raise self._fail(
            tok,
            f"nothing has a field '{name}'" + (f"; did you mean '{guess}'?" if guess else ""),
            "D003",
        )

    # -- statements ---------------------------------------------------------------------
    def block(self, stmts: list[Tree], scope: Scope) -> Fn:
        fns: list[Fn] = []
        for st in stmts:
            fns.extend(self.stmt(st, scope))
        return _seq(fns)

    def stmt(self, node: Tree, scope: Scope) -> list[Fn]:
        kind = node.data
        if kind == "simple_stmts":
            out: list[Fn] = []
            for child in node.children:
                out.extend(self.stmt(child, scope))
            return out
        if kind == "pass_stmt":
            return []
        if kind == "let_stmt":
            name_tok, value = node.children
            fn = self.expr(value, scope)
            key = scope.temp(str(name_tok))

            def let(s: Any, key: str = key, fn: Fn = fn) -> None:
                s.t[key] = fn(s)

            return [let]
        if kind == "assign":
            target, value = node.children
            return [self._setter(target, self.expr(value, scope), scope, None)]
        if kind == "augassign":
            target, op, value = node.children
            return [self._setter(target, self.expr(value, scope), scope, str(op))]
        if kind == "if_stmt":
            return [self._if(node, scope)]
        if kind == "for_stmt":
            name_tok, iterable, suite = node.children
            it = self.expr(iterable, scope)
            inner = scope.child()
            key = inner.temp(str(name_tok))
            body = self.suite(suite, inner)

            def loop(s: Any, it: Fn = it, key: str = key, body: Fn = body) -> None:
                t = s.t
                for value in list(it(s)):
                    t[key] = value
                    body(s)

            return [loop]
        if kind == "emit_stmt":
            return [self._emit(node, scope)]
        if kind == "log_stmt":
            text = self._format(node.children[0], scope)

            def log(s: Any, text: Fn = text) -> None:
                if s.log is not None:
                    s.log.append((s.round, None, text(s)))

            return [log]
        if kind == "call_stmt":
            fn = self._call(node.children[0], node.children[1:], scope, statement=True)
            return [fn]
        raise self._fail(node, f"unsupported statement {kind}")

    def suite(self, node: Tree, scope: Scope) -> Fn:
        return self.block(node.children, scope)

    def _if(self, node: Tree, scope: Scope) -> Fn:
        branches: list[tuple[Fn, Fn]] = []
        cond = self.expr(node.children[0], scope)
        branches.append((cond, self.suite(node.children[1], scope.child())))
        otherwise: Fn | None = None
        for clause in node.children[2:]:
            if clause.data == "elif_clause":
                branches.append(
                    (
                        self.expr(clause.children[0], scope),
                        self.suite(clause.children[1], scope.child()),
                    )
                )
            else:
                otherwise = self.suite(clause.children[0], scope.child())
        if len(branches) == 1:
            (c, b) = branches[0]
            if otherwise is None:

                def if1(s: Any, c: Fn = c, b: Fn = b) -> None:
                    if c(s):
                        b(s)

                return if1

            def if2(s: Any, c: Fn = c, b: Fn = b, e: Fn = otherwise) -> None:
                if c(s):
                    b(s)
                else:
                    e(s)

            return if2
        pairs = tuple(branches)

        def ifn(s: Any, pairs: tuple = pairs, e: Fn | None = otherwise) -> None:
            for c, b in pairs:
                if c(s):
                    b(s)
                    return
            if e is not None:
                e(s)

        return ifn

    def _emit(self, node: Tree, scope: Scope) -> Fn:
        name_tok = node.children[0]
        name = str(name_tok)
        args = node.children[1].children if len(node.children) > 1 else []
        if name not in self.env.events:
            raise self._fail(
                name_tok,
                f"unknown event '{name}'"
                + (
                    f"; did you mean '{g}'?"
                    if (g := did_you_mean(name, self.env.events))
                    else " (declare it under events:)"
                ),
                "D004",
            )
        params = self.env.events[name]
        if len(args) != len(params):
            raise self._fail(
                name_tok,
                f"event '{name}' takes {len(params)} values ({', '.join(params)}), got {len(args)}",
                "D005",
            )
        self.env.emitted.add(name)
        fns = tuple(self.expr(a, scope) for a in args)
        runtime = self.env.runtime

        def emit(s: Any, name: str = name, fns: tuple = fns) -> None:
            runtime["fire"](s, name, [f(s) for f in fns])

        return emit

    def _setter(self, target: Tree, value: Fn, scope: Scope, op: str | None) -> Fn:
        kind = target.data
        if kind == "name":
            tok = target.children[0]
            name = str(tok)
            hit = scope.lookup(name)
            if hit is not None:
                where, key = hit
                if where == "closure":
                    raise self._fail(tok, f"'{name}' is a parameter and cannot be assigned")
                container = "t" if where == "temp" else "v"
                return _store_attr_container(container, key, value, op)
            if name in self.env.global_fields:
                kind_ = self.env.global_fields[name]
                if kind_ not in ("counter", "value"):
                    raise self._fail(tok, f"'{name}' is a {kind_}; change its contents instead")
                return _store_global(name, value, op)
            if name in self.env.constants or name in SPECIAL_NAMES:
                raise self._fail(tok, f"'{name}' is fixed by the rules and cannot be assigned")
            raise self._unknown(tok, scope)
        if kind == "attr":
            obj = self.expr(target.children[0], scope)
            name = str(target.children[1])
            if name in self.env.abilities:
                raise self._fail(
                    target.children[1], f"'{name}' is an ability granted by pieces; read-only"
                )
            self._check_field_target(target.children[1], name)
            return _store_attr(obj, name, value, op)
        if kind == "index":
            obj = self.expr(target.children[0], scope)
            key = self.expr(target.children[1], scope)
            return _store_index(obj, key, value, op)
        raise self._fail(target, "cannot assign to this")

    # -- expressions ----------------------------------------------------------------------
    def expr(self, node: Tree | Token, scope: Scope) -> Fn:
        if isinstance(node, Token):
            raise self._fail(node, f"unexpected {node!s}")
        kind = node.data
        ch = node.children
        if kind in ("or_", "and_", "compare", "binop") and len(ch) == 1:
            return self.expr(ch[0], scope)
        method = getattr(self, f"_e_{kind}", None)
        if method is None:
            raise self._fail(node, f"unsupported expression {kind}")
        return method(node, scope)

    def _e_number(self, node: Tree, scope: Scope) -> Fn:
        return _const(int(node.children[0]))

    def _e_string(self, node: Tree, scope: Scope) -> Fn:
        return self._format(node.children[0], scope)

    def _e_true(self, node: Tree, scope: Scope) -> Fn:
        return _const(True)

    def _e_false(self, node: Tree, scope: Scope) -> Fn:
        return _const(False)

    def _e_none(self, node: Tree, scope: Scope) -> Fn:
        return _const(None)

    def _e_list_(self, node: Tree, scope: Scope) -> Fn:
        fns = tuple(self.expr(c, scope) for c in node.children)
        return lambda s: [f(s) for f in fns]

    def _e_name(self, node: Tree, scope: Scope) -> Fn:
        tok = node.children[0]
        name = str(tok)
        hit = scope.lookup(name)
        if hit is not None:
            where, key = hit
            if where == "temp":
                return _temp_ref(key)
            if where == "var":
                return lambda s: s.v.get(key)
            return key  # a closure bound to a parameter
        env = self.env
        if name in env.global_fields:
            return lambda s: s.g[name]
        if name == "players":
            return _const(env.players)
        if name == "seats":
            return _const(tuple(range(env.players)))
        if name == "round":
            return lambda s: s.round
        if name in env.constants:
            return _const(env.constants[name])
        if name == "option":
            raise self._fail(tok, "write option.NAME to read a game option")
        if name in env.functions and not env.functions[name].params:
            return self._call(tok, [], scope, statement=False)
        raise self._unknown(tok, scope)

    def _e_attr(self, node: Tree, scope: Scope) -> Fn:
        base, name_tok = node.children
        name = str(name_tok)
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "option":
            if scope.lookup("option") is None:
                if name not in self.env.options:
                    guess = did_you_mean(name, self.env.options)
                    raise self._fail(
                        name_tok,
                        f"unknown option '{name}'"
                        + (f"; did you mean '{guess}'?" if guess else ""),
                        "D003",
                    )
                return _const(self.env.options[name])
        obj = self.expr(base, scope)
        env = self.env
        if name in env.abilities:
            runtime = env.runtime

            def ability(s: Any, obj: Fn = obj, name: str = name) -> int:
                return runtime["ability"](s, obj(s), name)

            return ability
        known = (
            name in env.player_fields
            or name in env.piece_fields
            or name == "type"
            or name == "seat"
            or any(name in a for a in env.attrs.values())
        )
        if not known:
            guess = did_you_mean(
                name,
                [
                    *env.player_fields,
                    *env.piece_fields,
                    *env.abilities,
                    *{k for a in env.attrs.values() for k in a},
                ],
            )
            raise self._fail(
                name_tok,
                f"nothing has a field '{name}'" + (f"; did you mean '{guess}'?" if guess else ""),
                "D003",
            )
        attrs = env.attrs
        in_attrs = any(name in a for a in attrs.values())
        in_player = name in env.player_fields
        in_piece = name in env.piece_fields or name == "type"
        if in_attrs and not in_player and not in_piece:
            # a static attribute of catalog entries: one dict lookup by the piece's type
            table = {eid: a[name] for eid, a in attrs.items() if name in a}

            def static_attr(s: Any, obj: Fn = obj, name: str = name) -> Any:
                o = obj(s)
                try:
                    return table[o if type(o) is str else o["type"]]
                except (KeyError, TypeError):
                    return _player_or_piece_get(s, o, name, attrs)

            return static_attr
        if in_piece and not in_player and not in_attrs:

            def piece_field(s: Any, obj: Fn = obj, name: str = name) -> Any:
                o = obj(s)
                if type(o) is dict:
                    return o[name]
                return _player_or_piece_get(s, o, name, attrs)

            return piece_field
        if in_player and not in_piece and not in_attrs:

            def player_field(s: Any, obj: Fn = obj, name: str = name) -> Any:
                o = obj(s)
                if type(o) is int:
                    return s.p[o][name]
                return _player_or_piece_get(s, o, name, attrs)

            return player_field

        def get(s: Any, obj: Fn = obj, name: str = name) -> Any:
            return _player_or_piece_get(s, obj(s), name, attrs)

        return get

    def _e_index(self, node: Tree, scope: Scope) -> Fn:
        obj = self.expr(node.children[0], scope)
        key = self.expr(node.children[1], scope)

        def index(s: Any) -> Any:
            o = obj(s)
            k = key(s)
            try:
                return o[k]
            except (KeyError, IndexError, TypeError):
                raise RuntimeRuleError(f"no entry {k!r} in {_short(o)}") from None

        return index

    def _e_neg(self, node: Tree, scope: Scope) -> Fn:
        f = self.expr(node.children[0], scope)
        return lambda s: -f(s)

    def _e_not_(self, node: Tree, scope: Scope) -> Fn:
        f = self.expr(node.children[0], scope)
        return lambda s: not f(s)

    def _e_or_(self, node: Tree, scope: Scope) -> Fn:
        fns = [self.expr(c, scope) for c in node.children]
        acc = fns[-1]
        for f in reversed(fns[:-1]):  # right-nested pairs: no generator in the hot path
            acc = _or2(f, acc)
        return acc

    def _e_and_(self, node: Tree, scope: Scope) -> Fn:
        fns = [self.expr(c, scope) for c in node.children]
        acc = fns[-1]
        for f in reversed(fns[:-1]):
            acc = _and2(f, acc)
        return acc

    def _e_cond(self, node: Tree, scope: Scope) -> Fn:
        then, cond, other = (self.expr(c, scope) for c in node.children)
        return lambda s: then(s) if cond(s) else other(s)

    def _e_compare(self, node: Tree, scope: Scope) -> Fn:
        left = self.expr(node.children[0], scope)
        op = str(node.children[1])
        right = self.expr(node.children[2], scope)
        c = getattr(right, "constant", _MISSING)
        if c is not _MISSING and op in ("==", "!=", ">", "<", ">=", "<="):
            if op == "==":
                return lambda s: left(s) == c
            if op == "!=":
                return lambda s: left(s) != c
            if op == ">":
                return lambda s: left(s) > c
            if op == "<":
                return lambda s: left(s) < c
            if op == ">=":
                return lambda s: left(s) >= c
            return lambda s: left(s) <= c
        if op == "==":
            return lambda s: left(s) == right(s)
        if op == "!=":
            return lambda s: left(s) != right(s)
        if op == "<":
            return lambda s: left(s) < right(s)
        if op == "<=":
            return lambda s: left(s) <= right(s)
        if op == ">":
            return lambda s: left(s) > right(s)
        if op == ">=":
            return lambda s: left(s) >= right(s)
        if op == "in":
            return lambda s: left(s) in right(s)
        return lambda s: left(s) not in right(s)

    def _e_binop(self, node: Tree, scope: Scope) -> Fn:
        ch = node.children
        acc = self.expr(ch[0], scope)
        for i in range(1, len(ch), 2):
            op = str(ch[i])
            right = self.expr(ch[i + 1], scope)
            acc = _arith(acc, op, right)
        return acc

    def _e_call(self, node: Tree, scope: Scope) -> Fn:
        return self._call(node.children[0], node.children[1:], scope, statement=False)

    # -- calls ------------------------------------------------------------------------------
    def _args(self, rest: list[Tree]) -> list[Tree]:
        return list(rest[0].children) if rest else []

    def _call(self, name_tok: Token, rest: list, scope: Scope, statement: bool) -> Fn:
        name = str(name_tok)
        args = self._args(rest) if rest and isinstance(rest[0], Tree) else list(rest)
        if name in self.env.functions:
            return self._inline(name_tok, self.env.functions[name], args, scope, statement)
        builtin = BUILTINS.get(name)
        if builtin is None:
            guess = did_you_mean(name, [*BUILTINS, *self.env.functions])
            raise self._fail(
                name_tok,
                f"unknown function '{name}'" + (f"; did you mean '{guess}'?" if guess else ""),
                "D003",
            )
        lo, hi, maker = builtin
        if not (lo <= len(args) <= hi):
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise self._fail(name_tok, f"'{name}' takes {want} values, got {len(args)}", "D005")
        for a in args:
            if isinstance(a, Tree) and a.data == "kwarg":
                raise self._fail(a, f"'{name}' takes no named values")
        return maker(self, name_tok, args, scope)

    def _inline(self, tok: Token, fn: Callable_, args: list, scope: Scope, statement: bool) -> Fn:
        if len(args) != len(fn.params):
            raise self._fail(
                tok,
                f"'{fn.name}' takes {len(fn.params)} values ({', '.join(fn.params)}), "
                f"got {len(args)}",
                "D005",
            )
        if fn.is_procedure and not statement:
            raise self._fail(tok, f"'{fn.name}' is a procedure; call it as a statement")
        if self._depth > 24:
            raise self._fail(tok, f"'{fn.name}' calls itself too deeply (recursion is not allowed)")
        arg_fns = [self.expr(a, scope) for a in args]
        # an inlined rule function sees its parameters, the flow variables and the globals
        inner = Scope(self.root)
        binders: list[tuple[str, Fn]] = []
        for pname, afn in zip(fn.params, arg_fns, strict=True):
            if getattr(afn, "pure_ref", False):
                # a constant or a slot no rule text can reassign: read it in place
                inner.bindings[pname] = ("closure", afn)
                continue
            key = inner.temp(pname)
            binders.append((key, afn))
        self._depth += 1
        try:
            try:
                tree = fn.tree()
                if fn.is_procedure:
                    body = self.block(tree.children, inner)
                else:
                    body = self.expr(tree, inner)
            except DslSyntaxError as e:
                raise _Nested(fn, e) from None
        finally:
            self._depth -= 1
        pairs = tuple(binders)
        if not pairs:
            return body

        def call(s: Any, pairs: tuple = pairs, body: Fn = body) -> Any:
            t = s.t
            values = [f(s) for _, f in pairs]
            for (key, _), value in zip(pairs, values, strict=True):
                t[key] = value
            return body(s)

        return call

    def genexp(self, node: Tree, scope: Scope) -> tuple[Fn, str, Fn, Fn | None]:
        """(element, slot key, iterable, condition) of `e for x in xs if c`."""
        element, name_tok, iterable, *cond = node.children
        it = self.expr(iterable, scope)
        inner = scope.child()
        key = inner.temp(str(name_tok))
        el = self.expr(element, inner)
        c = self.expr(cond[0], inner) if cond else None
        return el, key, it, c

    def _format(self, token: Token, scope: Scope) -> Fn:
        """A quoted text; {expr} parts are filled in when it runs."""
        raw = str(token)[1:-1]
        parts: list[Any] = []
        pos = 0
        while pos < len(raw):
            start = raw.find("{", pos)
            if start < 0:
                parts.append(raw[pos:])
                break
            end = raw.find("}", start)
            if end < 0:
                raise self._fail(token, "a '{' in the text is never closed")
            if start > pos:
                parts.append(raw[pos:start])
            inner_text = raw[start + 1 : end]
            try:
                parts.append(self.expr(parse(inner_text, "expr"), scope))
            except DslSyntaxError as e:
                raise DslCompileError(
                    e.message, token.line or 1, (token.column or 0) + 1 + start + e.column, e.code
                ) from None
            pos = end + 1
        if all(isinstance(p, str) for p in parts):
            return _const("".join(parts))
        if len(parts) == 2 and isinstance(parts[0], str):
            head, e = parts

            def fmt1(s: Any) -> str:
                v = e(s)
                return head + (v if type(v) is str else _show(v))

            return fmt1
        frozen = tuple(parts)

        def fmt(s: Any) -> str:
            return "".join(p if isinstance(p, str) else _show(p(s)) for p in frozen)

        return fmt


class _Nested(DslCompileError):
    """An error inside an inlined rule function: reported at the function's own text."""

    def __init__(self, fn: Callable_, inner: DslSyntaxError) -> None:
        super().__init__(inner.message, inner.line, inner.column, inner.code)
        self.function = fn
        self.inner = inner


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _short(o: Any) -> str:
    text = repr(o)
    return text if len(text) < 60 else text[:57] + "..."


def _const(value: Any) -> Fn:
    def const(s: Any) -> Any:
        return value

    const.constant = value  # type: ignore[attr-defined]
    const.pure_ref = True  # type: ignore[attr-defined]
    return const


def _temp_ref(key: str) -> Fn:
    def temp(s: Any) -> Any:
        return s.t[key]

    temp.pure_ref = True  # type: ignore[attr-defined]
    return temp


def _and2(a: Fn, b: Fn) -> Fn:
    return lambda s: a(s) and b(s)


def _or2(a: Fn, b: Fn) -> Fn:
    return lambda s: a(s) or b(s)


def _seq(fns: list[Fn]) -> Fn:
    if not fns:
        return lambda s: None
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:
        a, b = fns

        def seq2(s: Any) -> None:
            a(s)
            b(s)

        return seq2
    frozen = tuple(fns)

    def seq(s: Any) -> None:
        for f in frozen:
            f(s)

    return seq


def _arith(a: Fn, op: str, b: Fn) -> Fn:
    ca = getattr(a, "constant", _MISSING)
    cb = getattr(b, "constant", _MISSING)
    if op == "+":
        if cb is not _MISSING:
            return lambda s: a(s) + cb
        return lambda s: a(s) + b(s)
    if op == "-":
        if cb is not _MISSING:
            return lambda s: a(s) - cb
        if ca is not _MISSING:
            return lambda s: ca - b(s)
        return lambda s: a(s) - b(s)
    if op == "*":
        return lambda s: a(s) * b(s)
    if op == "//":

        def floordiv(s: Any) -> int:
            d = b(s)
            if d == 0:
                raise RuntimeRuleError("division by zero")
            return a(s) // d

        return floordiv
    if op == "%":

        def mod(s: Any) -> int:
            d = b(s)
            if d == 0:
                raise RuntimeRuleError("division by zero")
            return a(s) % d

        return mod
    raise ValueError(op)


def _apply_op(old: Any, new: Any, op: str | None) -> Any:
    if op is None:
        return new
    if op == "+=":
        return old + new
    return old - new


def _store_global(name: str, value: Fn, op: str | None) -> Fn:
    if op is None:

        def set_global(s: Any) -> None:
            s.g[name] = value(s)

        return set_global
    if op == "+=":

        def add_global(s: Any) -> None:
            s.g[name] += value(s)

        return add_global

    def sub_global(s: Any) -> None:
        s.g[name] -= value(s)

    return sub_global


def _store_attr_container(container: str, key: str, value: Fn, op: str | None) -> Fn:
    def store(s: Any) -> None:
        d = s.t if container == "t" else s.v
        d[key] = _apply_op(d.get(key, 0), value(s), op)

    return store


def _store_attr(obj: Fn, name: str, value: Fn, op: str | None) -> Fn:
    def store(s: Any) -> None:
        o = obj(s)
        if type(o) is int:
            o = s.p[o]
        elif type(o) is dict:
            if s.ab:  # a piece changed: what pieces grant may have changed
                s.ab.clear()
        else:
            raise RuntimeRuleError(f"cannot set '{name}' on {_short(o)}")
        v = value(s)
        if op is None:
            o[name] = v
        elif op == "+=":
            o[name] += v
        else:
            o[name] -= v

    return store


def _store_index(obj: Fn, key: Fn, value: Fn, op: str | None) -> Fn:
    def store(s: Any) -> None:
        o = obj(s)
        k = key(s)
        v = value(s)
        if op is None:
            o[k] = v
        elif op == "+=":
            o[k] += v
        else:
            o[k] -= v

    return store


# ---------------------------------------------------------------------------------------------
# builtins: name -> (min args, max args, maker(compiler, token, args, scope) -> closure)


def _reducer(kind: str):  # noqa: ANN202 - returns a builtin maker
    def make(c: Compiler, tok: Token, args: list, scope: Scope) -> Fn:
        if len(args) == 1 and isinstance(args[0], Tree) and args[0].data == "genexp":
            el, key, it, cond = c.genexp(args[0], scope)
            if kind == "sum":

                def gsum(s: Any) -> int:
                    t = s.t
                    total = 0
                    for x in it(s):
                        t[key] = x
                        if cond is None or cond(s):
                            total += el(s)
                    return total

                return gsum
            if kind == "count":

                def gcount(s: Any) -> int:
                    t = s.t
                    n = 0
                    for x in it(s):
                        t[key] = x
                        if cond is None or cond(s):
                            n += 1
                    return n

                return gcount
            if kind in ("any", "all"):
                want = kind == "any"

                def gtest(s: Any) -> bool:
                    t = s.t
                    for x in it(s):
                        t[key] = x
                        if cond is None or cond(s):
                            if bool(el(s)) == want:
                                return want
                    return not want

                return gtest
            if kind == "first":

                def gfirst(s: Any) -> Any:
                    t = s.t
                    for x in it(s):
                        t[key] = x
                        if cond is None or cond(s):
                            return el(s)
                    return None

                return gfirst
            if kind == "distinct":

                def gdistinct(s: Any) -> list:
                    t = s.t
                    out = {}
                    for x in it(s):
                        t[key] = x
                        if cond is None or cond(s):
                            out[el(s)] = None
                    return list(out)

                return gdistinct
            if kind == "list":

                def glist(s: Any) -> list:
                    t = s.t
                    out = []
                    for x in it(s):
                        t[key] = x
                        if cond is None or cond(s):
                            out.append(el(s))
                    return out

                return glist
            if kind in ("min", "max"):
                pick = min if kind == "min" else max

                def gext(s: Any) -> Any:
                    t = s.t
                    vals = []
                    for x in it(s):
                        t[key] = x
                        if cond is None or cond(s):
                            vals.append(el(s))
                    return pick(vals) if vals else 0

                return gext
        fns = [c.expr(a, scope) for a in args]
        if any(isinstance(a, Tree) and a.data == "genexp" for a in args):
            raise c._fail(tok, f"'{tok}' takes one 'x for y in z' form or plain values")
        if kind in ("min", "max"):
            pick = min if kind == "min" else max
            if len(fns) == 1:
                f0 = fns[0]
                return lambda s: pick(f0(s), default=0)
            if len(fns) == 2:
                a0, b0 = fns
                return lambda s: pick(a0(s), b0(s))
            return lambda s: pick(f(s) for f in fns)
        if len(fns) != 1:
            raise c._fail(tok, f"'{tok}' takes one collection")
        f = fns[0]
        if kind == "sum":
            return lambda s: sum(f(s))
        if kind == "count":
            return lambda s: len(f(s))
        if kind == "any":
            return lambda s: any(f(s))
        if kind == "all":
            return lambda s: all(f(s))
        if kind == "first":
            return lambda s: next(iter(f(s)), None)
        if kind == "list":
            return lambda s: list(f(s))
        if kind == "distinct":
            return lambda s: list(dict.fromkeys(f(s)))
        raise ValueError(kind)

    return make


def _plain(fn: Callable[..., Any]):  # noqa: ANN202 - wraps a python function of values
    """A builtin computed by `fn(state, *values)`; code generation calls `fn` directly."""

    def make(c: Compiler, tok: Token, args: list, scope: Scope) -> Fn:
        fns = tuple(c.expr(a, scope) for a in args)
        if len(fns) == 1:
            (a,) = fns
            return lambda s: fn(s, a(s))
        if len(fns) == 2:
            a, b = fns
            return lambda s: fn(s, a(s), b(s))
        return lambda s: fn(s, *(f(s) for f in fns))

    make.pyfunc = fn  # type: ignore[attr-defined]
    return make


def _b_len(s: Any, x: Any) -> int:
    return len(x)


def _b_abs(s: Any, x: int) -> int:
    return abs(x)


def _b_total(s: Any, bag: dict) -> int:
    return sum(bag.values())


def _b_keys(s: Any, bag: dict) -> list:
    return [k for k, n in bag.items() if n > 0]


def _b_player(s: Any, i: int) -> int:
    return i % len(s.p)


def _b_seats_from(s: Any, i: int) -> list[int]:
    n = len(s.p)
    return [(i + k) % n for k in range(n)]


def _b_draw(s: Any, pile: list) -> Any:
    return pile.pop() if pile else None


def _b_push(s: Any, pile: list, x: Any) -> None:
    pile.append(x)


def _b_shuffle(s: Any, pile: list) -> None:
    s.rng.shuffle(pile)


def _b_clear(s: Any, x: Any) -> None:
    if isinstance(x, dict):
        for k in x:
            x[k] = 0
    else:
        x.clear()


def _b_remove(s: Any, area: list, piece: Any) -> None:
    for i, x in enumerate(area):
        if x is piece or x == piece:
            if s.ab:
                s.ab.clear()
            del area[i]
            return
    raise RuntimeRuleError(f"{_short(piece)} is not there to remove")


def _b_has(s: Any, area: list, kind: str) -> bool:
    for x in area:
        if x["type"] == kind:
            return True
    return False


def _b_find(s: Any, area: list, kind: str) -> Any:
    for x in area:
        if x["type"] == kind:
            return x
    return None


def _b_place(s: Any, kind: str, area: list) -> dict:
    piece = {"type": kind, **s.game.env.piece_defaults[kind]}
    if s.ab:
        s.ab.clear()
    area.append(piece)
    return piece


def _b_range(s: Any, n: int) -> range:
    if n > 100_000:
        raise RuntimeRuleError(f"range({n}) is too long")
    return range(max(0, n))


def _b_random(s: Any, n: int) -> int:
    return s.rng.randrange(n) if n > 0 else 0


BUILTINS: dict[str, tuple[int, int, Any]] = {
    "sum": (1, 1, _reducer("sum")),
    "count": (1, 1, _reducer("count")),
    "any": (1, 1, _reducer("any")),
    "all": (1, 1, _reducer("all")),
    "first": (1, 1, _reducer("first")),
    "list": (1, 1, _reducer("list")),
    "distinct": (1, 1, _reducer("distinct")),
    "range": (1, 1, _plain(_b_range)),
    "min": (1, 9, _reducer("min")),
    "max": (1, 9, _reducer("max")),
    "len": (1, 1, _plain(_b_len)),
    "abs": (1, 1, _plain(_b_abs)),
    "total": (1, 1, _plain(_b_total)),
    "keys": (1, 1, _plain(_b_keys)),
    "player": (1, 1, _plain(_b_player)),
    "seats-from": (1, 1, _plain(_b_seats_from)),
    "draw": (1, 1, _plain(_b_draw)),
    "push": (2, 2, _plain(_b_push)),
    "shuffle": (1, 1, _plain(_b_shuffle)),
    "clear": (1, 1, _plain(_b_clear)),
    "remove": (2, 2, _plain(_b_remove)),
    "has": (2, 2, _plain(_b_has)),
    "find": (2, 2, _plain(_b_find)),
    "place": (2, 2, _plain(_b_place)),
    "random": (1, 1, _plain(_b_random)),
}
