"""The type of every resolved expression (`infer`, called by resolver.py for each node it
makes, with its TypeChecker) and the signatures of the builtins: what each argument must be and
what it gives.

The rules for operators, fields and indexes are the TypeChecker's (type_checker.py); this
module dispatches to them by the kind of node and adds the calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from lark import Token, Tree

from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.parse.unparse import Lazy
from interpreter.dsl.resolve import ir, types as T
from interpreter.dsl.resolve.scope import Callable_, Scope
from interpreter.dsl.resolve.type_checker import TypeChecker
from interpreter.dsl.resolve.type_faults import TypeFault, found_words, type_of

__all__ = ["Inliner", "blame", "infer", "note_emit"]


class _Rooted(Protocol):
    @property
    def root(self) -> Scope: ...  # the resolver's root scope, which numbers its locals


class Inliner(Protocol):
    """What :func:`blame` uses of the resolver's calls (calls.py's ``Calls``, which imports
    this module): its checker, its resolver's root scope, and the inlining of a rule function's
    body with the given argument values."""

    @property
    def tc(self) -> TypeChecker: ...

    @property
    def walk(self) -> _Rooted: ...

    def expand(self, fn: Callable_, values: list[ir.Expr]) -> ir.Expr | ir.InlineProc: ...


def _args(tree: Tree) -> list[Any]:
    rest = tree.children[1:]
    if rest and isinstance(rest[0], Tree) and rest[0].data == "args":
        return list(rest[0].children)
    return list(rest)


def _strip(t: T.Type) -> T.Type:
    return t.inner if isinstance(t, T.Optional) else t


def infer(tc: TypeChecker, tree: Tree, node: ir.Expr, scope: Scope) -> T.Type:
    kind = tree.data
    if kind in ("number", "true", "false", "none"):
        return {"number": T.COUNT, "none": T.NONE}.get(kind, T.BOOL)
    if kind == "string" or isinstance(node, ir.Template):
        return T.TEXT
    method = _NODES.get(type(node))
    ty = method(tc, tree, node, scope) if method else T.ANY
    return tc.guards.narrow(node, ty)


def _const(tc: TypeChecker, tree: Tree, node: ir.Const, scope: Scope) -> T.Type:
    if tree.data == "name":
        return tc.constant(str(tree.children[0]), node.value)
    if tree.data == "attr":
        base, name = tree.children
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "option":
            tc.info.options_read.add(str(name))
            return tc.info.options.get(str(name), T.ANY)
        cat = tc.info.catalog_of.get(str(node.value)) if isinstance(node.value, str) else None
        base_value = getattr(base, "children", [None])[0]
        cat = tc.info.catalog_of.get(str(base_value), "")
        tc.info.reads.add((cat, str(name)))
        return tc.info.attributes.get(cat, {}).get(str(name)) or tc.value(node.value)
    return tc.value(node.value)


def _local(tc: TypeChecker, tree: Tree, node: ir.Local, scope: Scope) -> T.Type:
    return node.slot.ty or T.ANY


def _temp(tc: TypeChecker, tree: Tree, node: ir.Temp, scope: Scope) -> T.Type:
    return scope.temp_type(node.key) or T.ANY


def _var(tc: TypeChecker, tree: Tree, node: ir.FlowVar, scope: Scope) -> T.Type:
    return tc.info.variables.get(node.key) or T.ANY


def _global(tc: TypeChecker, tree: Tree, node: ir.Global, scope: Scope) -> T.Type:
    return tc.info.global_fields.get(node.name, T.ANY)


def _round(tc: TypeChecker, tree: Tree, node: ir.Round, scope: Scope) -> T.Type:
    return T.COUNT


def _field(
    tc: TypeChecker, tree: Tree, node: ir.Field | ir.Static | ir.Ability, scope: Scope
) -> T.Type:
    return tc.field(tree, node, node.obj, node.name)


def _list(tc: TypeChecker, tree: Tree, node: ir.ListOf, scope: Scope) -> T.Type:
    item: T.Type | None = type_of(node.items[0]) if node.items else T.ANY
    for x in node.items[1:]:
        item = T.join(item, type_of(x)) if item is not None else None
    return T.ListOf(item or T.ANY)


def _index(tc: TypeChecker, tree: Tree, node: ir.Index, scope: Scope) -> T.Type:
    return tc.index(tree, node)


def _unary(tc: TypeChecker, tree: Tree, node: ir.Unary, scope: Scope) -> T.Type:
    if node.op == "not":
        return T.BOOL
    tc.number(tree, node.operand, Lazy(tree), "'-'")
    return T.NUMBER


def _bool_op(tc: TypeChecker, tree: Tree, node: ir.BoolOp, scope: Scope) -> T.Type:
    kinds = [_strip(type_of(x)) for x in node.operands]
    numbers = any(T.is_number(k) and k != T.SEAT for k in kinds)
    if node.op == "and" or T.BOOL in kinds or numbers:
        # a yes/no test; only `a or b` of other values picks the first that is there
        for operand_tree, operand in zip(tree.children, node.operands, strict=False):
            tc.condition(operand_tree, operand, f"each side of '{node.op}'")
    out: T.Type | None = type_of(node.operands[0])
    for x in node.operands[1:]:
        out = T.join(out, type_of(x)) if out is not None else None
    return out or T.ANY


def _cond(tc: TypeChecker, tree: Tree, node: ir.Cond, scope: Scope) -> T.Type:
    tc.condition(tree.children[1], node.test)
    joined = T.join(_strip(type_of(node.then)), _strip(type_of(node.other)))
    if joined is None:
        found = f"{found_words(node.then)} or {found_words(node.other)}"
        raise TypeFault(f"'{Lazy(tree)}': gives {found}, two kinds of value", tree, node.other)
    return T.join(type_of(node.then), type_of(node.other)) or T.ANY


def _binary(tc: TypeChecker, tree: Tree, node: ir.Binary, scope: Scope) -> T.Type:
    if tree.data == "compare":
        return tc.compare(tree, node.left, node.op, node.right, tree)
    # a chain a + b - c: the tree is flat, the nodes nest to the left
    chain = [node]
    while len(chain) < len(tree.children) // 2:
        chain.append(chain[-1].left)  # type: ignore[arg-type]
    chain.reverse()
    ty: T.Type = T.ANY
    for i, link in enumerate(chain):
        if i == 0:
            tc.need_value(tree.children[0], link.left, Lazy("'", tree, "'"))
        tc.need_value(tree.children[2 * i + 2], link.right, Lazy("'", tree, "'"))
        ty = tc.arith(tree, link.left, link.op, link.right, tree)
        link.ty = ty
    return ty


def _inline(tc: TypeChecker, tree: Tree, node: ir.Inline, scope: Scope) -> T.Type:
    return type_of(node.body)


def note_emit(tc: TypeChecker, event: str, trees: list[Any], values: list[ir.Expr]) -> None:
    """An event's first value is the seat whose pieces hear it; remember what an `emit`
    passes, so that the event's hooks know their values' types."""
    if not tc.on:
        return
    seat_number = values and isinstance(values[0], ir.Const) and type(values[0].value) is int
    what = f"argument 1 of event '{event}' (the seat)"
    if seat_number:  # a seat's number written out: one every game has
        tc.seat_number(trees[0], cast(ir.Const, values[0]), what)
    elif values:
        tc.want(trees[0], values[0], T.SEAT, what)
    seen = tc.info.events.get(event)
    found = [type_of(v) for v in values]
    if seen is None:
        tc.info.events[event] = found
        return
    for i, (old, new) in enumerate(zip(seen, found, strict=True)):
        joined = T.ANY if T.ANY in (old, new) else T.join(old, new)
        if joined is None:  # this site passes another kind of value than those before
            raise TypeFault(
                f"value {i + 1} of event '{event}': expected {T.describe(old)} (as other "
                f"'emit {event}' sites pass), got {found_words(values[i])}"
                + tc.guess(values[i], old),
                trees[i],
                values[i],
                old,
            )
        seen[i] = joined


# -- builtins -------------------------------------------------------------------------------
def _builtin(tc: TypeChecker, tree: Tree, node: ir.BuiltinCall, scope: Scope) -> T.Type:
    name = node.name
    args, trees = node.args, _args(tree)
    ts = [_strip(type_of(a)) for a in args]
    text = Lazy(tree)
    if name in ("len", "total", "keys"):
        t = ts[0]
        ok = T.item_of(t) is not None if name == "len" else isinstance(t, T.Bag | T.Table)
        if not ok and t not in (T.ANY, T.NONE):
            raise TypeFault(f"'{text}': {name}() of {found_words(args[0])}", trees[0], args[0])
        if name == "keys":
            return T.ListOf(T.Id(t.universe) if isinstance(t, T.Bag) else getattr(t, "key", T.ANY))
        return T.COUNT if name == "len" else T.NUMBER
    if name in ("abs", "player", "seats-from", "seat-after", "random", "range"):
        for tree, arg in zip(trees, args, strict=True):
            tc.number(tree, arg, text, f"{name}()")
        out = {"player": T.SEAT, "seat-after": T.SEAT, "seats-from": T.ListOf(T.SEAT)}
        out["range"] = T.ListOf(T.COUNT)
        return out.get(name, T.COUNT)
    container, ct = args[0], ts[0]
    if name in ("draw", "push"):
        _holder(tc, name, trees[0], container, (T.Pile,))
        item: T.Type = T.Id(ct.universe) if isinstance(ct, T.Pile) else T.ANY
        if name == "push":
            tc.want(trees[1], args[1], item, f"argument 2 of 'push' onto {T.describe(ct)}")
            return T.NONE
        return item
    if name in ("shuffle", "clear"):
        _holder(
            tc, name, trees[0], container, (T.Pile, T.Area) + ((T.Bag,) if name == "clear" else ())
        )
        return T.NONE
    if name == "remove":
        _holder(tc, name, trees[0], container, (T.Pile, T.Area))
        item = (T.item_of(ct) if isinstance(ct, T.Pile | T.Area) else None) or T.ANY
        tc.want(trees[1], args[1], item, f"argument 2 of 'remove' from {T.describe(ct)}")
        return T.NONE
    if name in ("has", "find"):
        _holder(tc, name, trees[0], container, (T.Area,))
        cat = ct.catalog if isinstance(ct, T.Area) else ""
        tc.want(trees[1], args[1], T.Id(cat) if cat else T.ANY, f"argument 2 of '{name}'")
        return T.BOOL if name == "has" else T.Piece(cat)
    if name == "place":
        area, at = args[1], ts[1]
        _holder(tc, name, trees[1], area, (T.Area,), 2)
        if isinstance(at, T.Area):
            tc.want(trees[0], container, T.Id(at.catalog), "argument 1 of 'place'")
            return T.Piece(at.catalog)
        if isinstance(ct, T.Id) and ct.universe in tc.info.attributes:
            return T.Piece(ct.universe)
        if ct not in (T.ANY, T.TEXT):
            got = found_words(container)
            message = f"argument 1 of 'place': expected an id of a catalog, got {got}"
            raise TypeFault(message, trees[0], container)
        return T.Piece("")
    return T.ANY  # pragma: no cover - every builtin is above


def _holder(
    tc: TypeChecker, name: str, tree: Tree | Token, node: ir.Expr, kinds: tuple, n: int = 1
) -> None:
    t = _strip(type_of(node))
    if t in (T.ANY, T.NONE) or isinstance(t, kinds):
        return
    words = " or ".join({T.Pile: "a pile", T.Area: "an area", T.Bag: "a bag"}[k] for k in kinds)
    raise TypeFault(
        f"argument {n} of '{name}': expected {words}, got {found_words(node)}", tree, node
    )


def _reduce(tc: TypeChecker, tree: Tree, node: ir.Reduce | ir.ReduceEach, scope: Scope) -> T.Type:
    kind, trees = node.kind, _args(tree)
    text = Lazy(tree)
    if isinstance(node, ir.ReduceEach):
        items = [(trees[0].children[0], node.element)]
        item = _strip(type_of(node.element))
    elif kind in ("min", "max") and len(node.args) > 1:
        items = list(zip(trees, node.args, strict=True))
        item = T.NUMBER
    else:
        t = _strip(type_of(node.args[0]))
        found = T.item_of(t)
        if found is None and t != T.NONE:
            raise TypeFault(
                f"'{text}': {kind}() of {found_words(node.args[0])}", trees[0], node.args[0]
            )
        items, item = [], _strip(found or T.ANY)
    if kind in ("sum", "min", "max"):
        for at, x in items:
            tc.number(at, x, text, f"{kind}()")
        if item not in (T.ANY, T.NUMBER, T.COUNT, T.SEAT) and not T.is_number(item):
            raise TypeFault(f"'{text}': {kind}() of {T.describe(T.ListOf(item))}", trees[0], node)
        return T.COUNT if item == T.COUNT else T.NUMBER
    if kind == "count":
        return T.COUNT
    if kind in ("any", "all"):
        # each item is a truth: `all(a + b for ...)` (an `==` mistyped) would be true for
        # any non-zero sum, and `any(pile)` hides what was meant (`len(pile) > 0`)
        for at, x in items:
            tc.condition(at, x, f"each item of {kind}()")
        if item not in (T.ANY, T.BOOL):
            raise TypeFault(
                f"'{text}': each item of {kind}() must be true or false, "
                f"got {T.describe(T.ListOf(item))}",
                trees[0],
                node,
            )
        return T.BOOL
    if kind == "first":  # the first match, or none when nothing matches
        return item if item == T.NONE else T.Optional(item)
    return T.ListOf(item)  # list, distinct


def blame(
    calls: Inliner,
    e: TypeFault,
    fn: Callable_,
    args: list[Tree | Token],
    values: list[ir.Expr],
) -> TypeFault | None:
    """A type fault in an inlined rule function is the call site's when one argument alone
    causes it: the body checks with any value in its place, and with a value of the type the
    fault expected (else the body uses the parameter two ways: the body's fault, None).
    `calls`: the resolver's calls (calls.py), which inline the body again to try each."""
    for i, value in enumerate(values):
        if type_of(value) == T.ANY or not _fits(calls, fn, values, i, T.ANY):
            continue
        if e.expected is None or _fits(calls, fn, values, i, e.expected):
            return calls.tc.blame_argument(e, fn.name, i, args[i], value)
        break
    return None


def _fits(calls: Inliner, fn: Callable_, values: list[ir.Expr], i: int, ty: T.Type) -> bool:
    stand_in = ir.Local(ir.Slot(fn.params[i], next(calls.walk.root.numbers), ty))
    stand_in.ty = ty
    try:
        calls.expand(fn, [*values[:i], stand_in, *values[i + 1 :]])
    except DslSyntaxError:
        return False
    return True


_NODES: dict[type, Callable[[TypeChecker, Any, Any, Any], T.Type]] = {
    ir.Const: _const,
    ir.Local: _local,
    ir.Temp: _temp,
    ir.FlowVar: _var,
    ir.Global: _global,
    ir.Round: _round,
    ir.Field: _field,
    ir.Static: _field,
    ir.Ability: _field,
    ir.ListOf: _list,
    ir.Index: _index,
    ir.Unary: _unary,
    ir.BoolOp: _bool_op,
    ir.Cond: _cond,
    ir.Binary: _binary,
    ir.BuiltinCall: _builtin,
    ir.Reduce: _reduce,
    ir.ReduceEach: _reduce,
    ir.Inline: _inline,
}
