"""The options of one decision, enumerated by a function written for its `choose` step.

A decision is listed once per visit (several times a turn), and a general loop over its
option lines pays on every visit for what never changes: which line has how many `for`
parts, whether it has a condition, whether its id is a fixed text. So the first time a step
is met, this module writes one Python function for it with that known: nested loops of the
right depth, no test where there is no condition, a fixed id as a literal. The rule texts
(domains, conditions, ids) stay the functions they were compiled to, so a rule that fails
still points at its own text. The result is what a plain loop over the lines gives, in the
same order (a `for` over ids going through them in the order they are declared, idorder.py):
id -> (spec, option line, the values its `for` parts bound).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.dsl.emit.emitter import Emitted, Expression, define, function_source, readable
from interpreter.dsl.runtime.runtime_state import RunningState
from interpreter.dsl.runtime.support import show
from interpreter.model.flow import ChooseSpec, OptionSpec

Enumerator = Callable[[RunningState], dict[str, tuple]]


class _Entries(dict):
    """An option line's entries by `for` value, for a line whose values are texts: a value
    met for the first time has its entry made (by ``make``) and kept."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], tuple]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, x: Any) -> tuple:
        e = self.make(x)
        if x.__class__ is str:  # a text is kept; another value (never, by its type) is not
            self[x] = e
        return e


def _prefix(opt: OptionSpec) -> str:
    """The text every id of the line begins with ("" when it may begin with anything)."""
    if opt.template.fixed:
        fixed = opt.template.constant
        return fixed if type(fixed) is str else ""
    parts = opt.template.parts
    return parts[0] if parts and type(parts[0]) is str else ""


def _apart(opt: OptionSpec, before: list[OptionSpec]) -> bool:
    """Whether no id of line `opt` can be the id of a line `before` it: each line's ids begin
    with a text that neither begins the other's (`place:` and `pass`)."""
    mine = _prefix(opt)
    if not mine:
        return False
    for other in before:
        theirs = _prefix(other)
        if not theirs or mine.startswith(theirs) or theirs.startswith(mine):
            return False
    return True


def _in_order(i: int, d: int, opt: OptionSpec, ns: dict[str, Any], values: str) -> str:
    """The expression of `for` part `d`'s `values` in the order their ids are declared, where
    the part goes through ids in an order of the state's (dsl/emit/idorder.py)."""
    order = opt.domains[d].id_order
    if order is None:
        return values
    ns[f"order_{i}_{d}"] = order.__getitem__
    return f"sorted({values}, key=order_{i}_{d})"


def _by_lookup(i: int, ns: dict[str, Any], make_id: str, values: str, first: bool) -> list[str]:
    """The line that lists a line of one `for` part over texts by looking each of its legal
    `values` (an expression) up for its entry (made once a value, kept): the loop runs in C.
    Its options start the listing, or are added to it (no id of theirs can be an earlier
    line's), and a value repeated has its one entry, so it keeps its first place."""
    name = f"entry_of_line_{i}"
    src = function_source(name, f"x{i}_0", [f"return ({make_id}, (decision, line_{i}, (x{i}_0,)))"])
    ns[f"entry_{i}"] = _Entries(define(src, name, ns, "<option entry>")).__getitem__
    if first:
        return [f"out = dict(map(entry_{i}, {values}))"]
    return [f"out.update(map(entry_{i}, {values}))"]


def _option_lines(
    i: int, opt: OptionSpec, ns: dict[str, Any], before: list[OptionSpec]
) -> list[str]:
    """The source that adds option line `i`'s options to `out` (indented for the body);
    `before`: the lines listed before it."""
    ns[f"line_{i}"] = opt
    parts = opt.template.parts
    depth = len(opt.slots)
    make_id = _id_source(i, opt, ns, parts, depth)
    # a condition of a line of one `for` part, as the loop that picks the legal values
    select = opt.condition.select if opt.condition is not None and depth == 1 else None
    values = ""
    if select is not None:
        ns[f"legal_{i}"], ns[f"values_{i}_0"] = select, opt.domains[0].fn
        values = _in_order(i, 0, opt, ns, f"legal_{i}(s, values_{i}_0(s))")
    elif depth == 1 and opt.condition is None:
        # `distinct(...)` left out: a repeated value gives the entry it gave first
        ns[f"values_{i}_0"] = opt.domains[0].with_repeats or opt.domains[0].fn
        values = _in_order(i, 0, opt, ns, f"values_{i}_0(s)")
    texts = depth == 1 and opt.domains[0].text_values  # ids: dsl/compiler.py
    if texts and parts and (select or opt.condition is None):
        if not before or _apart(opt, before):
            return _by_lookup(i, ns, make_id, values, not before)
    add = _add_lines(i, ns, make_id, depth, bool(parts))
    if select is not None:
        ns[f"slot_{i}_0"] = opt.slots[0]
        bind = [] if parts else [f"    t[slot_{i}_0] = x{i}_0"]  # for the id's own call
        return [f"for x{i}_0 in {values}:", *bind, *("    " + ln for ln in add)]
    return _loop_lines(i, opt, ns, add, depth, bool(parts))


