"""The resolve pass: one walk over a parse tree that decides what every name, attribute and call
means against the ruleset's names (Env) and the scope, raises every diagnostic a rule author
can get for a text that parses, and returns the resolved tree (ir.py) the generator writes out.

Validation runs this pass alone. The resolver holds two helpers it hands its walks to: the
calls, and the inlining of rule functions (calls.py), and the bare words read by their place
(barewords.py).
"""

from __future__ import annotations

from typing import Any, cast

from lark import Token, Tree

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.parse.parser import DslSyntaxError, parse, start_of
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.barewords import BareWords
from interpreter.dsl.resolve.calls import Calls
from interpreter.dsl.resolve.expression_types import infer, note_emit
from interpreter.dsl.resolve.failures import DslCompileError, fail, with_guess
from interpreter.dsl.resolve.none_safety import known_not_none
from interpreter.dsl.resolve.scope import SPECIAL_NAMES, Env, Scope
from interpreter.dsl.resolve.shadow import shadowing
from interpreter.dsl.resolve.type_checker import TypeChecker
from interpreter.dsl.resolve.types import ANY, SEAT, Type
from interpreter.dsl.runtime.support import named, show


class Resolver:
    """Resolves parse trees against one Env; `root` holds the flow variables, seen everywhere."""

    def __init__(self, env: Env, root: Scope) -> None:
        self.env = env
        self.root = root
        self.tc = TypeChecker(env)
        self.origin: ir.Origin = None  # the inlined function whose text is being resolved
        # (line, column) where a template's {expr} part being resolved starts in its text: the
        # part is parsed on its own, so its nodes' places are moved by it (None: no part)
        self.shift: tuple[int, int] | None = None
        self.words = BareWords(env, root, self.expr)
        self.calls = Calls(self)

    # -- diagnostics ------------------------------------------------------------------------
    def _unknown(self, token: Token, scope: Scope) -> DslCompileError:
        name = str(token)
        guess = did_you_mean(name, [*scope.visible(), *self.env.names()])
        message = f"unknown name '{name}'"
        split = self._subtraction(name, scope)
        if split:
            message += f" (write '{split}' with spaces to subtract)"
        elif guess:
            message += f"; did you mean '{guess}'?"
        return fail(token, message, "D003")

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
        if name in env.abilities:
            raise fail(tok, f"'{name}' is an ability granted by pieces; read-only")
        if name in env.player_fields or name in env.piece_fields:
            return
        if self.env.attribute_table(name) is not None:
            raise fail(tok, f"'{name}' is fixed by the rules and cannot be assigned")
        guess = did_you_mean(name, [*env.player_fields, *env.piece_fields])
        raise fail(tok, with_guess(f"nothing has a field '{name}'", guess), "D003")

    def _unknown_field(self, tok: Token, name: str) -> DslCompileError:
        env = self.env
        candidates = [
            *env.player_fields,
            *env.piece_fields,
            *env.abilities,
            *{k for a in env.attrs.values() for k in a},
        ]
        guess = did_you_mean(name, candidates)
        return fail(tok, with_guess(f"nothing has a field '{name}'", guess), "D003")

    # -- statements -------------------------------------------------------------------------
    def block(self, stmts: list[Tree], scope: Scope) -> list[ir.Stmt]:
        out: list[ir.Stmt] = []
        for st in stmts:
            self._stmt(st, scope, out)
        return out

    def _stmt(self, node: Tree, scope: Scope, out: list[ir.Stmt]) -> None:
        before = len(out)
        self._stmt_of_kind(node, scope, out)
        if len(out) > before and not node.meta.empty:
            for st in out[before:]:
                if not hasattr(st, "pos"):
                    st.pos = (node.meta.line, node.meta.column)

    def _stmt_of_kind(self, node: Tree, scope: Scope, out: list[ir.Stmt]) -> None:
        kind = node.data
        ch: list[Any] = node.children  # Tokens and Trees, as the grammar's rule has them
        if kind == "simple_stmts":
            for child in ch:
                self._stmt(child, scope, out)
        elif kind == "pass_stmt":
            pass
        elif kind == "let_stmt":
            value = self.expr(ch[1], scope)
            out.append(ir.Let(self.declare(scope, ch[0], value), value))
        elif kind in ("assign", "augassign"):
            gives_trigger = kind == "assign" and self.words.is_trigger_field(ch[0], scope)
            value = (self.words.trigger_value if gives_trigger else self.expr)(ch[-1], scope)
            target = self._target(ch[0], scope)
            op = str(ch[1]) if kind == "augassign" else None
            if self.tc.on:
                self.tc.assign(node, target, op, value, scope)
            out.append(ir.Assign(target, op, value))
        elif kind == "if_stmt":
            out.append(self._if(node, scope))
        elif kind == "for_stmt":
            iterable = self.expr(ch[1], scope)
            inner = scope.child()
            slot = self.declare(inner, ch[0])
            slot.ty = self.tc.loop_item(ch[1], iterable) if self.tc.on else None
            out.append(ir.For(slot, iterable, self.block(ch[2].children, inner)))
        elif kind == "emit_stmt":
            out.append(self._emit(node, scope))
        elif kind == "log_stmt":
            text = self.template(ch[0], scope, words=True)
            if len(ch) == 3:  # `own "TEXT" for SEAT`: the text that seat reads instead
                seat = self.expr(ch[2], scope)
                if self.tc.on:
                    self.tc.want(ch[2], seat, SEAT, "the seat of a log line's own text")
                out.append(ir.Log(text, seat, self.template(ch[1], scope, words=True)))
            else:
                out.append(ir.Log(text))
        elif kind == "call_stmt":
            call = self.calls.call(ch[0], ch[1:], scope, statement=True)
            if not isinstance(call, ir.InlineProc):
                if self.tc.on:
                    call.ty = infer(self.tc, node, call, scope)
                call.where = self._place(node)
            out.append(call if isinstance(call, ir.InlineProc) else ir.Do(call))
        else:
            raise fail(node, f"unsupported statement {kind}")

    def declare(self, scope: Scope, tok: Token, value: ir.Expr | None = None) -> ir.Slot:
        problem = shadowing(str(tok))  # a rule's own `let`/`for` name
        if problem is not None:
            raise fail(tok, problem)
        return self.bind(scope, str(tok), value)

    def bind(self, scope: Scope, name: str, value: ir.Expr | None = None) -> ir.Slot:
        slot = ir.Slot(name, next(scope.numbers), getattr(value, "ty", None))
        scope.bindings[name] = ("local", slot)
        self.note_bound(name, slot.ty)
        return slot

    def note_bound(self, name: str, ty: Type | None) -> None:
        info = self.env.types
        if info is not None and ty is not None and ty != ANY:  # ANY: nothing learnt
            info.bound.setdefault(name, set()).add(ty)

    def _if(self, node: Tree, scope: Scope) -> ir.If:
        cond = self.condition(node.children[0], scope)
        with self.tc.assume(known_not_none(cond)):
            branches = [(cond, self.block(node.children[1].children, scope.child()))]
        at = [self._at(node)]
        otherwise = None
        for clause in node.children[2:]:
            at.append(self._at(clause))
            before = set().union(*(known_not_none(c, False) for c, _ in branches))
            with self.tc.assume(before):
                if clause.data == "elif_clause":
                    c = self.condition(clause.children[0], scope)
                    with self.tc.assume(known_not_none(c)):
                        block = self.block(clause.children[1].children, scope.child())
                    branches.append((c, block))
                else:
                    otherwise = self.block(clause.children[0].children, scope.child())
        if otherwise is None:
            at.append(at[0])
        return ir.If(branches, otherwise, tuple(at))

    def _at(self, node: Tree | Token) -> tuple:
        """Where a branch is, for a coverage build: (inlined function or None, line, column)."""
        if isinstance(node, Token):
            return (self.origin, node.line or 1, node.column or 1)
        if node.meta.empty:
            return (self.origin, 1, 1)
        return (self.origin, *start_of(node))

    def _emit(self, node: Tree, scope: Scope) -> ir.Emit:
        name_tok = node.children[0]
        name = str(name_tok)
        args = node.children[1].children if len(node.children) > 1 else []
        events = self.env.events
        if name not in events:
            guess = did_you_mean(name, events)
            message = with_guess(f"unknown event '{name}'", guess, " (declare it under events:)")
            raise fail(name_tok, message, "D004")
        params = events[name]
        if len(args) != len(params):
            raise fail(
                name_tok,
                f"event '{name}' takes {len(params)} values ({', '.join(params)}), got {len(args)}",
                "D005",
            )
        self.env.emitted.add(name)
        values = [self.expr(a, scope) for a in args]
        note_emit(self.tc, name, args, values)
        return ir.Emit(name, values)

    def _target(self, target: Tree, scope: Scope) -> ir.Target:
        kind = target.data
        ch: list[Any] = target.children  # Tokens and Trees, as the grammar's rule has them
        if kind == "name":
            return self._name_target(ch[0], scope)
        if kind == "attr":
            obj = self.expr(ch[0], scope)
            tok = ch[1]
            name = str(tok)
            self._check_field_target(tok, name)
            env = self.env
            only_player = (
                name in env.player_fields
                and name not in env.piece_fields
                and self.env.attribute_table(name) is None
            )
            return ir.Target("field", name, obj, only_player=only_player)
        if kind == "index":
            obj = self.expr(target.children[0], scope)
            return ir.Target("index", obj=obj, index=self.expr(target.children[1], scope))
        raise fail(target, "cannot assign to this")

    def _name_target(self, tok: Token, scope: Scope) -> ir.Target:
        name = str(tok)
        hit = scope.lookup(name)
        if hit is not None:
            where, key = hit
            if where == "alias":
                raise fail(tok, f"'{name}' is a parameter and cannot be assigned")
            return ir.Target(where, key)  # local, temp or var
        env = self.env
        if name in env.global_fields:
            kind = env.global_fields[name]
            if kind not in ("counter", "value"):
                raise fail(tok, f"'{name}' is a {kind}; change its contents instead")
            return ir.Target("global", name)
        if name in env.constants or name in SPECIAL_NAMES:
            raise fail(tok, f"'{name}' is fixed by the rules and cannot be assigned")
        raise self._unknown(tok, scope)

    # -- expressions ------------------------------------------------------------------------
    def condition(self, node: Tree, scope: Scope) -> ir.Expr:
        out = self.expr(node, scope)
        if self.tc.on:
            self.tc.condition(node, out)
        return out

    def expr(self, node: Tree | Token, scope: Scope) -> ir.Expr:
        if isinstance(node, Token):
            raise fail(node, f"unexpected {node!s}")
        kind = node.data
        method = _EXPRESSIONS.get(kind)
        if method is None:
            raise fail(node, f"unsupported expression {kind}")
        out = method(self, node, scope)
        if self.tc.on and getattr(out, "ty", None) is None:
            out.ty = infer(self.tc, node, out, scope)
        try:
            out.where  # noqa: B018 - a parameter read as its argument keeps the argument's place
        except AttributeError:
            out.where = self._place(node)
        return out

    def _place(self, node: Tree) -> tuple[ir.Origin, int, int]:
        """(inlined function or None, line, column) of `node` in the text it is written in."""
        if node.meta.empty:
            line, column = 1, 1
        else:
            line, column = start_of(node)
        shift = self.shift
        if shift is not None:
            column += shift[1] if line == 1 else 0
            line += shift[0] - 1
        return (self.origin, line, column)

    def _number(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.Const(int(str(node.children[0])))

    def _string(self, node: Tree, scope: Scope) -> ir.Expr:
        return self.template(cast(Token, node.children[0]), scope)

    def _true(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.Const(True)

    def _false(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.Const(False)

    def _none(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.Const(None)

    def _list(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.ListOf([self.expr(c, scope) for c in node.children])

    def _name(self, node: Tree, scope: Scope) -> ir.Expr:
        tok = cast(Token, node.children[0])
        name = str(tok)
        match scope.lookup(name):
            case ("local", slot):
                return ir.Local(slot)
            case ("temp", key):
                return ir.Temp(key)
            case ("var", var):
                return ir.FlowVar(var)
            case ("alias", value):
                return value  # a parameter, read as the argument it was given
        env = self.env
        if name in env.global_fields:
            return ir.Global(name)
        if name in ("players", "seats"):
            count = ir.Const(env.players if name == "players" else tuple(range(env.players)))
            env.count_consts[id(count)] = count
            return count
        if name == "round":
            return ir.Round()
        if name in env.constants:
            return ir.Const(env.constants[name], name)
        if name == "option":
            raise fail(tok, "write option.NAME to read a game option")
        if name in env.functions and not env.functions[name].params:
            return self._value_call(tok, [], scope)
        raise self._unknown(tok, scope)

    def _attr(self, node: Tree, scope: Scope) -> ir.Expr:
        base, name_tok = cast(tuple[Tree, Token], node.children)
        name = str(name_tok)
        env = self.env
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "option":
            if scope.lookup("option") is None:
                if name not in env.options:
                    guess = did_you_mean(name, env.options)
                    raise fail(name_tok, with_guess(f"unknown option '{name}'", guess), "D003")
                return ir.Const(env.options[name], f"option.{name}")  # named: see host.py
        obj = self.expr(base, scope)
        if name in env.abilities:
            return ir.Ability(obj, name)
        table = self.env.attribute_table(name)
        in_attrs = table is not None
        in_player = name in env.player_fields
        in_piece = name in env.piece_fields or name == "type"
        if not (in_attrs or in_player or in_piece or name == "seat"):
            raise self._unknown_field(name_tok, name)
        if in_attrs and not in_player and not in_piece:
            assert table is not None
            if isinstance(obj, ir.Const) and isinstance(obj.value, str) and obj.value in table:
                return ir.Const(table[obj.value])  # e.g. some-entry.copies: known at load
            return ir.Static(obj, name, table)
        if in_piece and not in_player and not in_attrs:
            return ir.Field(obj, name, "piece")
        if in_player and not in_piece and not in_attrs:
            return ir.Field(obj, name, "player")
        return ir.Field(obj, name, "any")

    def _index(self, node: Tree, scope: Scope) -> ir.Expr:
        obj = self.expr(node.children[0], scope)
        return ir.Index(obj, self.words.key_value(obj, node.children[1], scope))

    def _neg(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.Unary("-", self.expr(node.children[0], scope))

    def _not(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.Unary("not", self.expr(node.children[0], scope))

    def _or(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.BoolOp("or", self._operands(node, scope, False))

    def _and(self, node: Tree, scope: Scope) -> ir.Expr:
        return ir.BoolOp("and", self._operands(node, scope, True))

    def _operands(self, node: Tree, scope: Scope, truth: bool) -> list[ir.Expr]:
        """Each operand of `and` (`or`) knows what the ones before it were true (false) of."""
        out: list[ir.Expr] = []
        for c in node.children:
            with self.tc.assume(set().union(*(known_not_none(x, truth) for x in out))):
                out.append(self.expr(c, scope))
        return out

    def _cond(self, node: Tree, scope: Scope) -> ir.Expr:
        test = self.expr(node.children[1], scope)
        with self.tc.assume(known_not_none(test)):
            then = self.expr(node.children[0], scope)
        with self.tc.assume(known_not_none(test, False)):
            other = self.expr(node.children[2], scope)
        arms = (self._at(node.children[0]), self._at(node.children[2]))
        return ir.Cond(then, test, other, arms)

    def _compare(self, node: Tree, scope: Scope) -> ir.Expr:
        left, op, right = node.children[0], str(node.children[1]), node.children[2]
        if op in ("==", "!=") and self.words.is_trigger_field(left, scope):  # `end-trigger == city`
            return ir.Binary(self.expr(left, scope), op, self.words.trigger_value(right, scope))
        return ir.Binary(self.expr(left, scope), op, self.expr(right, scope))

    def _binop(self, node: Tree, scope: Scope) -> ir.Expr:
        ch = node.children
        acc = self.expr(ch[0], scope)
        for i in range(1, len(ch), 2):
            acc = ir.Binary(acc, str(ch[i]), self.expr(ch[i + 1], scope))
        return acc

    def _call_expr(self, node: Tree, scope: Scope) -> ir.Expr:
        return self._value_call(cast(Token, node.children[0]), node.children[1:], scope)

    def _value_call(self, tok: Token, rest: list[Any], scope: Scope) -> ir.Expr:
        call = self.calls.call(tok, rest, scope, statement=False)
        assert not isinstance(call, ir.InlineProc)  # (a call refuses a procedure as a value)
        return call

    def template(self, token: Token, scope: Scope, words: bool = False) -> ir.Expr:
        """A quoted text; its {expr} parts are resolved, faults placed inside the quotes.
        A log line's text (`words`) prints the ids it fills in as their names."""
        raw = str(token)[1:-1]
        parts: list[str | ir.Expr] = []
        places: list[tuple[object, int, int]] = []
        pos = 0
        while pos < len(raw):
            start = raw.find("{", pos)
            if start < 0:
                parts.append(raw[pos:])
                break
            end = raw.find("}", start)
            if end < 0:
                raise fail(token, "a '{' in the text is never closed")
            if start > pos:
                parts.append(raw[pos:start])
            outer, self.shift = self.shift, (token.line or 1, (token.column or 0) + 1 + start)
            places.append((self.origin, token.line or 1, (token.column or 0) + 2 + start))
            try:
                parts.append(self.expr(parse(raw[start + 1 : end], "expr"), scope))
            except DslSyntaxError as e:
                column = (token.column or 0) + 1 + start + e.column
                raise DslCompileError(e.message, token.line or 1, column, e.code) from None
            finally:
                self.shift = outer
            pos = end + 1
        if all(isinstance(p, str | ir.Const) for p in parts):
            if any(id(p) in self.env.count_consts for p in parts):
                self.env.count_used = True  # the text now differs by player count
            names = self.env.id_names

            def word(part: str | ir.Expr) -> str:
                if isinstance(part, str):
                    return part
                value = cast(ir.Const, part).value
                return named(value, names) if words else show(value)

            out: ir.Expr = ir.Const("".join(map(word, parts)))
        else:
            out = ir.Template(parts, words, tuple(places))
        out.where = (self.origin, token.line or 1, (token.column or 0) + 1)
        return out


_EXPRESSIONS = {
    "number": Resolver._number,
    "string": Resolver._string,
    "true": Resolver._true,
    "false": Resolver._false,
    "none": Resolver._none,
    "list_": Resolver._list,
    "name": Resolver._name,
    "attr": Resolver._attr,
    "index": Resolver._index,
    "neg": Resolver._neg,
    "not_": Resolver._not,
    "or_": Resolver._or,
    "and_": Resolver._and,
    "cond": Resolver._cond,
    "compare": Resolver._compare,
    "binop": Resolver._binop,
    "call": Resolver._call_expr,
}
