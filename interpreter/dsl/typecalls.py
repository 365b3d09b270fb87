"""The type of every resolved expression (Typer.infer, called by resolve.py for each node it
makes) and the signatures of the builtins: what each argument must be and what it gives.

The rules for operators, fields and indexes are in typecheck.py; this module dispatches to them
and adds the calls."""

from __future__ import annotations

from typing import Any

from lark import Tree

from interpreter.dsl import ir
from interpreter.dsl.parser import DslSyntaxError
from interpreter.dsl.scope import Scope
from interpreter.dsl.typecheck import Lazy, TypeFault, TypeRules, found_words, type_of
from interpreter.dsl.types import (
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
    Optional,
    Piece,
    Pile,
    Table,
    Type,
    describe,
    is_number,
    item_of,
    join,
)

__all__ = ["Typer"]


def _args(tree: Tree) -> list[Any]:
    rest = tree.children[1:]
    if rest and isinstance(rest[0], Tree) and rest[0].data == "args":
        return list(rest[0].children)
    return list(rest)


def _strip(t: Type) -> Type:
    return t.inner if isinstance(t, Optional) else t


class Typer(TypeRules):
    """TypeRules plus the dispatch over node kinds and the builtin calls."""

    def infer(self, tree: Tree, node: ir.Expr, scope: Scope) -> Type:
        kind = tree.data
        if kind in ("number", "true", "false", "none"):
            return {"number": COUNT, "none": NONE}.get(kind, BOOL)
        if kind == "string" or isinstance(node, ir.Template):
            return TEXT
        method = _NODES.get(type(node))
        return method(self, tree, node, scope) if method else ANY

    def _const(self, tree: Tree, node: ir.Const, scope: Scope) -> Type:
        if tree.data == "name":
            return self.constant(str(tree.children[0]), node.value)
        if tree.data == "attr":
            base, name = tree.children
            if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "option":
                return self.info.options.get(str(name), ANY)
            cat = self.info.catalog_of.get(str(node.value)) if isinstance(node.value, str) else None
            base_value = getattr(base, "children", [None])[0]
            cat = self.info.catalog_of.get(str(base_value), "")
            return self.info.attributes.get(cat, {}).get(str(name)) or self.value(node.value)
        return self.value(node.value)

    def _local(self, tree: Tree, node: ir.Local, scope: Scope) -> Type:
        return node.slot.ty or ANY

    def _temp(self, tree: Tree, node: ir.Temp, scope: Scope) -> Type:
        return scope.temp_type(node.key) or ANY

    def _var(self, tree: Tree, node: ir.FlowVar, scope: Scope) -> Type:
        return self.info.variables.get(node.key) or ANY

    def _global(self, tree: Tree, node: ir.Global, scope: Scope) -> Type:
        return self.info.global_fields.get(node.name, ANY)

    def _round(self, tree: Tree, node: ir.Round, scope: Scope) -> Type:
        return COUNT

    def _field(self, tree: Tree, node: Any, scope: Scope) -> Type:
        return self.field(tree, node, node.obj, node.name)

    def _list(self, tree: Tree, node: ir.ListOf, scope: Scope) -> Type:
        item: Type | None = type_of(node.items[0]) if node.items else ANY
        for x in node.items[1:]:
            item = join(item, type_of(x)) if item is not None else None
        return ListOf(item or ANY)

    def _index(self, tree: Tree, node: ir.Index, scope: Scope) -> Type:
        return self.index(tree, node)

    def _unary(self, tree: Tree, node: ir.Unary, scope: Scope) -> Type:
        if node.op == "not":
            return BOOL
        self.number(tree, node.operand, Lazy(tree), "'-'")
        return NUMBER

    def _bool_op(self, tree: Tree, node: ir.BoolOp, scope: Scope) -> Type:
        out: Type | None = type_of(node.operands[0])
        for x in node.operands[1:]:
            out = join(out, type_of(x)) if out is not None else None
        return out or ANY

    def _cond(self, tree: Tree, node: ir.Cond, scope: Scope) -> Type:
        self.condition(tree.children[1], node.test)
        return join(type_of(node.then), type_of(node.other)) or ANY

    def _binary(self, tree: Tree, node: ir.Binary, scope: Scope) -> Type:
        if tree.data == "compare":
            return self.compare(tree, node.left, node.op, node.right, tree)
        # a chain a + b - c: the tree is flat, the nodes nest to the left
        chain = [node]
        while len(chain) < len(tree.children) // 2:
            chain.append(chain[-1].left)  # type: ignore[arg-type]
        chain.reverse()
        ty = ANY
        for link in chain:
            ty = self.arith(tree, link.left, link.op, link.right, tree)
            link.ty = ty
        return ty

    def _inline(self, tree: Tree, node: ir.Inline, scope: Scope) -> Type:
        return type_of(node.body)

    # -- builtins -------------------------------------------------------------------------------
    def _builtin(self, tree: Tree, node: ir.BuiltinCall, scope: Scope) -> Type:
        name = node.name
        args, trees = node.args, _args(tree)
        ts = [_strip(type_of(a)) for a in args]
        text = Lazy(tree)
        if name in ("len", "total", "keys"):
            t = ts[0]
            ok = item_of(t) is not None if name == "len" else isinstance(t, Bag | Table)
            if not ok and t not in (ANY, NONE):
                raise TypeFault(f"'{text}': {name}() of {found_words(args[0])}", trees[0], args[0])
            if name == "keys":
                return ListOf(Id(t.universe) if isinstance(t, Bag) else getattr(t, "key", ANY))
            return COUNT if name == "len" else NUMBER
        if name in ("abs", "player", "seats-from", "random", "range"):
            self.number(trees[0], args[0], text, f"{name}()")
            out = {"player": SEAT, "seats-from": ListOf(SEAT), "range": ListOf(COUNT)}
            return out.get(name, COUNT)
        container, ct = args[0], ts[0]
        if name in ("draw", "push"):
            self._holder(name, trees[0], container, (Pile,))
            item = Id(ct.universe) if isinstance(ct, Pile) else ANY
            if name == "push":
                self.want(trees[1], args[1], item, f"argument 2 of 'push' onto {describe(ct)}")
                return NONE
            return item
        if name in ("shuffle", "clear"):
            self._holder(
                name, trees[0], container, (Pile, Area) + ((Bag,) if name == "clear" else ())
            )
            return NONE
        if name == "remove":
            self._holder(name, trees[0], container, (Pile, Area))
            item = item_of(ct) if isinstance(ct, Pile | Area) else ANY
            self.want(trees[1], args[1], item or ANY, f"argument 2 of 'remove' from {describe(ct)}")
            return NONE
        if name in ("has", "find"):
            self._holder(name, trees[0], container, (Area,))
            cat = ct.catalog if isinstance(ct, Area) else ""
            self.want(trees[1], args[1], Id(cat) if cat else ANY, f"argument 2 of '{name}'")
            return BOOL if name == "has" else Piece(cat)
        if name == "place":
            area, at = args[1], ts[1]
            self._holder(name, trees[1], area, (Area,), 2)
            if isinstance(at, Area):
                self.want(trees[0], container, Id(at.catalog), "argument 1 of 'place'")
                return Piece(at.catalog)
            if isinstance(ct, Id) and ct.universe in self.info.attributes:
                return Piece(ct.universe)
            if ct not in (ANY, TEXT):
                got = found_words(container)
                message = f"argument 1 of 'place': expected an id of a catalog, got {got}"
                raise TypeFault(message, trees[0], container)
            return Piece("")
        return ANY  # pragma: no cover - every builtin is above

    def _holder(self, name: str, tree: Any, node: ir.Expr, kinds: tuple, n: int = 1) -> None:
        t = _strip(type_of(node))
        if t in (ANY, NONE) or isinstance(t, kinds):
            return
        words = " or ".join({Pile: "a pile", Area: "an area", Bag: "a bag"}[k] for k in kinds)
        raise TypeFault(
            f"argument {n} of '{name}': expected {words}, got {found_words(node)}", tree, node
        )

    def _reduce(self, tree: Tree, node: Any, scope: Scope) -> Type:
        kind, trees = node.kind, _args(tree)
        text = Lazy(tree)
        if isinstance(node, ir.ReduceEach):
            items = [(trees[0].children[0], node.element)]
            item = _strip(type_of(node.element))
        elif kind in ("min", "max") and len(node.args) > 1:
            items = list(zip(trees, node.args, strict=True))
            item = NUMBER
        else:
            t = _strip(type_of(node.args[0]))
            found = item_of(t)
            if found is None and t != NONE:
                raise TypeFault(
                    f"'{text}': {kind}() of {found_words(node.args[0])}", trees[0], node.args[0]
                )
            items, item = [], _strip(found or ANY)
        if kind in ("sum", "min", "max"):
            for at, x in items:
                self.number(at, x, text, f"{kind}()")
            if item not in (ANY, NUMBER, COUNT, SEAT) and not is_number(item):
                raise TypeFault(f"'{text}': {kind}() of {describe(ListOf(item))}", trees[0], node)
            return COUNT if item == COUNT else NUMBER
        if kind == "count":
            return COUNT
        if kind in ("any", "all"):
            return BOOL
        if kind == "first":
            return item
        return ListOf(item)  # list, distinct