def _id_source(
    i: int, opt: OptionSpec, ns: dict[str, Any], parts: tuple[str | int, ...] | None, depth: int
) -> str:
    """The expression that makes an option's id: a constant, the text's parts joined with the
    `for` names, or a call of the id's template."""
    fixed = opt.template.constant
    if opt.template.fixed and type(fixed) is str:
        return repr(fixed)
    if parts and depth:
        # text and `for` names only ("place:{t}"): the id is written here, no call for it
        ns["_show"] = show
        names = [f"x{i}_{p}" if type(p) is int else "" for p in parts]
        return " + ".join(
            repr(p) if type(p) is str else f"({x} if {x}.__class__ is str else _show({x}))"
            for p, x in zip(parts, names, strict=True)
        )
    ns[f"id_of_{i}"] = opt.template.fn
    return f"id_of_{i}(s)"


def _add_lines(i: int, ns: dict[str, Any], make_id: str, depth: int, parts: bool) -> list[str]:
    """The lines that add one option (its `for` values bound) to `out`."""
    bound = "".join(f"x{i}_{d}, " for d in range(depth))
    if not (depth == 1 and parts):
        return [
            f"oid = {make_id}",
            f"if oid not in out: out[oid] = (decision, line_{i}, ({bound}))",
        ]
    # an option of one `for` value that is a text or a number: its id and entry are made
    # once per value and kept (the entries are tuples, shared between listings and states)
    ns[f"entries_{i}"] = {}
    x = f"x{i}_0"
    return [
        f"e = entries_{i}.get({x}) if {x}.__class__ is str or {x}.__class__ is int else None",
        "if e is None:",
        f"    e = ({make_id}, (decision, line_{i}, ({bound})))",
        f"    if {x}.__class__ is str or {x}.__class__ is int: entries_{i}[{x}] = e",
        "if e[0] not in out: out[e[0]] = e[1]",
    ]


def _loop_lines(
    i: int, opt: OptionSpec, ns: dict[str, Any], add: list[str], depth: int, parts: bool
) -> list[str]:
    """The general listing: a loop per `for` part, the line's condition, then ``add``."""
    lines: list[str] = []
    if opt.condition is not None:
        per_listing = opt.condition.per_listing
        if per_listing is not None and depth:
            # the parts of the test that read no `for` name, computed once a listing
            ns[f"test_maker_{i}"] = per_listing
            lines.append(f"test_{i} = test_maker_{i}(s)")
        else:
            ns[f"test_{i}"] = opt.condition.fn
        add = [f"if test_{i}(s):", *("    " + ln for ln in add)]
    for d in range(depth):
        ns[f"values_{i}_{d}"] = opt.domains[d].fn
        ns[f"slot_{i}_{d}"] = opt.slots[d]
        pad = "    " * d
        lines.append(f"{pad}for x{i}_{d} in {_in_order(i, d, opt, ns, f'values_{i}_{d}(s)')}:")
        if depth > 1 or opt.condition is not None or not parts:
            # bound for what reads it: a condition, an inner domain, an id written by a call
            lines.append(f"{pad}    t[slot_{i}_{d}] = x{i}_{d}")
    inner = "    " * depth
    lines += [inner + ln for ln in add]
    # an outer binding is set again once the loops inside it are done (as the general loop
    # does) before its own next value
    for d in range(depth - 2, -1, -1):
        lines.append("    " * (d + 1) + f"t[slot_{i}_{d}] = x{i}_{d}")
    return lines


# the names a listing of one expression reads (option_listing's `expression`)
_LONE_NAMES = ("entry_0", "legal_0", "values_0_0", "order_0_0")


def option_listing(spec: ChooseSpec) -> Emitted:
    """The function that lists every option of `spec` for a state, in the ruleset's order;
    with its `expression` where the whole listing is one expression (engine/blocks.py writes
    it in place of the call)."""
    ns: dict[str, Any] = {"decision": spec}
    body: list[str] = []
    for i, opt in enumerate(spec.options):
        body += _option_lines(i, opt, ns, spec.options[:i])
    if not body or not body[0].startswith("out = "):
        body.insert(0, "out = {}")
    if any("t[" in ln for ln in body):
        body.insert(0, "t = s.t")
    body.append("return out")
    label = spec.label or "a decision"
    name = f"options_of_{readable(label) or 'a_decision'}"
    at = f" at {spec.where}" if spec.where else ""  # the `choose` step in its rule file
    filename = f"<options of {label[:60]!r}{at}>"
    fn = define(function_source(name, "s", body), name, ns, filename)
    expression = None
    if len(body) == 2 and body[0].startswith("out = dict(map(entry_0, "):
        names = {k: ns[k] for k in _LONE_NAMES if k in ns}
        expression = Expression(body[0].removeprefix("out = "), names)
    return Emitted(fn, label, expression=expression)


def option_enumerator(spec: ChooseSpec) -> Enumerator:
    """The function that lists every option of `spec` for a state, in the ruleset's order."""
    return option_listing(spec).fn
