"""The words of the static leak check's findings (check/taint.py): one L005 diagnostic at the
place a hidden value reaches, naming where it was read, what it is written into and who reads
it there."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.check.verdicts import diagnostic_on
from interpreter.diagnostics.errors import Diagnostic
from interpreter.dsl.resolve import ir
from interpreter.ruleset.nodes import Pos, TreePath

__all__ = ["Finding", "Label", "Taint", "Where", "describe_name", "findings_to_diagnostics"]

# ("global" | "player" | "area", field, seat key or None, the seat as the text writes it)
Label = tuple[str, str, Hashable, str]
# (text path, origin, line, column) of a read: origin the inlined text's path, None for the
# text at the path itself
Where = tuple[TreePath, ir.Origin, int, int]
Taint = dict[Label, Where]

Position = Callable[[Sequence[Any], int, int], tuple] | None
# a path into the composed rules spelt as an overlay writes it (compose/paths.py named_path)
Spelling = Callable[[Sequence[Any]], list[Any]]


@dataclass
class Finding:
    """A sink reached by hidden values: its kind (see _SINKS), where it is, the value written
    there, what that carries (label -> where read), and the sink's own words (seat, field)."""

    kind: str
    where: Where
    node: ir.Expr | None
    taint: Taint
    extra: dict[str, Any] = field(default_factory=dict)


# kind -> (what the value is written into, the fix)
_SINKS = {
    "public": (
        "a public log line here",
        "name it in an own text only (log: {text: ..., own: ...}), or put it where every "
        "seat sees it in the same move",
    ),
    "option-logged": (
        "the text of this option, which the log shows every seat when it is taken (the "
        "option has no log: and its effect may write no line)",
        "give the option a log: whose public text does not name it, with an own text that does",
    ),
    "own": (
        "the own text that {seat} reads here",
        "name in an own text only what its reader may see",
    ),
    "option-text": (
        "the text of this option, which {seat} reads when deciding",
        "offer the deciding seat only what it may see",
    ),
    "field": (
        "the public field '{field}' here",
        "hide the field as well (hidden: true), or compute it from what every seat sees",
    ),
}
_CONDITIONS = {
    "offered": (
        "which options {seat} is offered here depends on {source}",
        "offer the deciding seat only what it may see",
    ),
    "asked": (
        "whether {seat} is asked here depends on {source}, tested by its who: or a flow "
        "step around this decision",
        "test around a decision only what every seat sees",
    ),
    "only-if": (
        "{what} happens only when a condition that reads {source} holds, and every seat sees "
        "whether it does",
        "test only what every seat sees around it, or make the hidden value public first",
    ),
}


def describe_name(node: Any) -> str:
    """A short name for a value as the rule text writes it (a name, a seat), or 'a value'."""
    if isinstance(node, ir.FlowVar):
        return node.key
    if isinstance(node, ir.Temp):
        return node.key.split("#")[0]
    if isinstance(node, ir.Local):
        return node.slot.py.strip("_").rsplit("_", 1)[0]
    if isinstance(node, ir.BuiltinCall) and node.name == "player" and len(node.args) == 1:
        return f"player({describe_name(node.args[0])})"
    if isinstance(node, ir.Const) and isinstance(node.value, int):
        return f"player({node.value})"
    if isinstance(node, ir.Field):
        return f"{describe_name(node.obj)}.{node.name}"
    if isinstance(node, ir.Global):
        return node.name
    return "a value"


def _label_words(label: Label) -> str:
    kind, name, _seat, seat = label
    if kind == "global":
        return f"'{name}' (hidden from every seat)"
    if kind == "area":
        return f"what {seat}'s pieces grant ('{name}', in a hidden area)"
    return f"{seat}.{name} (hidden from the other seats)"


def findings_to_diagnostics(
    findings: Sequence[Finding] | None, position: Position, spell: Spelling | None = None
) -> list[Diagnostic]:
    """One diagnostic per place (the first finding there), in the order found."""
    out: list[Diagnostic] = []
    seen: set[tuple[Any, ...]] = set()
    for f in findings or ():
        file, line, column = _place(f.where, position)
        key = (file, line, column)
        if key in seen:
            continue
        seen.add(key)
        label, read = next(iter(f.taint.items()))
        rfile, rline, rcolumn = _place(read, position)
        at = ":".join(str(x) for x in (rfile, rline, rcolumn) if x is not None)
        source = f"{_label_words(label)}, read at {at}"
        name = describe_name(f.extra.get("seat"))
        seat = f"seat {name}" if name != "a value" else "the seat its who: names"
        if f.kind in _CONDITIONS:
            words, fix = _CONDITIONS[f.kind]
            message = words.format(source=source, seat=seat, what=f.extra.get("what", ""))
        else:
            into, fix = _SINKS[f.kind]
            into = into.format(seat=seat, field=f.extra.get("field", ""))
            if isinstance(f.node, ir.FlowVar | ir.Temp | ir.Local):
                what = f"'{describe_name(f.node)}' comes from {source},"
            elif isinstance(f.node, ir.Global | ir.Field):
                what = f"{source},"  # the hidden field itself
            else:
                what = f"this value is computed from {source},"
            message = f"{what} and is written into {into}"
        path = (spell or list)(list(f.where[1] or f.where[0]))
        out.append(diagnostic_on(Pos(file, line, column), path, "L005", message, hint=fix))
    return out


def _place(where: Where, position: Position) -> tuple[Any, Any, Any]:
    path, origin, line, column = where
    if position is None:
        return None, line, column
    return position(origin if origin is not None else path, line, column)
