"""Conflicts between overlays: two operations on one entry that cannot both apply (O008).

Only overlays that are independent of each other can conflict: an overlay that extends another
(directly or through a chain of ``extends``) composes after it, on its result, so it may
change what that one set. Two operations of one overlay on related paths still conflict.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from interpreter.compose.operations import Op, Reporter, extended_ids
from interpreter.compose.paths import find_item
from interpreter.compose.placement import placement_of
from interpreter.load.locate import is_map, is_seq, slash_path
from interpreter.load.node import Node, child, is_scalar
from interpreter.load.schema import to_plain

__all__ = ["conflict_hint", "find_conflicts", "is_prefix"]


def is_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return len(a) <= len(b) and b[: len(a)] == a


def find_conflicts(
    report: Reporter,
    ops: Sequence[Op],
    builds_on: Callable[[Op, Op], bool] | None = None,
    root: Node = None,
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
            _report(report, later, earlier, why)
            skipped.add(id(later))
            break
        tree.add(b, j)
    _placement_conflicts(report, ops, paths, builds_on, root, skipped)
    return skipped


def _placement_conflicts(
    report: Reporter,
    ops: Sequence[Op],
    paths: list[tuple[str, ...]],
    builds_on: Callable[[Op, Op], bool] | None,
    root: Node,
    skipped: set[int],
) -> None:
    """Items added into one list at one spot (between the same two items, or first), and an
    item placed before or after one that another overlay removes or replaces: which goes
    where depends on the order the overlays happen to be given, so both are conflicts."""
    spots: list[tuple[int, tuple[str | int, ...], tuple[str, ...] | None]] = []
    for j, op in enumerate(ops):
        if op.kind == "add" and id(op) not in skipped:
            spot, anchor = _spot(root, op, paths[j])
            if spot is not None:
                spots.append((j, spot, anchor))
    for n, (j, spot, anchor) in enumerate(spots):
        later = ops[j]
        for i, other_spot, _ in spots[:n]:
            if other_spot == spot and _independent(later, ops[i], builds_on):
                _report(report, later, ops[i], "add items at the same place in one list")
                skipped.add(id(later))
                break
        else:
            if anchor is None:
                continue
            for i, other in enumerate(ops):
                if other is later or other.kind not in ("remove", "replace"):
                    continue
                if paths[i] == anchor and _independent(later, other, builds_on):
                    _report(report, later, other, "place an item next to one that goes")
                    skipped.add(id(later))
                    break


def _independent(a: Op, b: Op, builds_on: Callable[[Op, Op], bool] | None) -> bool:
    if builds_on is None:
        return True
    return not builds_on(a, b) and not builds_on(b, a)


def _report(report: Reporter, later: Op, earlier: Op, why: str) -> None:
    report.error(
        "O008",
        f"conflicting overlays: {later.kind} '{later.text}' ({later.where()}) and "
        f"{earlier.kind} '{earlier.text}' ({earlier.where()}) {why}",
        later.pos,
        later.pointer,
        conflict_hint(later, earlier),
    )


def _spot(
    root: Node, op: Op, path: tuple[str, ...]
) -> tuple[tuple[str | int, ...] | None, tuple[str, ...] | None]:
    """Where in the base list an add puts its item (the list's path and the gap: the index of
    the item it goes before), and the path of the item it is placed next to. Appends have no
    spot: each brings its own item after the others."""
    parent = path[:-1]
    items = root
    for seg in parent:
        found = find_item(items, seg) if items is not None else None
        if found is None or not found.found:
            return None, None
        items = child(items, found.key)
    if not is_seq(items):
        return None, None
    last = op.segments[-1]
    if last.isdigit():
        return ((*parent, int(last)) if int(last) < len(items) else None), None
    where = placement_of(op.value) if is_map(op.value) else None
    if last == "-" or where is None:
        return None, None
    key, anchor = where
    if key == "first":
        return (*parent, 0), None
    found = find_item(items, anchor if is_scalar(anchor) else None)  # (None finds nothing)
    if not found.found:
        return (*parent, key, str(anchor)), None  # an item an overlay adds: by its name
    gap = found.index + (1 if key == "after" else 0)
    return (*parent, gap), (*parent, str(found.key))


def conflict_hint(later: Op, earlier: Op) -> str:
    """What resolves a conflict: within one overlay, one change; between two, an order that
    the fix really gives. The hint is reported at ``later``'s line ("this one"). When one of
    the two already extends the other and was only given first, the fix is the order of
    ``--with``; otherwise the one to give ``extends:`` is the house rule, not the game's own
    expansion (an overlay beside its ruleset), whichever came later."""
    # read with defaults: a stand-in op (tests/loading/test_conflict_search.py) has neither
    other = getattr(earlier, "overlay_id", "")
    mine = getattr(later, "overlay_id", "")
    same = getattr(later, "source", 0) == getattr(earlier, "source", 0)
    if same or other == mine:
        return "one entry may be changed by one overlay; combine the changes"
    if mine and hasattr(earlier, "doc") and mine in extended_ids(earlier.doc):
        return (
            f"'{other}' extends '{mine}', so it composes on its result only when given after "
            f"it: give '{mine}' before '{other}' in --with"
        )
    advice = "one entry may be changed by one overlay; combine the changes, or make one overlay "
    if other and mine and _games_own(later) and not _games_own(earlier):
        name = os.path.basename(earlier.file)
        return advice + (
            f"extend the other's result (give {name} 'extends: {mine}', and '{mine}' before "
            f"it in --with)"
        )
    extend = f"'extends: {other}'" if other else "an 'extends' naming the other"
    return advice + f"extend the other's result (give this one {extend})"


def _games_own(op: Op) -> bool:
    """Whether ``op``'s overlay is one of its game's own expansions: a file beside the game's
    ruleset (``rulesets/GAME/ruleset.yaml``), which a house rule extends, not the reverse."""
    file = getattr(op, "file", None)
    return (
        file is not None
        and bool(file)
        and os.path.isfile(os.path.join(os.path.dirname(file), "ruleset.yaml"))
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


def _by_position(root: Node, segments: Sequence[str]) -> tuple[str, ...]:
    """`segments` with each list item named by its `name:` spelt as its index in `root`."""
    out = list(segments)
    node = root
    for i, seg in enumerate(segments):
        if node is None:
            break
        found = find_item(node, seg)
        if not found.found:
            break
        real = found.key
        if is_seq(node):
            out[i] = str(real)
        node = child(node, real)
    return tuple(out)
