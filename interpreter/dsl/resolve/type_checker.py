"""The type checker of the effect language, applied by the resolve pass (resolver.py) to each
node it makes: every operand, comparison, index, field, builtin argument, condition and
assignment is checked at load against the types the ruleset declares (scope.TypeInfo, types.py).

One TypeChecker holds what a check needs (the Env, the tests known to hold where the text being
checked is: NoneGuards) and the rules for operators, indexes, conditions and assignments; it
asks field_types.py for a field read and table_keys.py for a table's keys. The type of each
kind of expression, and of each builtin call, is expression_types.py's, given the checker.

A fault is a TypeFault at the offending token. It names the value to blame (`culprit`) and
what was expected there, so that a fault inside an inlined rule function caused by an argument
is reported at the call site's argument instead (resolver.py).

Codes: D008 a value of the wrong type (D009 and D010, fields: field_types.py; D011, a value
that may be none: none_safety.py; K005, a table by player count lacking a count: table_keys.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager

from lark import Token, Tree

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.parse.unparse import Lazy, show_tree
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.field_types import field_type
from interpreter.dsl.resolve.none_safety import Key, NoneGuards, guard_hint
from interpreter.dsl.resolve.scope import Env, Scope, TypeInfo
from interpreter.dsl.resolve.table_keys import check_table_keys
from interpreter.dsl.resolve.type_faults import (
    TypeFault,
    found_words,
    literal,
    strip_optional as _strip,
    type_of,
)
from interpreter.dsl.resolve.types import (
    ANY,
    BOOL,
    COUNT,
    NONE,
    NUMBER,
    SEAT,
    TEXT,
    Area,
    Bag,
    Id,
    ListOf,
    OneOf,
    Optional,
    Pile,
    Table,
    Type,
    assignable,
    describe,
    is_number,
    item_of,
    join,
    one_of,
)

__all__ = ["TypeChecker"]


_OPWORDS = {"+": "adds", "-": "subtracts", "*": "multiplies", "//": "divides", "%": "divides"}
_NUMBER_OPS = ("<", "<=", ">", ">=")
_LIST_ARGS = {"len", "distinct", "list", "first", "count", "any", "all", "sum", "min", "max"}


class TypeChecker:
    """The checks on each resolved node, for one Env (off without types)."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self._empty = TypeInfo()
        self.guards = NoneGuards()  # what the tests around the text being checked rule out

    @property
    def on(self) -> bool:
        """Whether texts are checked: the model builder gives the Env its types."""
        return self.env.types is not None

    @property
    def info(self) -> TypeInfo:
        return self.env.types or self._empty

    # -- none-safety: the guards' -------------------------------------------------------------
    def assume(self, keys: Iterable[Key]) -> AbstractContextManager[None]:
        """While in it, the values `keys` name are known not to be none (none_safety.py)."""
        return self.guards.assume(keys)

    def need_value(self, tree: Tree | Token, node: ir.Expr, what: str | Lazy) -> None:
        """D011 when `node` may be none here (none_safety.py)."""
        self.guards.need_value(tree, node, what)

    # -- helpers ------------------------------------------------------------------------------
    def want(self, tree: Tree | Token, node: ir.Expr, expected: Type, what: str) -> None:
        """Raise when `node` (written at `tree`) does not fit `expected`: `what` expected ..."""
        found = _strip(type_of(node))
        if assignable(found, expected) or (found == NONE and isinstance(expected, Optional)):
            if not isinstance(expected, Optional) and expected != ANY:
                self.need_value(tree, node, what)
            return
        message = f"{what}: expected {describe(expected)}, got {found_words(node)}"
        raise TypeFault(message + self.guess(node, expected), tree, node, expected)

    def seat_number(self, tree: Tree | Token, node: ir.Const, what: str) -> None:
        """A seat written as its number must be one every game has. The smallest player count
        is checked first (check/compile.py), and a seat it has, every larger count has too."""
        players = self.env.players
        if not 0 <= node.value < players:
            raise TypeFault(
                f"{what}: there is no seat {node.value} with {players} players "
                f"(seats are numbered 0 to {players - 1})",
                tree,
                node,
                SEAT,
            )

    def guess(self, node: ir.Expr, expected: Type | None) -> str:
        """' (did you mean ...?)' when `node` is an id close to an id of the `expected` kind."""
        expected = _strip(expected) if expected is not None else None
        if not (isinstance(expected, Id) and isinstance(node, ir.Const)):
            return ""
        if not isinstance(node.value, str):
            return ""
        info = self.info
        ids = [i for i, cat in info.catalog_of.items() if cat == expected.universe]
        ids += [i for i, t in info.constants.items() if t == expected and i not in info.catalog_of]
        if expected.universe == "phase":
            ids += sorted(info.phases)
        found = did_you_mean(node.value, ids)
        return f" (did you mean '{found}'?)" if found else ""

    def number(self, tree: Tree | Token, node: ir.Expr, text: str | Lazy, word: str) -> None:
        t = _strip(type_of(node))
        if t == ANY or is_number(t):
            self.need_value(tree, node, Lazy("'", text, "'"))
            return
        raise TypeFault(
            f"'{text}': {word} needs numbers, got {found_words(node)}", tree, node, NUMBER
        )

    # -- names ----------------------------------------------------------------------------------
    def constant(self, name: str, value: object) -> Type:
        if name == "players":
            return COUNT
        if name == "seats":
            return ListOf(SEAT)
        t = self.info.constants.get(name)
        return t if t is not None else self.value(value)

    def value(self, value: object) -> Type:
        if isinstance(value, bool):
            return BOOL
        if isinstance(value, int):
            return COUNT if value >= 0 else NUMBER
        if value is None:
            return NONE
        if isinstance(value, str):
            cat = self.info.catalog_of.get(value)
            return Id(cat) if cat else self.info.constants.get(value, TEXT)
        return ANY

    # -- indexes ------------------------------------------------------------------------------
    def index(self, tree: Tree, node: ir.Index) -> Type:
        """`obj[key]`, read or written: a key of the kind `obj` is read by, and `obj` is not
        none (D011) here."""
        found = self._index(tree, node)
        self.need_value(tree.children[0], node.obj, Lazy("'", tree, "'"))
        return found

    def _index(self, tree: Tree, node: ir.Index) -> Type:
        t = _strip(type_of(node.obj))
        key_tree = tree.children[1]
        text = Lazy("'", tree, "'")
        if isinstance(t, Table):
            key = t.key
            if is_number(key):
                self.number(key_tree, node.key, Lazy(tree), "a table by number")
                check_table_keys(self.env, self.info, self.guards, tree, node)
            else:
                self.want(key_tree, node.key, key, f"{text}: {describe(t)} is read by a key")
            return t.value
        if isinstance(t, Bag):
            self.want(key_tree, node.key, Id(t.universe), f"{text}: {describe(t)} is read by a key")
            return NUMBER
        if isinstance(t, ListOf | Pile | Area):
            self.number(key_tree, node.key, Lazy(tree), "a list's position")
            return item_of(t) or ANY
        if t in (ANY, NONE):
            return ANY
        raise TypeFault(f"{text}: {found_words(node.obj)} cannot be indexed", tree, node.obj)

    def loop_item(self, tree: Tree | Token, node: ir.Expr) -> Type:
        t = _strip(type_of(node))
        item = item_of(t)
        if item is None:
            if t == NONE:
                return ANY
            raise TypeFault(
                f"'{show_tree(tree)}': cannot loop over {found_words(node)}",
                tree,
                node,
                ListOf(ANY),
            )
        return item

    # -- operators ----------------------------------------------------------------------------
    def compare(self, tree: Tree, left: ir.Expr, op: str, right: ir.Expr, at: Tree | Token) -> Type:
        lt, rt = _strip(type_of(left)), _strip(type_of(right))
        text = Lazy(tree)
        if op in ("in", "not in"):
            item = item_of(rt)
            if item is None and rt != NONE:
                raise TypeFault(
                    f"'{text}': looks for a value in {found_words(right)}, which is not a "
                    "collection",
                    at,
                    right,
                    ListOf(ANY),
                )
            if item is not None and not _comparable(lt, _strip(item)):
                raise TypeFault(
                    f"'{text}': looks for {found_words(left)} in {describe(rt)}"
                    + self.guess(left, item),
                    at,
                    left,
                    item,
                )
            return BOOL
        if op in _NUMBER_OPS:
            self.need_value(tree.children[0], left, Lazy("'", tree, "'"))
            self.need_value(tree.children[-1], right, Lazy("'", tree, "'"))
            for side, t in ((left, lt), (right, rt)):
                if t != ANY and not is_number(t):
                    other = rt if side is left else lt
                    raise TypeFault(
                        f"'{text}': compares {found_words(left)} with {found_words(right)}"
                        f" ('{op}' needs numbers)",
                        at,
                        side,
                        NUMBER if is_number(other) else None,
                    )
            return BOOL
        if (
            NONE in (lt, rt)
            and lt != rt  # `some-id == none`: a test that can never change
            and literal(tree.children[0], left)
            and literal(tree.children[-1], right)
        ):
            raise TypeFault(f"'{text}': compares a fixed value with none", at, None, None)
        if not _comparable(lt, rt):
            hint = self.guess(right, lt) or self.guess(left, rt)
            culprit, expected = (left, rt) if rt in (TEXT, NUMBER, COUNT) else (right, rt)
            if {lt, rt} == {TEXT, BOOL}:  # a text is never true or false: it is the odd one
                culprit, expected = (left, BOOL) if lt == TEXT else (right, BOOL)
            raise TypeFault(
                f"'{text}': compares {found_words(left)} with {found_words(right)}{hint}",
                at,
                culprit,
                expected if expected != NONE else lt,
            )
        return BOOL

    def arith(self, tree: Tree, left: ir.Expr, op: str, right: ir.Expr, at: Tree | Token) -> Type:
        lt, rt = _strip(type_of(left)), _strip(type_of(right))
        if op == "+":
            if item_of(lt) is not None and lt not in (TEXT, ANY):  # lists join end to end
                joined = one_of(lt, rt) if item_of(rt) is not None else None
                if joined is None and rt != ANY:
                    # a list and a number: the list is the odd one (a number is never joined)
                    culprit, expected = (left, NUMBER) if is_number(rt) else (right, lt)
                    raise TypeFault(
                        f"'{show_tree(tree)}': adds {found_words(right)} to {describe(lt)}",
                        at,
                        culprit,
                        expected,
                    )
                return joined or ANY
            if lt == TEXT and rt in (TEXT, ANY):
                return TEXT
        text = Lazy(tree)
        self.number(at, left, text, f"'{op}'")
        self.number(at, right, text, f"'{op}'")
        if op in ("//", "%") and isinstance(right, ir.Const) and right.value == 0:
            # known at load (a 0 written there, or a count folded to 0): it can only fail
            raise TypeFault(f"'{text}': divides by 0", at, right)
        if lt == ANY or rt == ANY:
            return NUMBER
        return COUNT if lt == COUNT and rt == COUNT and op != "-" else NUMBER

    def condition(self, tree: Tree | Token, node: ir.Expr, what: str = "a condition") -> None:
        t = _strip(type_of(node))
        if t in (BOOL, ANY):
            return
        raise TypeFault(
            f"'{show_tree(tree)}': {what} must be true or false, got {found_words(node)}",
            tree,
            node,
            BOOL,
        )

    def expect(self, tree: Tree | Token, node: ir.Expr, word: str) -> None:
        """The checks of a flow text's place: bool (conditions), seat (who), number (from),
        phase (the phase to run), collection (what an option's `for` goes through)."""
        if not self.on:
            return
        if word == "bool":
            self.condition(tree, node)
            return
        t = type_of(node)
        text = Lazy(tree)
        if word == "phase":
            if isinstance(node, ir.Const) and isinstance(node.value, str):
                if node.value in self.info.phases:
                    return
                raise TypeFault(f"'{text}': '{node.value}' is not a phase", tree, node, Id("phase"))
            if t in (ANY, Id("phase")):
                return
            found = found_words(node)
            if t == Optional(Id("phase")):
                found += " (an entry falls back on a default of 'none')"
            raise TypeFault(f"'{text}': 'phase' must be a phase name, got {found}", tree, node)
        if word == "collection":  # an option's `for: x in ...`: something to go through
            self.loop_item(tree, node)
            return
        if word == "seat":
            if isinstance(node, ir.Const) and type(node.value) is int:
                self.seat_number(tree, node, f"'{text}': 'who'")
                return
            if t in (ANY, SEAT):
                return
            raise TypeFault(f"'{text}': 'who' must be a seat, got {found_words(node)}", tree, node)
        if word == "number" and not (t == ANY or is_number(_strip(t))):
            raise TypeFault(f"'{text}': expected a seat or a number, got {found_words(node)}", tree)

    def blame_argument(
        self, e: TypeFault, fname: str, i: int, tree: Tree | Token, value: ir.Expr
    ) -> TypeFault:
        """The fault `e` inside rule function `fname`, put on its argument `i` at the call."""
        where = f"argument {i + 1} of '{fname}'"
        if e.code == "D011":  # the argument may be none, and the function uses it as a value
            message = f"{where}: '{Lazy(tree)}' may be none ({describe(type_of(value))}), and "
            message += f"'{fname}' uses it as a value; {guard_hint(Lazy(tree), value)}"
        elif e.expected is not None:
            message = f"{where}: expected {describe(e.expected)}, got {found_words(value)}"
            message += self.guess(value, e.expected)
        else:
            message = f"{where}: {found_words(value)} does not fit ({e.message})"
        return TypeFault(message, tree, value, e.expected, e.code)

    def field(self, tree: Tree, node: ir.Expr, obj: ir.Expr, name: str) -> Type:
        """`obj.name` (field_types.py), read or written: a field `obj` has, and `obj` is
        not none (D011) here."""
        found = field_type(self.env, self.info, tree, node, obj, name)
        self.need_value(tree.children[0], obj, Lazy("'", tree, "'"))
        return found

    # -- statements ---------------------------------------------------------------------------
    def assign(
        self, tree: Tree, target: ir.Target, op: str | None, value: ir.Expr, scope: Scope
    ) -> None:
        """`target = value` must fit the target's type; `+=` and `-=` need numbers."""
        info = self.info
        target_tree, value_tree = tree.children[0], tree.children[-1]
        kind = target.kind
        if kind == "local":
            current = target.key.ty
        elif kind == "temp":
            current = scope.temp_type(target.key)
        elif kind == "var":
            current = info.variables.get(target.key)
        elif kind == "global":
            current = info.global_fields.get(target.key)
        elif kind == "field":
            current = self.field(target_tree, target, target.obj, target.key)  # type: ignore[arg-type]
        else:
            current = self.index(target_tree, ir.Index(target.obj, target.index))  # type: ignore[arg-type]
        current = current or ANY
        text = Lazy(target_tree, f" {op or '='} ", value_tree)
        if op is not None:
            if current != ANY and not is_number(_strip(current)):
                raise TypeFault(
                    f"'{text}': '{op}' needs a number to change, got {describe(current)}",
                    target_tree,
                )
            self.number(value_tree, value, text, f"'{op}'")
            return
        found = type_of(value)
        if kind in ("local", "var"):  # a name holds what it is given
            old = target.key.ty if kind == "local" else info.variables.get(target.key)
            new = found if old is None else ANY if ANY in (old, found) else join(old, found) or ANY
            if kind == "local":
                target.key.ty = new
            else:
                info.variables[target.key] = new
            return
        if isinstance(current, Pile | Area | Bag):
            raise TypeFault(
                f"'{text}': {describe(current)} cannot be replaced; change its contents",
                target_tree,
            )
        self.want(value_tree, value, current, f"'{text}'")


def _comparable(a: Type, b: Type) -> bool:
    if ANY in (a, b) or NONE in (a, b):
        return True
    if is_number(a) and is_number(b):
        return True
    if isinstance(a, OneOf) or isinstance(b, OneOf):
        a_members = a.members if isinstance(a, OneOf) else (a,)
        b_members = b.members if isinstance(b, OneOf) else (b,)
        return any(_comparable(x, y) for x in a_members for y in b_members)
    if TEXT in (a, b):  # an id is a text; a text may name one
        return isinstance(a, Id) or isinstance(b, Id) or a == b
    return join(a, b) is not None
