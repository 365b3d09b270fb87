"""An option line's condition in the forms a listing asks it in (engine/options.py lists a
decision's options with them): the loop that picks the legal values of a line's one `for` part,
and the test of one candidate with what reads no `for` name computed once a listing.

A listing asks a line's `if` once per value of its collection: twenty-odd calls of the
condition's function for one decision, each binding the value into the temps and reading it
back. Written as one function of the state and the collection, the test runs in a loop of its
own with the value as a local: the same test, asked of the same values in the same order
(the value is still bound as a temp for what reads it there), with the parts that read no
`for` name computed once a listing (hoist.py), as listing_condition below does. In the loop
those parts are kept in locals, and `has(area, x)` of an area the listing reads once asks a
set of the area's piece types, made when a candidate first asks it: one lookup in place of a
walk over the area per candidate.
"""

from __future__ import annotations

import ast

from interpreter.dsl.emit.code_parts import proved_type
from interpreter.dsl.emit.code_writer import Memo, Writer
from interpreter.dsl.emit.emitter import Select, define, function_source, readable, rule_filename
from interpreter.dsl.emit.hoist import _children, invariant_parts, reads_none
from interpreter.dsl.emit.layout import prologue, reads_temp
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.types import Id
from interpreter.dsl.runtime.runtime_state import Fn


def _set_asks(node: ir.Expr, keys: frozenset[str]) -> list[ir.Expr]:
    """The `has(area, x)` calls in `node` whose area is the same for a whole listing and
    whose `x` is an id that is not (an id the type pass proved: a text, or none)."""
    found: list[ir.Expr] = []

    def walk(n: ir.Expr) -> None:
        if isinstance(n, ir.BuiltinCall) and n.name == "has" and len(n.args) == 2:
            area, kind = n.args
            if reads_none(area, keys) and not reads_none(kind, keys):
                if type(proved_type(kind)) is Id:
                    found.append(n)
        for child in _children(n):
            walk(child)

    walk(node)
    return found


def listing_select(gen: Writer, node: ir.Expr, label: str, key: str) -> Select | None:
    """The function ``select(s, values)`` that returns the values of `values` for which the
    condition `node` holds with the `for` name of temp slot `key` bound to each; None where
    the generator `gen` writes no plain code (a coverage build, checked reads, a deferred
    text)."""
    if gen.deferred or gen.checked or gen.probes is not None:
        return None
    keys = frozenset({key})
    parts = invariant_parts(node, keys)
    sets = _set_asks(node, keys)
    name = f"legal_values_{next(gen.names)}_{readable(label, 30)}".rstrip("_")
    src = _select_source(gen, node, keys, Memo(parts, True, sets), name)
    if src is None:  # a part in a lambda or a comprehension's source: kept in a list
        src = _select_source(gen, node, keys, Memo(parts, False, []), name)
    assert src is not None
    return define(src, name, gen.ns, rule_filename(label))


def _select_source(
    gen: Writer, node: ir.Expr, keys: frozenset[str], memo: Memo, name: str
) -> str | None:
    """The source of the select function `name` of `node` with its once-a-listing parts kept as
    `memo` says; None where a local cannot keep one (a part written in a lambda, whose
    assignment would bind the lambda's own local, or in a comprehension's source)."""
    gen._memo = memo if memo or memo.sets else None
    gen._loops += 1  # read once a candidate: each temp it reads is read into a local
    try:
        lines = gen._with_flow_reads(lambda: [f"return {gen.x(node)}"])
    finally:
        gen._memo = None
        gen._loops -= 1
    *reads, last = lines
    test = last.removeprefix("return ")
    if memo.local and not _locals_keep(test):
        return None
    # the value's own reads take the loop's local; what a listing reads once is read first
    own = [f"{ln.partition(' = ')[0]} = _x" for ln in reads if reads_temp(ln, keys)]
    body = [ln for ln in reads if not reads_temp(ln, keys)]
    if memo.local:
        kept = [f"_m{i}" for i in range(len(memo))] + [f"_h{i}" for i in range(len(memo.sets))]
        if kept:
            body.append(" = ".join(kept) + " = _U")
    elif memo:
        body.append(f"_m = [_U] * {len(memo)}")
    # the value is the loop's own variable: the local the test reads it in, where it has one
    x = own[0].partition(" = ")[0] if len(own) == 1 else "_x"
    own = [ln for ln in own if not ln.startswith(f"{x} = ")]
    body += ["_o = []", f"for {x} in _xs:"]
    if "t[" in test or "t.get(" in test:  # the test reads its temps in place (it writes one)
        body.append(f"    t[{next(iter(keys))!r}] = {x}")
    body += ["    " + ln for ln in own] + [f"    if {test}: _o.append({x})", "return _o"]
    return function_source(name, "s, _xs", prologue(body) + body)


def _locals_keep(test: str) -> bool:
    """Whether each `:=` in the expression `test` binds the function's own local: none is in
    a lambda, nor in the source of a comprehension (where Python refuses it)."""
    try:
        tree = ast.parse(test, mode="eval")
    except SyntaxError:
        return False
    for n in ast.walk(tree):
        inside = n if isinstance(n, ast.Lambda) else getattr(n, "iter", None)
        if isinstance(n, ast.Lambda | ast.comprehension) and inside is not None:
            if any(isinstance(x, ast.NamedExpr) for x in ast.walk(inside)):
                return False
    return True


def listing_condition(
    gen: Writer, node: ir.Expr, label: str, loop_keys: frozenset[str]
) -> Fn | None:
    """An option line's condition `node` for one listing of its options: a function of
    the state that returns the test to ask of each candidate, in which each part that
    reads no `for` name (hoist.py) is computed at most once, when a candidate first needs
    it. None when there is no such part, or the text is not written plainly (a coverage
    build, checked reads, a deferred text)."""
    if gen.deferred or gen.checked or gen.probes is not None:
        return None
    parts = invariant_parts(node, loop_keys)
    if not parts:
        return None
    gen._memo = Memo(parts, False, [])
    try:
        lines = gen._with_flow_reads(lambda: [f"return {gen.x(node)}"])
    finally:
        gen._memo = None
    # what a listing reads once (flow variables, temps other than the `for` names) is
    # read by the outer function; the candidate's own temps by the test
    inner = [ln for ln in lines if reads_temp(ln, loop_keys) or ln.startswith("return ")]
    outer = [ln for ln in lines if ln not in inner]
    body = [*outer, f"_m = [_U] * {len(parts)}", "def cond(s):"]
    body += ["    " + ln for ln in inner] + ["return cond"]
    return gen._build(body, label)
