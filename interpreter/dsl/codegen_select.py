"""An option line's condition in the forms a listing asks it in (engine/options.py lists a
decision's options with them): the loop that picks the legal values of a line's one `for` part,
and the test of one candidate with what reads no `for` name computed once a listing.

A listing asks a line's `if` once per value of its collection: twenty-odd calls of the
condition's function for one decision, each binding the value into the temps and reading it
back. Written as one function of the state and the collection, the test runs in a loop of its
own with the value as a local: the same test, asked of the same values in the same order
(the value is still bound as a temp for what reads it there), with the parts that read no
`for` name computed once a listing (hoist.py), as listing_condition below does.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from typing import Any

from interpreter.dsl import ir
from interpreter.dsl.codegen_layout import prologue, reads_temp
from interpreter.dsl.hoist import invariant_parts

Select = Callable[[Any, Any], list]

_ids = itertools.count()


def listing_select(gen: Any, node: ir.Expr, label: str, key: str) -> Select | None:
    """The function ``select(s, values)`` that returns the values of `values` for which the
    condition `node` holds with the `for` name of temp slot `key` bound to each; None where
    the generator `gen` writes no plain code (a coverage build, checked reads, a deferred
    text)."""
    if gen.deferred or gen.checked or gen.probes is not None:
        return None
    keys = frozenset({key})
    parts = invariant_parts(node, keys)
    gen._memo = {id(part): i for i, part in enumerate(parts)} if parts else None
    gen._loops += 1  # read once a candidate: each temp it reads is read into a local
    try:
        lines = gen._with_flow_reads(lambda: [f"return {gen.x(node)}"])
    finally:
        gen._memo = None
        gen._loops -= 1
    *reads, last = lines
    test = last.removeprefix("return ")
    # the value's own reads take the loop's local; what a listing reads once is read first
    own = [f"{ln.partition(' = ')[0]} = _x" for ln in reads if reads_temp(ln, keys)]
    body = [ln for ln in reads if not reads_temp(ln, keys)]
    if parts:
        body.append(f"_m = [_U] * {len(parts)}")
    body += ["_o = []", "for _x in _xs:"]
    if "t[" in test or "t.get(" in test:  # the test reads its temps in place (it writes one)
        body.append(f"    t[{key!r}] = _x")
    body += ["    " + ln for ln in own] + [f"    if {test}: _o.append(_x)", "return _o"]
    name = f"_select{next(_ids)}"
    src = f"def {name}(s, _xs):\n" + "".join(f"    {ln}\n" for ln in prologue(body) + body)
    try:
        with warnings.catch_warnings():  # as Generator._build: a branch never taken
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile(src, f"<rule: {label[:60]!r}>", "exec")
    except SyntaxError as e:  # a generator bug, never a rule author's fault
        raise RuntimeError(f"generated code does not compile: {e}\n{src}") from None
    exec(code, gen.ns)  # noqa: S102 - our own generated source, built from the parse tree
    return gen.ns[name]


def listing_condition(gen: Any, node: ir.Expr, label: str, loop_keys: frozenset[str]) -> Any:
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
    gen._memo = {id(part): i for i, part in enumerate(parts)}
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
