"""Compiles effect-DSL parse trees into Python source, then into functions, once at load time.

The closure compiler (compiler.py) turns every node into one Python call; here a whole effect
text becomes one generated function whose arithmetic, comparisons, field reads, loops and
`x for y in z` forms are plain Python bytecode: let-bound names, loop variables and inlined
parameters are Python locals. Name resolution, checks and error messages are inherited from
the closure compiler, so a rule author sees exactly the same diagnostics.

Generated code reads state only through `s` (the State) and the helper objects placed in its
namespace; it never evaluates rule text with eval at run time.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

from lark import Token, Tree

from interpreter.dsl.compiler import (
    BUILTINS,
    SPECIAL_NAMES,
    Callable_,
    Compiler,
    DslCompileError,
    Fn,
    RuntimeRuleError,
    Scope,
    _Nested,
    _player_or_piece_get,
    _show,
)
from interpreter.dsl.parser import DslSyntaxError, parse

_ids = itertools.count()

# builtins generated inline as Python (the rest call their value function, see _plain)
_REDUCERS = {"sum", "count", "any", "all", "first", "list", "distinct", "min", "max"}


def _fast_show(v: Any) -> str:
    return v if type(v) is str else _show(v)


def _set_field(s: Any, o: Any, name: str, value: Any, op: str | None) -> None:
    """Assignment to `x.name` where x may be a seat (player field) or a piece."""
    if type(o) is int:
        o = s.p[o]
    elif type(o) is dict:
        if s.ab:  # a piece changed: what pieces grant may have changed
            s.ab.clear()
    else:
        raise RuntimeRuleError(f"cannot set '{name}' on {o!r}")
    if op is None:
        o[name] = value
    elif op == "+=":
        o[name] += value
    else:
        o[name] -= value


def _static(table: dict, o: Any, s: Any, name: str, attrs: dict) -> Any:
    try:
        return table[o if type(o) is str else o["type"]]
    except (KeyError, TypeError):
        return _player_or_piece_get(s, o, name, attrs)


class _Src:
    """Generated expression text plus what the generator needs to know about it."""

    __slots__ = ("code", "simple", "const", "has_const")

    def __init__(self, code: str, simple: bool = False, const: Any = None, has_const: bool = False):
        self.code = code
        self.simple = simple  # cheap and side-effect free: may be evaluated twice
        self.const = const
        self.has_const = has_const


class CodeCompiler(Compiler):
    """Same language, same checks as Compiler; emits Python source instead of closures."""

    def __init__(self, env: Any, root: Scope | None = None) -> None:
        super().__init__(env, root)
        self.ns: dict[str, Any] = {
            "_show": _fast_show,
            "_set_field": _set_field,
            "_static": _static,
            "_attrs": env.attrs,
            "_get": _player_or_piece_get,
            "_runtime": env.runtime,
        }
        self._consts: dict[int, str] = {}

    # -- entry points -----------------------------------------------------------------------
    def expression(self, text: str, scope: Scope) -> Fn:
        src = self.x(parse(text, "expr"), scope)
        if src.has_const:
            value = src.const
            return lambda s: value
        return self._build([f"return {src.code}"], text)

    def statements(self, text: str, scope: Scope) -> Fn:
        lines = self.lines(parse(text, "start").children, scope)
        if not lines:
            return lambda s: None
        return self._build(lines, text)

    def _format(self, token: Token, scope: Scope) -> Fn:
        src = self.template(token, scope)
        if src.has_const:
            value = src.const
            return lambda s: value
        return self._build([f"return {src.code}"], str(token))

    def _build(self, body: list[str], text: str) -> Fn:
        name = f"_rule{next(_ids)}"
        head = ["g = s.g", "t = s.t", "P = s.p"]
        src = f"def {name}(s):\n" + "".join(f"    {line}\n" for line in head + body)
        try:
            # a branch the rule never takes may read a field of a constant (`x.f if x != none`
            # inlined with x = none): Python warns at compile time; the branch never runs
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SyntaxWarning)
                code = compile(src, f"<rule: {text[:60]!r}>", "exec")
        except SyntaxError as e:  # a generator bug, never a rule author's fault
            raise RuntimeError(f"generated code does not compile: {e}\n{src}") from None
        exec(code, self.ns)  # noqa: S102 - our own generated source, built from the parse tree
        return self.ns[name]

    # -- naming helpers -----------------------------------------------------------------------
    def _local(self, hint: str) -> str:
        clean = "".join(ch if ch.isalnum() else "_" for ch in hint)
        return f"_{clean}_{next(_ids)}"

    def _ref(self, value: Any) -> str:
        """A Python expression for a constant: a literal when possible, else a namespace name."""
        if value is None or isinstance(value, bool | int | str):
            return repr(value)
        key = id(value)
        if key not in self._consts:
            nm = f"_K{next(_ids)}"
            self.ns[nm] = value
            self._consts[key] = nm
        return self._consts[key]

    def _bind_local(self, scope: Scope, name: str) -> str:
        py = self._local(name)
        scope.bindings[name] = ("local", py)
        return py

    # -- statements ---------------------------------------------------------------------------
    def lines(self, stmts: list[Tree], scope: Scope) -> list[str]:
        out: list[str] = []
        for st in stmts:
            out.extend(self.stmt_lines(st, scope))
        return out

    def _suite(self, node: Tree, scope: Scope) -> list[str]:
        body = self.lines(node.children, scope)
        return ["    " + ln for ln in body] or ["    pass"]

    def stmt_lines(self, node: Tree, scope: Scope) -> list[str]:
        kind = node.data
        if kind == "simple_stmts":
            out: list[str] = []
            for child in node.children:
                out.extend(self.stmt_lines(child, scope))
            return out
        if kind == "pass_stmt":
            return []
        if kind == "let_stmt":
            name_tok, value = node.children
            v = self.x(value, scope)
            py = self._bind_local(scope, str(name_tok))
            return [f"{py} = {v.code}"]
        if kind == "assign":
            target, value = node.children
            return self._store(target, self.x(value, scope), scope, None)
        if kind == "augassign":
            target, op, value = node.children
            return self._store(target, self.x(value, scope), scope, str(op))
        if kind == "if_stmt":
            cond = self.x(node.children[0], scope)
            out = [f"if {cond.code}:", *self._suite(node.children[1], scope.child())]
            for clause in node.children[2:]:
                if clause.data == "elif_clause":
                    c = self.x(clause.children[0], scope)
                    out += [f"elif {c.code}:", *self._suite(clause.children[1], scope.child())]
                else:
                    out += ["else:", *self._suite(clause.children[0], scope.child())]
            return out
        if kind == "for_stmt":
            name_tok, iterable, suite = node.children
            it = self.x(iterable, scope)
            inner = scope.child()
            py = self._bind_local(inner, str(name_tok))
            return [f"for {py} in list({it.code}):", *self._suite(suite, inner)]
        if kind == "emit_stmt":
            return [self._emit_line(node, scope)]
        if kind == "log_stmt":
            text = self.template(node.children[0], scope)
            return [f"if s.log is not None: s.log.append((s.round, None, {text.code}))"]
        if kind == "call_stmt":
            return self._call_stmt(node.children[0], node.children[1:], scope)
        raise self._fail(node, f"unsupported statement {kind}")

    def _emit_line(self, node: Tree, scope: Scope) -> str:
        from interpreter.diagnostics.suggest import did_you_mean

        name_tok = node.children[0]
        name = str(name_tok)
        args = node.children[1].children if len(node.children) > 1 else []
        if name not in self.env.events:
            guess = did_you_mean(name, self.env.events)
            raise self._fail(
                name_tok,
                f"unknown event '{name}'"
                + (f"; did you mean '{guess}'?" if guess else " (declare it under events:)"),
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
        vals = ", ".join(self.x(a, scope).code for a in args)
        return f"_runtime['fire'](s, {name!r}, [{vals}])"

    def _store(self, target: Tree, value: _Src, scope: Scope, op: str | None) -> list[str]:
        assign = "=" if op is None else op
        kind = target.data
        if kind == "name":
            tok = target.children[0]
            name = str(tok)
            hit = scope.lookup(name)
            if hit is not None:
                where, key = hit
                if where == "local":
                    return [f"{key} {assign} {value.code}"]
                if where == "temp":
                    return [f"t[{key!r}] {assign} {value.code}"]
                if where == "var":
                    if op is None:
                        return [f"s.v[{key!r}] = {value.code}"]
                    return [f"s.v[{key!r}] = s.v.get({key!r}, 0) {op[0]} ({value.code})"]
                raise self._fail(tok, f"'{name}' is a parameter and cannot be assigned")
            env = self.env
            if name in env.global_fields:
                kind_ = env.global_fields[name]
                if kind_ not in ("counter", "value"):
                    raise self._fail(tok, f"'{name}' is a {kind_}; change its contents instead")
                return [f"g[{name!r}] {assign} {value.code}"]
            if name in env.constants or name in SPECIAL_NAMES:
                raise self._fail(tok, f"'{name}' is fixed by the rules and cannot be assigned")
            raise self._unknown(tok, scope)
        if kind == "attr":
            obj = self.x(target.children[0], scope)
            name = str(target.children[1])
            if name in self.env.abilities:
                raise self._fail(
                    target.children[1], f"'{name}' is an ability granted by pieces; read-only"
                )
            self._check_field_target(target.children[1], name)
            env = self.env
            only_player = (
                name in env.player_fields
                and name not in env.piece_fields
                and not any(name in a for a in env.attrs.values())
            )
            if only_player:
                return [f"P[{obj.code}][{name!r}] {assign} {value.code}"]
            return [f"_set_field(s, {obj.code}, {name!r}, {value.code}, {op!r})"]
        if kind == "index":
            obj = self.x(target.children[0], scope)
            key = self.x(target.children[1], scope)
            return [f"{obj.code}[{key.code}] {assign} {value.code}"]
        raise self._fail(target, "cannot assign to this")

    # -- expressions --------------------------------------------------------------------------
    def x(self, node: Tree | Token, scope: Scope) -> _Src:
        if isinstance(node, Token):
            raise self._fail(node, f"unexpected {node!s}")
        kind = node.data
        ch = node.children
        if kind in ("or_", "and_", "compare", "binop") and len(ch) == 1:
            return self.x(ch[0], scope)
        method = getattr(self, f"_x_{kind}", None)
        if method is None:
            raise self._fail(node, f"unsupported expression {kind}")
        return method(node, scope)

    def _c(self, value: Any) -> _Src:
        return _Src(self._ref(value), simple=True, const=value, has_const=True)

    def _x_number(self, node: Tree, scope: Scope) -> _Src:
        return self._c(int(node.children[0]))

    def _x_string(self, node: Tree, scope: Scope) -> _Src:
        return self.template(node.children[0], scope)

    def _x_true(self, node: Tree, scope: Scope) -> _Src:
        return self._c(True)

    def _x_false(self, node: Tree, scope: Scope) -> _Src:
        return self._c(False)

    def _x_none(self, node: Tree, scope: Scope) -> _Src:
        return self._c(None)

    def _x_list_(self, node: Tree, scope: Scope) -> _Src:
        return _Src("[" + ", ".join(self.x(c, scope).code for c in node.children) + "]")

    def _x_name(self, node: Tree, scope: Scope) -> _Src:
        tok = node.children[0]
        name = str(tok)
        hit = scope.lookup(name)
        if hit is not None:
            where, key = hit
            if where == "local":
                return _Src(key, simple=True)
            if where == "temp":
                return _Src(f"t[{key!r}]", simple=True)
            if where == "var":
                return _Src(f"s.v.get({key!r})", simple=True)
            if where == "src":
                return key
            raise self._fail(tok, f"'{name}' cannot be used here")
        env = self.env
        if name in env.global_fields:
            # not `simple`: an inlined procedure may change it between reads
            return _Src(f"g[{name!r}]")
        if name == "players":
            return self._c(env.players)
        if name == "seats":
            return self._c(tuple(range(env.players)))
        if name == "round":
            return _Src("s.round", simple=True)
        if name in env.constants:
            return self._c(env.constants[name])
        if name == "option":
            raise self._fail(tok, "write option.NAME to read a game option")
        if name in env.functions and not env.functions[name].params:
            return self._inline_expr(tok, env.functions[name], [], scope)
        raise self._unknown(tok, scope)

    def _x_attr(self, node: Tree, scope: Scope) -> _Src:
        base, name_tok = node.children
        name = str(name_tok)
        env = self.env
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "option":
            if scope.lookup("option") is None:
                super()._e_attr(node, scope)  # raises the unknown-option diagnostic if any
                return self._c(env.options[name])
        obj = self.x(base, scope)
        if name in env.abilities:
            return _Src(f"_runtime['ability'](s, {obj.code}, {name!r})")
        in_attrs = any(name in a for a in env.attrs.values())
        in_player = name in env.player_fields
        in_piece = name in env.piece_fields or name == "type"
        if not (in_attrs or in_player or in_piece or name == "seat"):
            super()._e_attr(node, scope)  # raises "nothing has a field" with a hint
        if in_attrs and not in_player and not in_piece:
            table = {eid: a[name] for eid, a in env.attrs.items() if name in a}
            if obj.has_const and isinstance(obj.const, str) and obj.const in table:
                return self._c(table[obj.const])  # e.g. some-entry.copies: known at load
            tname = self._ref(table)
            if obj.simple:
                o = obj.code
                return _Src(f"{tname}[{o} if {o}.__class__ is str else {o}['type']]")
            return _Src(f"_static({tname}, {obj.code}, s, {name!r}, _attrs)")
        if in_piece and not in_player and not in_attrs:
            return _Src(f"{obj.code}[{name!r}]")
        if in_player and not in_piece and not in_attrs:
            return _Src(f"P[{obj.code}][{name!r}]")
        return _Src(f"_get(s, {obj.code}, {name!r}, _attrs)")

    def _x_index(self, node: Tree, scope: Scope) -> _Src:
        obj = self.x(node.children[0], scope)
        key = self.x(node.children[1], scope)
        return _Src(f"{obj.code}[{key.code}]")

    def _x_neg(self, node: Tree, scope: Scope) -> _Src:
        return _Src(f"(-{self.x(node.children[0], scope).code})")

    def _x_not_(self, node: Tree, scope: Scope) -> _Src:
        return _Src(f"(not {self.x(node.children[0], scope).code})")

    def _x_or_(self, node: Tree, scope: Scope) -> _Src:
        return _Src("(" + " or ".join(self.x(c, scope).code for c in node.children) + ")")

    def _x_and_(self, node: Tree, scope: Scope) -> _Src:
        return _Src("(" + " and ".join(self.x(c, scope).code for c in node.children) + ")")

    def _x_cond(self, node: Tree, scope: Scope) -> _Src:
        then, cond, other = (self.x(c, scope).code for c in node.children)
        return _Src(f"({then} if {cond} else {other})")

    def _x_compare(self, node: Tree, scope: Scope) -> _Src:
        left = self.x(node.children[0], scope)
        op = str(node.children[1])
        right = self.x(node.children[2], scope)
        return _Src(f"({left.code} {op} {right.code})")

    def _x_binop(self, node: Tree, scope: Scope) -> _Src:
        ch = node.children
        code = self.x(ch[0], scope).code
        for i in range(1, len(ch), 2):
            code = f"({code} {ch[i]!s} {self.x(ch[i + 1], scope).code})"
        return _Src(code)

    def _x_call(self, node: Tree, scope: Scope) -> _Src:
        return self._call_expr(node.children[0], node.children[1:], scope)

    # -- calls --------------------------------------------------------------------------------
    def _arglist(self, rest: list) -> list:
        return self._args(rest) if rest and isinstance(rest[0], Tree) else list(rest)

    def _check_builtin(self, name_tok: Token, args: list) -> None:
        name = str(name_tok)
        lo, hi, _ = BUILTINS[name]
        if not (lo <= len(args) <= hi):
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise self._fail(name_tok, f"'{name}' takes {want} values, got {len(args)}", "D005")
        for a in args:
            if isinstance(a, Tree) and a.data == "kwarg":
                raise self._fail(a, f"'{name}' takes no named values")

    def _unknown_function(self, name_tok: Token) -> DslCompileError:
        from interpreter.diagnostics.suggest import did_you_mean

        name = str(name_tok)
        guess = did_you_mean(name, [*BUILTINS, *self.env.functions])
        return self._fail(
            name_tok,
            f"unknown function '{name}'" + (f"; did you mean '{guess}'?" if guess else ""),
            "D003",
        )

    def _call_expr(self, name_tok: Token, rest: list, scope: Scope) -> _Src:
        name = str(name_tok)
        args = self._arglist(rest)
        fn = self.env.functions.get(name)
        if fn is not None:
            if fn.is_procedure:
                raise self._fail(name_tok, f"'{fn.name}' is a procedure; call it as a statement")
            return self._inline_expr(name_tok, fn, args, scope)
        if name not in BUILTINS:
            raise self._unknown_function(name_tok)
        self._check_builtin(name_tok, args)
        if name in _REDUCERS:
            return self._reduce(name_tok, name, args, scope)
        vals = [self.x(a, scope).code for a in args]
        if name == "len":
            return _Src(f"len({vals[0]})")
        if name == "total":
            return _Src(f"sum({vals[0]}.values())")
        if name == "keys":
            return _Src(f"[_k for _k, _n in {vals[0]}.items() if _n > 0]")
        if name == "player":
            return _Src(f"(({vals[0]}) % {self.env.players})")
        pyfunc = getattr(BUILTINS[name][2], "pyfunc", None)
        if pyfunc is None:  # pragma: no cover - every plain builtin carries its function
            raise self._fail(name_tok, f"'{name}' cannot be compiled")
        fname = self._ref(pyfunc)
        return _Src(f"{fname}(s, {', '.join(vals)})")

    def _call_stmt(self, name_tok: Token, rest: list, scope: Scope) -> list[str]:
        name = str(name_tok)
        args = self._arglist(rest)
        fn = self.env.functions.get(name)
        if fn is not None and fn.is_procedure:
            return self._inline_proc(name_tok, fn, args, scope)
        return [self._call_expr(name_tok, rest, scope).code]

    def _reduce(self, tok: Token, kind: str, args: list, scope: Scope) -> _Src:
        if len(args) == 1 and isinstance(args[0], Tree) and args[0].data == "genexp":
            element, name_tok, iterable, *cond = args[0].children
            it = self.x(iterable, scope)
            inner = scope.child()
            py = self._bind_local(inner, str(name_tok))
            el = self.x(element, inner).code
            c = f" if {self.x(cond[0], inner).code}" if cond else ""
            gen = f"for {py} in {it.code}{c}"
            if kind == "sum":
                return _Src(f"sum({el} {gen})")
            if kind == "count":
                return _Src(f"sum(1 {gen})")
            if kind in ("any", "all"):
                return _Src(f"{kind}({el} {gen})")
            if kind == "first":
                return _Src(f"next(({el} {gen}), None)")
            if kind == "list":
                return _Src(f"[{el} {gen}]")
            if kind == "distinct":
                return _Src(f"list(dict.fromkeys({el} {gen}))")
            return _Src(f"{kind}(({el} {gen}), default=0)")
        if any(isinstance(a, Tree) and a.data == "genexp" for a in args):
            raise self._fail(tok, f"'{tok}' takes one 'x for y in z' form or plain values")
        vals = [self.x(a, scope).code for a in args]
        if kind in ("min", "max"):
            if len(vals) == 1:
                return _Src(f"{kind}({vals[0]}, default=0)")
            return _Src(f"{kind}({', '.join(vals)})")
        if len(vals) != 1:
            raise self._fail(tok, f"'{tok}' takes one collection")
        v = vals[0]
        return _Src(
            {
                "sum": f"sum({v})",
                "count": f"len({v})",
                "any": f"any({v})",
                "all": f"all({v})",
                "first": f"next(iter({v}), None)",
                "list": f"list({v})",
                "distinct": f"list(dict.fromkeys({v}))",
            }[kind]
        )

    def _prepare_inline(self, tok: Token, fn: Callable_, args: list) -> None:
        if len(args) != len(fn.params):
            raise self._fail(
                tok,
                f"'{fn.name}' takes {len(fn.params)} values ({', '.join(fn.params)}), "
                f"got {len(args)}",
                "D005",
            )
        if self._depth > 24:
            raise self._fail(tok, f"'{fn.name}' calls itself too deeply (recursion is not allowed)")

    def _inline_expr(self, tok: Token, fn: Callable_, args: list, scope: Scope) -> _Src:
        self._prepare_inline(tok, fn, args)
        srcs = [self.x(a, scope) for a in args]
        inner = Scope(self.root)
        lambda_params: list[str] = []
        lambda_args: list[str] = []
        for pname, src in zip(fn.params, srcs, strict=True):
            if src.simple:
                inner.bindings[pname] = ("src", src)
            else:  # evaluated once, as a parameter of an immediately called lambda
                py = self._bind_local(inner, pname)
                lambda_params.append(py)
                lambda_args.append(src.code)
        self._depth += 1
        try:
            try:
                body = self.x(fn.tree(), inner)
            except DslSyntaxError as e:
                raise _Nested(fn, e) from None
        finally:
            self._depth -= 1
        if not lambda_params:
            return _Src(f"({body.code})")
        return _Src(f"(lambda {', '.join(lambda_params)}: {body.code})({', '.join(lambda_args)})")

    def _inline_proc(self, tok: Token, fn: Callable_, args: list, scope: Scope) -> list[str]:
        self._prepare_inline(tok, fn, args)
        srcs = [self.x(a, scope) for a in args]
        inner = Scope(self.root)
        out: list[str] = []
        for pname, src in zip(fn.params, srcs, strict=True):
            if src.simple:
                inner.bindings[pname] = ("src", src)
            else:
                py = self._bind_local(inner, pname)
                out.append(f"{py} = {src.code}")
        self._depth += 1
        try:
            try:
                out.extend(self.lines(fn.tree().children, inner))
            except DslSyntaxError as e:
                raise _Nested(fn, e) from None
        finally:
            self._depth -= 1
        return out

    # -- templates ----------------------------------------------------------------------------
    def template(self, token: Token, scope: Scope) -> _Src:
        raw = str(token)[1:-1]
        parts: list[str] = []
        text_only = True
        pos = 0
        while pos < len(raw):
            start = raw.find("{", pos)
            if start < 0:
                parts.append(repr(raw[pos:]))
                break
            end = raw.find("}", start)
            if end < 0:
                raise self._fail(token, "a '{' in the text is never closed")
            if start > pos:
                parts.append(repr(raw[pos:start]))
            try:
                inner = self.x(parse(raw[start + 1 : end], "expr"), scope)
            except DslSyntaxError as e:
                raise DslCompileError(
                    e.message, token.line or 1, (token.column or 0) + 1 + start + e.column, e.code
                ) from None
            if inner.has_const:
                parts.append(repr(_show(inner.const)))
            else:
                text_only = False
                parts.append(f"_show({inner.code})")
            pos = end + 1
        if text_only:
            value = "".join(eval(p) for p in parts)  # noqa: S307 - reprs of plain strings
            return _Src(repr(value), simple=True, const=value, has_const=True)
        return _Src("(" + " + ".join(parts) + ")")
