"""Conflicts between overlays: two operations on one entry that cannot both apply (O008).

Only overlays that are independent of each other can conflict: an overlay that extends another
(directly or through a chain of ``extends``) composes after it, on its result, so it may
change what that one set. Two operations of one overlay on related paths still conflict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter.compose.operations import Op, Reporter
from interpreter.load.locate import is_seq, resolve_key, slash_path
from interpreter.load.schema import to_plain

__all__ = ["conflict_hint", "find_conflicts", "is_prefix"]


def is_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return len(a) <= len(b) and b[: len(a)] == a


def find_conflicts(
    report: Reporter,
    ops: Sequence[Op],
    builds_on: Callable[[Op, Op], bool] | None = None,
    root: Any = None,
) -> set[int]:
    """Report conflicting pairs; returns the ids of the later ops, which are skipped.

    ``builds_on(later, earlier)`` says whether the later op's overlay extends the earlier op's
    (its changes then apply to that one's result, so the pair is no conflict). With the base
    tree ``root``, a list item named in a path (``flow/round/choose-roles``) is compared by its
    position there, so a name and a number for one item are one path."""
    skipped: set[int] = set()
    paths = [_by_position(root, op.segments) for op in ops]
    tree = _PathTree()
    for j, later in enumerate(ops):
        b = paths[j]
        for i in tree.related(b):  # earlier ops on a path above, at or below this one's
            earlier = ops[i]
            if id(earlier) in skipped:
                continue
            if builds_on is not None and builds_on(later, earlier):
                continue
            why = _conflict(earlier, paths[i], later, b)
            if why is None:
                continue
            report.error(
                "O008",
                f"conflicting overlays: {later.kind} '{later.text}' ({later.where()}) and "
                f"{earlier.kind} '{earlier.text}' ({earlier.where()}) {why}",
                later.pos,
                later.pointer,
                conflict_hint(later, earlier),
            )
            skipped.add(id(later))
            break
        tree.add(b, j)
    return skipped


def conflict_hint(later: Op, earlier: Op) -> str:
    """What resolves a conflict: within one overlay, one change; between two, an order."""
    # read with defaults: a stand-in op (tests/loading/test_conflict_search.py) has neither
    other = getattr(earlier, "overlay_id", "")
    same = getattr(later, "source", 0) == getattr(earlier, "source", 0)
    if same or other == getattr(later, "overlay_id", ""):
        return "one entry may be changed by one overlay; combine the changes"
    extend = f"'extends: {other}'" if other else "an 'extends' naming the other"
    return (
        "one entry may be changed by one overlay; combine the changes, or make one overlay "
        f"extend the other's result (give this one {extend})"
    )


class _PathTree:
    """The ops seen so far by path, so that the ops related to a new one (a path that is a
    prefix of its own, or has its own as a prefix) are found without comparing every pair:
    an overlay of some hundred entries made ten thousand comparisons a composition."""

    def __init__(self) -> None:
        self.here: list[int] = []
        self.below: dict[str, _PathTree] = {}

    def add(self, path: tuple[str, ...], index: int) -> None:
        node = self
        for seg in path:
            node = node.below.setdefault(seg, _PathTree())
        node.here.append(index)

    def related(self, path: tuple[str, ...]) -> list[int]:
        """Indexes of the ops on a prefix of ``path`` or below it, in the order they came."""
        found: list[int] = []
        node = self
        for seg in path:
            found += node.here
            child = node.below.get(seg)
            if child is None:
                return sorted(found)
            node = child
        stack = [node]
        while stack:
            n = stack.pop()
            found += n.here
            stack.extend(n.below.values())
        return sorted(found)


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


def _by_position(root: Any, segments: Sequence[str]) -> tuple[str, ...]:
    """`segments` with each list item named by its `name:` spelt as its index in `root`."""
    out = list(segments)
    node = root
    for i, seg in enumerate(segments):
        if node is None:
            break
        found, real = resolve_key(node, seg)
        if not found:
            break
        if is_seq(node):
            out[i] = str(real)
        node = node[real]
    return tuple(out)
