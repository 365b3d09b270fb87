"""Parts of the code generator (codegen.py) that need no generator: what the type pass proved
a value is, and how a write to a field with a declared range is checked."""

from __future__ import annotations

import re
from typing import Any

from interpreter.dsl import ir
from interpreter.dsl.types import OneOf


def proved_type(node: ir.Expr) -> Any:
    """The type the type pass gave `node` (a local's is its slot's): Id or Piece also for one
    of several catalogs whose members are all ids, or all pieces; None when not known."""
    ty = node.slot.ty if isinstance(node, ir.Local) else getattr(node, "ty", None)
    if type(ty) is OneOf:
        kinds = {type(member) for member in ty.members}
        return ty.members[0] if len(kinds) == 1 else None
    return ty


# a line of generated code that writes a temp (`t[key] = ...`, `t[key] += ...`)
WRITES_TEMP = re.compile(r"\bt\[[^\]]*\] *[-+]?=(?!=)")


def reachable(
    limits: tuple[int | None, int | None] | None, op: str | None, value: ir.Expr
) -> tuple[int | None, int | None] | None:
    """The ends of a range a write can break: adding a constant >= 0 cannot go below the
    least, taking one away cannot go above the greatest (and the other way round for a
    negative constant), a constant within it breaks neither.
    None when the write needs no check (most writes are `+= 1`)."""
    if limits is None or not isinstance(value, ir.Const):
        return limits
    n = value.value
    if type(n) is not int:
        return limits
    lo, hi = limits
    if op is None:
        inside = (lo is None or n >= lo) and (hi is None or n <= hi)
        return None if inside else limits
    if (n >= 0) == (op == "+="):
        lo = None  # moves up: only the greatest can break
    else:
        hi = None
    return None if lo is None and hi is None else (lo, hi)


def checked_write(
    holder: str, key: str, op: str | None, value: str, limits: tuple[int | None, int | None]
) -> list[str]:
    """holder[key] (Python expressions) written, then its new value checked against the range
    (least, greatest): one comparison when only one end can break."""
    new = value if op is None else f"{holder}[{key}] {op[0]} ({value})"
    lo, hi = limits
    if hi is None:
        test = f"_n < {lo}"
    elif lo is None:
        test = f"_n > {hi}"
    else:
        test = f"not {lo} <= _n <= {hi}"
    fault = f"_out_of_range(s, {holder}, {key}, {lo!r}, {hi!r})"
    return [f"_n = {new}", f"{holder}[{key}] = _n", f"if {test}: {fault}"]
