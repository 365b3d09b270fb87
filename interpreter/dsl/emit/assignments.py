"""How generator.py writes an assignment: to a local, a temp, a flow variable, a global, an entry
of a table or bag, or a field of a seat or a piece, with the range a declared field keeps
checked where its new value may leave it."""

from __future__ import annotations

from interpreter.dsl.emit.code_parts import checked_write, proved_type, reachable
from interpreter.dsl.emit.code_writer import Writer
from interpreter.dsl.emit.journal import journal_line
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.types import Piece

__all__ = ["assign_lines"]


def assign_lines(gen: Writer, st: ir.Assign) -> list[str]:
    """The lines that write the assignment `st` (its value already known to `gen`'s reads);
    in a journal build, then the line that notes the write (dsl/emit/journal.py)."""
    lines, noted, before = _write_lines(gen, st)
    if gen.journal and noted is not None:
        if before is None:
            lines.append(journal_line(*noted))
        else:
            # the entry as it was: a write that leaves the very object it held (a counter set
            # to the value it had) changed nothing, and is not noted
            at, entry = before
            lines.insert(at, f"_was = {entry}")
            lines.append(journal_line(*noted, unless=f"{entry} is _was"))
    return lines


# the lines of a write, the (container, key) a journal build notes (None: no field of the state
# is written), and where among the lines the entry written may be read before the write, with
# the expression that reads it (None: not read, noted whatever it wrote)
Write = tuple[list[str], tuple[str, str] | None, tuple[int, str] | None]


def _write_lines(gen: Writer, st: ir.Assign) -> Write:
    """The lines of `st`'s write (see ``Write``)."""
    target, op, value = st.target, st.op, gen.x(st.value)
    assign = "=" if op is None else op
    kind = target.kind
    if kind == "local":
        return [f"{target.key.py} {assign} {value}"], None, None
    if kind == "temp":
        return [f"t[{target.key!r}] {assign} {value}"], None, None
    if kind == "var":
        key = target.key
        if op is None:
            return [f"V[{key!r}] = {value}"], None, None
        return [f"V[{key!r}] = V.get({key!r}, 0) {op[0]} ({value})"], None, None
    if kind == "global":
        key = target.key
        limits = reachable(gen.env.ranges.get(("global", key)), op, st.value)
        noted, before = ("-1", repr(key)), (0, f"g[{key!r}]")
        if limits is None:
            return [f"g[{key!r}] {assign} {value}"], noted, before
        return checked_write("g", repr(key), op, value, limits), noted, before
    assert target.obj is not None  # (a field's seat or piece, an index's container)
    obj = gen.x(target.obj)
    if kind == "index":
        index = target.index
        assert index is not None  # (an index's key)
        if not _is_bag(gen, target.obj) or reachable((0, None), op, st.value) is None:
            if not gen.journal:
                return [f"{obj}[{gen.x(index)}] {assign} {value}"], None, None
            out = [f"_w = {obj}", f"_i = {gen.x(index)}", f"_w[_i] {assign} {value}"]
            # (a bag's entry read by get: it may be new; a list has no get)
            return out, ("_w", "_i"), (2, "_w.get(_i)") if _is_bag(gen, target.obj) else None
        # a bag's count per id: never below 0
        out = [f"_w = {obj}", f"_i = {gen.x(index)}"]
        checked = checked_write("_w", "_i", op, value, (0, None))
        return out + checked, ("_w", "_i"), (2, "_w.get(_i)")
    name = target.key
    limits = reachable(gen.env.ranges.get(("player", name)), op, st.value)
    if limits is None:
        if target.only_player:
            if not gen.journal:
                return [f"P[{obj}][{name!r}] {assign} {value}"], None, None
            out = [f"_j = {obj}", f"P[_j][{name!r}] {assign} {value}"]
            return out, ("_j", repr(name)), (1, f"P[_j][{name!r}]")
        if type(proved_type(target.obj)) is Piece and not gen.checked:
            # _set_field of a piece, written out: what pieces grant may have changed
            out = [f"_w = {obj}", "if s.ab: s.ab.clear()", f"_w[{name!r}] {assign} {value}"]
            return out, ("_w", repr(name)), (1, f"_w.get({name!r})")
        # (a journal build's _set_field notes its own write)
        return [f"_set_field(s, {obj}, {name!r}, {value}, {op!r})"], None, None
    if target.only_player:
        if not gen.journal:
            checked = checked_write("_w", repr(name), op, value, limits)
            return [f"_w = P[{obj}]", *checked], None, None
        out = [f"_j = {obj}", "_w = P[_j]", *checked_write("_w", repr(name), op, value, limits)]
        return out, ("_j", repr(name)), (2, f"_w[{name!r}]")
    lo, hi = limits
    return (
        [f"_set_field_in_range(s, {obj}, {name!r}, {value}, {op!r}, {lo!r}, {hi!r})"],
        None,
        None,
    )


def _is_bag(gen: Writer, node: ir.Expr) -> bool:
    """Whether `node` reads a bag field (a count per id) of the state."""
    env = gen.env
    if isinstance(node, ir.Global):
        return env.global_fields.get(node.name) == "bag"
    if isinstance(node, ir.Field):
        return env.player_fields.get(node.name) == "bag" and node.name not in env.piece_fields
    return False
