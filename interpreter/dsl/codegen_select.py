"""An option line's condition written as the loop that picks the legal values of its one `for`
part (engine/options.py lists a line's options from them).

A listing asks a line's `if` once per value of its collection: twenty-odd calls of the
condition's function for one decision, each binding the value into the temps and reading it
back. Written as one function of the state and the collection, the test runs in a loop of its
own with the value as a local: the same test, asked of the same values in the same order
(the value is still bound as a temp for what reads it there), with the parts that read no
`for` name computed once a listing (hoist.py), as Generator.listing_condition does.
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
