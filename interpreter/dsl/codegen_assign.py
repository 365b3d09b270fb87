"""How codegen.py writes an assignment: to a local, a temp, a flow variable, a global, an entry
of a table or bag, or a field of a seat or a piece, with the range a declared field keeps
checked where its new value may leave it."""

from __future__ import annotations

from typing import Any

from interpreter.dsl import ir
from interpreter.dsl.codegen_parts import checked_write, proved_type, reachable
from interpreter.dsl.journal import journal_line
from interpreter.dsl.types import Piece

__all__ = ["assign_lines"]


def assign_lines(gen: Any, st: ir.Assign) -> list[str]:
    """The lines that write the assignment `st` (its value already known to `gen`'s reads);
    in a journal build, then the line that notes the write (dsl/journal.py)."""
    lines, noted = _write_lines(gen, st)
    if gen.journal and noted is not None:
        lines.append(journal_line(*noted))
    return lines


def _write_lines(gen: Any, st: ir.Assign) -> tuple[list[str], tuple[str, str] | None]:
    """The lines of `st`'s write, and the (container, key) a journal build notes (None: no
    field of the state is written)."""
    target, op, value = st.target, st.op, gen.x(st.value)
    assign = "=" if op is None else op
    kind = target.kind
    if kind == "local":
        return [f"{target.key.py} {assign} {value}"], None
    if kind == "temp":
        return [f"t[{target.key!r}] {assign} {value}"], None
    if kind == "var":
        key = target.key
        if op is None:
            return [f"V[{key!r}] = {value}"], None
        return [f"V[{key!r}] = V.get({key!r}, 0) {op[0]} ({value})"], None
    if kind == "global":
        key = target.key
        limits = reachable(gen.env.ranges.get(("global", key)), op, st.value)
        if limits is None:
            return [f"g[{key!r}] {assign} {value}"], ("-1", repr(key))
        return checked_write("g", repr(key), op, value, limits), ("-1", repr(key))
    obj = gen.x(target.obj)
    if kind == "index":
        if not _is_bag(gen, target.obj) or reachable((0, None), op, st.value) is None:
            if not gen.journal:
                return [f"{obj}[{gen.x(target.index)}] {assign} {value}"], None
            out = [f"_w = {obj}", f"_i = {gen.x(target.index)}", f"_w[_i] {assign} {value}"]
            return out, ("_w", "_i")
        # a bag's count per id: never below 0
        out = [f"_w = {obj}", f"_i = {gen.x(target.index)}"]
        return out + checked_write("_w", "_i", op, value, (0, None)), ("_w", "_i")
    name = target.key
    limits = reachable(gen.env.ranges.get(("player", name)), op, st.value)
    if limits is None:
        if target.only_player:
            if not gen.journal:
                return [f"P[{obj}][{name!r}] {assign} {value}"], None
            return [f"_j = {obj}", f"P[_j][{name!r}] {assign} {value}"], ("_j", repr(name))
        if type(proved_type(target.obj)) is Piece and not gen.checked:
            # _set_field of a piece, written out: what pieces grant may have changed
            out = [f"_w = {obj}", "if s.ab: s.ab.clear()", f"_w[{name!r}] {assign} {value}"]
            return out, ("_w", repr(name))
        # (a journal build's _set_field notes its own write)
        return [f"_set_field(s, {obj}, {name!r}, {value}, {op!r})"], None
    if target.only_player:
        if not gen.journal:
            return [f"_w = P[{obj}]", *checked_write("_w", repr(name), op, value, limits)], None
        out = [f"_j = {obj}", "_w = P[_j]", *checked_write("_w", repr(name), op, value, limits)]
        return out, ("_j", repr(name))
    lo, hi = limits
    return [f"_set_field_in_range(s, {obj}, {name!r}, {value}, {op!r}, {lo!r}, {hi!r})"], None


def _is_bag(gen: Any, node: ir.Expr) -> bool:
    """Whether `node` reads a bag field (a count per id) of the state."""
    env = gen.env
    if isinstance(node, ir.Global):
        return env.global_fields.get(node.name) == "bag"
    if isinstance(node, ir.Field):
        return env.player_fields.get(node.name) == "bag" and node.name not in env.piece_fields
    return False
