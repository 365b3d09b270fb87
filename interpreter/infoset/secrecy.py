"""Which resolved rule texts can read what some seat may not see.

A decision whose one legal option the engine takes itself tells every seat that nothing else
was legal (engine/machine.py). When what is legal depends on a hidden field (a hand), that is
a leak, so the engine asks such a decision instead. This module decides, at load time, which
decisions those are: a static over-approximation over the resolved effect language (ir.py).

An expression *reads a secret* when it reads

* a field declared ``hidden: true|all`` (a global one, or a seat's: hidden from the others),
  except a hidden pile's size (``len`` of a pile hidden as ``true``: every seat is shown it);
* what the active pieces of a seat grant, when a seat's area holding pieces is hidden;
* the game's generator (``random``, ``draw``, ``shuffle``: what comes next is nobody's to see);
* a flow variable, a local or a bound name whose value may come from a secret.

Flow variables are not in any seat's view, so their values are followed: a variable is secret
when any text assigns it (or changes its contents) from a secret, or under a condition, a loop
or an option that reads one (the flows of control inside a text, the flow's own `if`,
`repeat` and `each-player while` steps around it, and the option whose effect it is). The
names an engine binds for a hook (`self`, `owner`, the event's values) count as secret: their
sources are not followed. A public field is what its declaration says: shown to every seat, so
reading it reveals nothing, whatever it was computed from.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from interpreter.dsl.emit.hoist import _children as expr_children
from interpreter.dsl.resolve import ir

__all__ = ["Secrets", "name_of"]

# builtins whose value comes from the generator: nobody may know it beforehand
_DRAWS = frozenset({"random", "draw", "shuffle"})
# builtins that change the contents of a value they are given
_CHANGES = frozenset({"draw", "push", "shuffle", "clear", "remove", "place"})

Name = tuple[str, str] | ir.Slot  # ("var", key), ("temp", key) or a let, loop or parameter slot


class Secrets:
    """Collects where each flow variable, local and bound name gets its values from, as the
    texts are compiled (:meth:`expression`, :meth:`statements`, :meth:`bind`), then answers
    :meth:`reads_secret` once every text is known (:meth:`settle`)."""

    def __init__(self) -> None:
        # name -> the expressions its value may depend on (its values, their conditions)
        self.sources: dict[Name, list[Sequence[ir.Expr]]] = {}
        self.secret: set[Name] = set()
        self.hidden_global: frozenset[str] = frozenset()
        self.hidden_player: frozenset[str] = frozenset()
        # hidden piles whose size every seat is shown: ("global" or "player", name)
        self.counted: frozenset[tuple[str, str]] = frozenset()
        self.hidden_areas = False
        self._memo: dict[int, bool] = {}

    # -- collecting ---------------------------------------------------------------------
    def bind(self, key: str, sources: Sequence[ir.Expr]) -> None:
        """A bound name (an option's `for` name, s.t key `key`) takes its values from
        `sources` (its collection)."""
        self._add(("temp", key), sources)

    def expression(self, node: ir.Expr, context: Sequence[ir.Expr] = ()) -> None:
        """Note the names `node` binds (a reduction's, an inlined function's) and the contents
        it changes; `context`: the conditions it runs under."""
        self._expr(node, tuple(context))

    def statements(self, stmts: Iterable[ir.Stmt], context: Sequence[ir.Expr] = ()) -> None:
        """Note what each statement assigns, from what, under which conditions."""
        for stmt in stmts:
            self._stmt(stmt, tuple(context))

    def _add(self, name: Name, sources: Sequence[ir.Expr]) -> None:
        self.sources.setdefault(name, []).append(tuple(sources))

    def _stmt(self, stmt: ir.Stmt, ctx: tuple[ir.Expr, ...]) -> None:
        # a name bound here (let, for, a procedure's values) is read only where it is bound:
        # the conditions around it are not among its sources, an assignment's are
        if isinstance(stmt, ir.Let):
            self._expr(stmt.value, ctx)
            self._add(stmt.slot, (stmt.value,))
        elif isinstance(stmt, ir.Assign):
            self._expr(stmt.value, ctx)
            self._assign(stmt.target, (stmt.value, *ctx))
        elif isinstance(stmt, ir.If):
            tests: tuple[ir.Expr, ...] = ()
            for test, body in stmt.branches:
                self._expr(test, ctx + tests)
                tests += (test,)
                self.statements(body, ctx + tests)
            if stmt.otherwise:
                self.statements(stmt.otherwise, ctx + tests)
        elif isinstance(stmt, ir.For):
            self._expr(stmt.iterable, ctx)
            self._add(stmt.slot, (stmt.iterable,))
            self.statements(stmt.body, (*ctx, stmt.iterable))
        elif isinstance(stmt, ir.InlineProc):
            for slot, value in stmt.bound:
                self._expr(value, ctx)
                self._add(slot, (value,))
            self.statements(stmt.body, ctx)
        elif isinstance(stmt, ir.Emit):
            for arg in stmt.args:
                self._expr(arg, ctx)
        elif isinstance(stmt, ir.Log):
            self._expr(stmt.text, ctx)
            for part in (stmt.seat, stmt.own):
                if part is not None:
                    self._expr(part, ctx)
        elif isinstance(stmt, ir.Do):
            self._expr(stmt.call, ctx)

    def _assign(self, target: ir.Target, sources: tuple[ir.Expr, ...]) -> None:
        kind = target.kind
        if kind in ("local", "temp", "var"):
            name = target.key if kind == "local" else (kind, target.key)
            self._add(name, sources)
        elif kind == "index" and target.obj is not None:
            # a flow variable's (a local's) table changed at one key: the key counts too
            root = _root_name(target.obj)
            if root is not None:
                extra = (target.index,) if target.index is not None else ()
                self._add(root, (*sources, *extra))
        # fields and globals are what their declarations say (shown or hidden): not followed

    def _expr(self, node: Any, ctx: tuple[ir.Expr, ...]) -> None:
        if isinstance(node, ir.ReduceEach):
            self._add(node.slot, (node.iterable,))
        elif isinstance(node, ir.Inline):
            for slot, value in node.bound:
                self._add(slot, (value,))
        elif isinstance(node, ir.BuiltinCall) and node.name in _CHANGES:
            for arg in node.args:
                root = _root_name(arg)
                if root is not None:  # its contents now depend on every value given
                    self._add(root, (node, *node.args, *ctx))
        for child in expr_children(node):
            self._expr(child, ctx)

    # -- deciding -----------------------------------------------------------------------
    def settle(
        self,
        hidden_global: Iterable[str],
        hidden_player: Iterable[str],
        counted: Iterable[tuple[str, str]],
        hidden_areas: bool,
    ) -> None:
        """With every text noted and the ruleset's hidden fields known, mark each name whose
        value may come from a secret (repeated until nothing changes: a chain of assignments
        carries a secret along). `counted`: the hidden piles whose size every seat is shown,
        ("global" or "player", name); `hidden_areas`: whether a seat's area of pieces is
        hidden (what pieces grant then reads it)."""
        self.hidden_global = frozenset(hidden_global)
        self.hidden_player = frozenset(hidden_player)
        self.counted = frozenset(counted)
        self.hidden_areas = hidden_areas
        self.secret = set()
        changed = True
        while changed:
            changed = False
            self._memo = {}
            for name, bundles in self.sources.items():
                if name in self.secret:
                    continue
                if any(self.reads_secret(x) for bundle in bundles for x in bundle):
                    self.secret.add(name)
                    self._memo = {}  # an answer "no" may have read this name
                    changed = True

    def reads_secret(self, node: ir.Expr | None) -> bool:
        """Whether `node` may read what some seat cannot see (see the module's docstring)."""
        if node is None:
            return False
        found = self._memo.get(id(node))
        if found is None:
            found = self._memo[id(node)] = self._reads(node)
        return found

    def _reads(self, node: ir.Expr) -> bool:
        if isinstance(node, ir.Global):
            return node.name in self.hidden_global
        if isinstance(node, ir.Field):
            if node.holder != "piece" and node.name in self.hidden_player:
                return True
            return self.reads_secret(node.obj)
        if isinstance(node, ir.FlowVar):
            return ("var", node.key) in self.secret
        if isinstance(node, ir.Temp):
            name = ("temp", node.key)
            # a name the engine binds for a hook: its sources are not followed
            return name in self.secret or name not in self.sources
        if isinstance(node, ir.Local):
            return node.slot in self.secret
        if isinstance(node, ir.Ability):
            return self.hidden_areas or self.reads_secret(node.obj)
        if isinstance(node, ir.BuiltinCall):
            if node.name in _DRAWS:
                return True
            if node.name == "len" and len(node.args) == 1 and self._size_shown(node.args[0]):
                arg = node.args[0]
                return self.reads_secret(arg.obj) if isinstance(arg, ir.Field) else False
        return any(self.reads_secret(child) for child in expr_children(node))

    def _size_shown(self, node: ir.Expr) -> bool:
        """A hidden pile whose size every seat is shown (its length reveals nothing)."""
        if isinstance(node, ir.Global):
            return ("global", node.name) in self.counted
        return (
            isinstance(node, ir.Field)
            and node.holder != "piece"
            and ("player", node.name) in self.counted
        )


def _root_name(node: object) -> Name | None:
    """The flow variable, local or bound name a value is read from (through indexing)."""
    while isinstance(node, ir.Index):
        node = node.obj
    return name_of(node)


def name_of(node: object) -> Name | None:
    """The name a read reads (a flow variable, an engine-bound name, a local), or None."""
    if isinstance(node, ir.FlowVar):
        return ("var", node.key)
    if isinstance(node, ir.Temp):
        return ("temp", node.key)
    if isinstance(node, ir.Local):
        return node.slot
    return None
