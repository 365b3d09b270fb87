"""None-safety (D011): a value whose type says it may be `none` (an attribute some entries set
to none, a flow variable that starts as none, an event value some `emit` passes as none, a
`first(...)` that finds nothing) is refused where a value is needed (arithmetic, an ordering
comparison, an argument that needs a value, a field or an index of it) unless a test on the
way there has ruled none out:

    x != none and x > 2          x == none or x > 2
    if x != none: ... x + 1      x + 1 if x != none else 0      if x: ... x + 1
    sum(x.n for x in xs if x != none)

A guard names a value by what it reads (a local, a flow variable, a field of one, an entry of a
table ...), so `b.phase != none and b.phase ...` guards the second read of the same thing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from interpreter.dsl.parse.unparse import Lazy
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.type_faults import TypeFault, type_of
from interpreter.dsl.resolve.types import Optional, Type, describe, is_number

__all__ = ["NoneGuards", "guard_hint", "guard_key", "known_not_none"]

Key = tuple[Any, ...]


def guard_key(node: ir.Expr) -> Key | None:
    """What `node` reads, as a key two reads of the same thing share; None: not a plain read
    (a computed value cannot be guarded in place: give it a name with `let`)."""
    if isinstance(node, ir.Local):
        return ("local", id(node.slot))
    if isinstance(node, ir.Temp | ir.FlowVar):
        return ("name", node.key)
    if isinstance(node, ir.Global):
        return ("global", node.name)
    if isinstance(node, ir.Const):
        return ("const", repr(node.value))
    if isinstance(node, ir.Field | ir.Static | ir.Ability):
        inner = guard_key(node.obj)
        return None if inner is None else ("field", inner, node.name)
    if isinstance(node, ir.Index):
        obj, key = guard_key(node.obj), guard_key(node.key)
        return None if obj is None or key is None else ("index", obj, key)
    if isinstance(node, ir.BuiltinCall | ir.Reduce):
        keys = [guard_key(a) for a in node.args]
        name = node.name if isinstance(node, ir.BuiltinCall) else node.kind
        return None if None in keys else ("call", name, *keys)
    if isinstance(node, ir.Inline) and not node.bound:
        return guard_key(node.body)
    return None


def _is_none(node: ir.Expr) -> bool:
    return isinstance(node, ir.Const) and node.value is None


def known_not_none(test: ir.Expr, truth: bool = True) -> set[Key]:
    """The values `test` being `truth` shows are not none; and the test itself, as the key
    ``("holds", test, truth)``: what a test on the player count rules out (table_keys.py)."""
    return {*_not_none(test, truth), ("holds", test, truth)}


def _not_none(test: ir.Expr, truth: bool) -> set[Key]:
    if isinstance(test, ir.Unary) and test.op == "not":
        return _not_none(test.operand, not truth)
    if isinstance(test, ir.BoolOp):
        if (test.op == "and") == truth:  # every operand had this truth
            return set().union(*(_not_none(x, truth) for x in test.operands))
        return set()
    if isinstance(test, ir.Binary) and test.op in ("==", "!=", "is", "is not"):
        if truth != (test.op in ("!=", "is not")):
            return set()
        for side, other in ((test.left, test.right), (test.right, test.left)):
            key = guard_key(side)
            if _is_none(other) and key is not None:
                return {key}
        return set()
    key = guard_key(test)
    if truth and key is not None and isinstance(type_of(test), Optional):
        return {key}  # `if x:` holds for no `none`
    return set()


class NoneGuards:
    """The values a surrounding test has shown are not none, and the D011 check."""

    def __init__(self) -> None:
        self._safe: Counter[Key] = Counter()

    def assume(self, keys: Iterable[Key]) -> AbstractContextManager[None]:
        """While in it, the values `keys` name are known not to be none."""
        keys = list(keys)
        return self._assuming(keys) if keys else nullcontext()

    @contextmanager
    def _assuming(self, keys: list[Key]) -> Iterator[None]:
        self._safe.update(keys)
        try:
            yield
        finally:
            self._safe.subtract(keys)
            for key in keys:  # a test's key holds its node: not kept past its arm
                if self._safe[key] <= 0:
                    del self._safe[key]

    def holding(self) -> list[tuple[ir.Expr, bool]]:
        """The tests known to hold (`test`, `truth`) where the text being checked is."""
        return [(k[1], k[2]) for k, n in self._safe.items() if n > 0 and k[0] == "holds"]

    def narrow(self, node: ir.Expr, t: Type) -> Type:
        """`t` without its 'or none' where a test has ruled none out for what `node` reads."""
        key = guard_key(node)
        if isinstance(t, Optional) and key is not None and self._safe[key] > 0:
            return t.inner
        return t

    def need_value(self, tree: Any, node: ir.Expr, what: Any) -> None:
        """Raise D011 when `node` may be none here and no test has ruled that out; `what`
        says where it is used ("'a + b'", "argument 2 of 'pay'"; a Lazy, written only for a
        fault)."""
        t = type_of(node)
        if not isinstance(t, Optional) or (isinstance(node, ir.Const) and node.value is not None):
            return
        key = guard_key(node)
        if key is not None and self._safe[key] > 0:
            return
        name = Lazy(tree)
        raise TypeFault(
            f"{what}: '{name}' may be none ({describe(t)}); {guard_hint(name, node)}",
            tree,
            node,
            t.inner,
            "D011",
        )


def guard_hint(name: Any, node: ir.Expr) -> str:
    """How to guard the value `node` (written `name`) that may be none, for a D011 message: in
    place when it is a plain read (a guard can name it), else by its name once it has one."""
    t = type_of(node)
    inner = t.inner if isinstance(t, Optional) else t
    if guard_key(node) is None:  # a computed value (a call, a reducer's generator)
        return (
            f"guard it by a name: 'let x = {name}' then 'if x != none:' (in an 'expr:', "
            "pass it to a rule function whose text tests its parameter)"
        )
    forms = [f"'{name} != none and ...'", f"'if {name} != none:'"]
    if is_number(inner):  # a number may stand in for none
        forms.append(f"'{name} if {name} != none else 0'")
    return f"guard it: {', '.join(forms[:-1])} or {forms[-1]}"
