"""Conflicts between overlays: two operations on one entry that cannot both apply (O008)."""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.compose.operations import Op, Reporter
from interpreter.load.locate import slash_path
from interpreter.load.schema import to_plain

__all__ = ["find_conflicts", "is_prefix"]


def is_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return len(a) <= len(b) and b[: len(a)] == a


def find_conflicts(report: Reporter, ops: Sequence[Op]) -> set[int]:
    """Report conflicting pairs; returns the ids of the later ops, which are skipped."""
    skipped: set[int] = set()
    paths = [tuple(op.segments) for op in ops]
    for j, later in enumerate(ops):
        for i in range(j):
            earlier = ops[i]
            if id(earlier) in skipped:
                continue
            a, b = paths[i], paths[j]
            if not (is_prefix(a, b) or is_prefix(b, a)):
                continue
            why = _conflict(earlier, a, later, b)
            if why is None:
                continue
            report.error(
                "O008",
                f"conflicting overlays: {later.kind} '{later.text}' ({later.where()}) and "
                f"{earlier.kind} '{earlier.text}' ({earlier.where()}) {why}",
                later.pos,
                later.pointer,
                "one entry may be changed by one overlay; combine the changes or "
                "make one overlay extend the other's result",
            )
            skipped.add(id(later))
            break
    return skipped


def _conflict(a: Op, pa: tuple[str, ...], b: Op, pb: tuple[str, ...]) -> str | None:
    """Why two operations on related paths cannot both apply, or None when they can."""
    if a.kind in ("replace", "remove") or b.kind in ("replace", "remove"):
        return "change the same entry"
    if a.kind == "add" and b.kind == "add":
        if pa == pb and pa[-1] == "-":
            return None  # two appends to one list: each brings its own item
        return "both add it"
    if a.kind == "patch" and b.kind == "patch":
        for la, va in a.leaves:
            full_a = pa + la
            for lb, vb in b.leaves:
                full_b = pb + lb
                same = full_a == full_b and to_plain(va) == to_plain(vb)
                if not same and (is_prefix(full_a, full_b) or is_prefix(full_b, full_a)):
                    shorter = full_a if len(full_a) <= len(full_b) else full_b
                    return f"both set '{slash_path(shorter)}' to different values"
        return None
    # add and patch: fine when the patch refines what an add brought (or the other way
    # round), a conflict when the patch sets a value at or above the added entry.
    add_path = pa if a.kind == "add" else pb
    patch_op, patch_path = (b, pb) if a.kind == "add" else (a, pa)
    for leaf, _ in patch_op.leaves:
        if is_prefix(patch_path + leaf, add_path):
            return f"the patch sets '{slash_path(patch_path + leaf)}', where the add puts an entry"
    return None