def blame(resolver: Any, e: TypeFault, fn: Any, args: list, values: list) -> TypeFault | None:
    """A type fault in an inlined rule function is the call site's when one argument alone
    causes it: the body checks with any value in its place, and with a value of the type the
    fault expected (else the body uses the parameter two ways: the body's fault, None)."""
    for i, value in enumerate(values):
        if type_of(value) == ANY or not _fits(resolver, fn, values, i, ANY):
            continue
        if e.expected is None or _fits(resolver, fn, values, i, e.expected):
            return resolver.tc.blame_argument(e, fn.name, i, args[i], value)
        break
    return None


def _fits(resolver: Any, fn: Any, values: list, i: int, ty: Type) -> bool:
    stand_in = ir.Local(ir.Slot(fn.params[i], ty))
    stand_in.ty = ty
    try:
        resolver._expand(fn, [*values[:i], stand_in, *values[i + 1 :]])
    except DslSyntaxError:
        return False
    return True


_NODES = {
    ir.Const: Typer._const,
    ir.Local: Typer._local,
    ir.Temp: Typer._temp,
    ir.FlowVar: Typer._var,
    ir.Global: Typer._global,
    ir.Round: Typer._round,
    ir.Field: Typer._field,
    ir.Static: Typer._field,
    ir.Ability: Typer._field,
    ir.ListOf: Typer._list,
    ir.Index: Typer._index,
    ir.Unary: Typer._unary,
    ir.BoolOp: Typer._bool_op,
    ir.Cond: Typer._cond,
    ir.Binary: Typer._binary,
    ir.BuiltinCall: Typer._builtin,
    ir.Reduce: Typer._reduce,
    ir.ReduceEach: Typer._reduce,
    ir.Inline: Typer._inline,
}
