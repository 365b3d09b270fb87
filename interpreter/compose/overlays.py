"""Overlay composition: a base ruleset plus expansions, variants and house rules.

An overlay document names what it changes by slash paths into the base tree::

    overlay: my-variant          # this overlay's id
    extends: base-id             # the ruleset (or an earlier overlay) it applies to
    add:     {section/new-entry: {...}}     # parent must exist, entry must not
    replace: {section/entry: {...}}         # entry must exist; replaced whole
    patch:   {section/entry: {field: 9}}    # entry must exist; maps merge recursively
    remove:  [section/old-entry]            # entries must exist

Segments are map keys (``~1`` for a ``/`` inside a key, ``~0`` for ``~``), list indexes, or
``-`` to append to a list with ``add``; ``add`` at a list index inserts before the item there
(``0``: first).  A segment of digits finds an integer key, so tables keyed by numbers
(``{3: 2, 4: 3}``) are addressable.  A list index where a name, id or word would find the item
is an error (O011) naming the item the index finds now: an index is for items nothing else
finds alone (a word a list holds twice, an item with no name).

Within one overlay every path refers to the tree as it was before that overlay, so list
indexes do not shift under the author's feet.  Overlays apply in the order given; one that
``extends`` another (directly or through a chain) applies to that one's result and may change
what it set.  Two operations on the same path, or on a path and its prefix, of one overlay or
of two overlays neither of which extends the other, conflict (O008) when either is a
``replace`` or ``remove``, both are ``add`` (except two appends, ``-``, to one list), or both
are ``patch`` and set one leaf to different values; so does a list index of an overlay counted
before an overlay it does not extend inserted, removed or appended an item at or before it.
The error names both places.  All problems are reported together.

Composition never mutates its inputs: every container it changes is copied first (copy on
write), unchanged subtrees are the original ruamel nodes, and copied containers carry their
positions and per-entry source files, so :func:`interpreter.load.locate.locate` on the composed tree
points into whichever file supplied each entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ruamel.yaml.comments import CommentedSeq

from interpreter.compose.conflicts import conflict_hint, find_conflicts
from interpreter.compose.operations import (
    OPERATIONS,
    OVERLAY_ID_KEY,
    OVERLAY_KEYS,
    Op,
    Reporter,
    extended_ids,
    read_overlay,
)
from interpreter.compose.paths import better_segment, find_item, item_preview, labels_of
from interpreter.compose.placement import NamedAdd, NamedAdds
from interpreter.compose.tree import Owned, numbered_map
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import (
    is_map,
    is_seq,
    json_pointer,
    locate,
    node_position,
    plain_key,
    position_of,
    resolve_key,
)
from interpreter.load.node import Key, Node, NodeSeq, child
from interpreter.load.yamlload import Document

__all__ = ["Composed", "compose", "OVERLAY_KEYS", "OPERATIONS", "is_overlay"]

BASE_ID_KEY = "ruleset"


class _NewItem(Enum):
    """Where ``add_key`` puts a new list item that has no position yet."""

    APPEND = "a new last item of a list"
    NAMED = "a new item added by name (placement.py puts it)"


_AMBIGUOUS_HINT = "name the item by another of its names, or by its position"


@dataclass
class Composed:
    """The composed tree plus where it came from (for messages and generated docs)."""

    # the composed tree (a Node); typed ``Any`` for the readers outside load/ and compose/ that
    # index it as rule data unchecked, like ``Document.data``
    data: Any
    sources: list[str]
    provenance: dict[str, str] = field(default_factory=dict)
    warnings: list[Diagnostic] = field(default_factory=list)  # each at the file that caused it


def is_overlay(document: Document) -> bool:
    """An overlay is a map with an ``overlay:`` id (a base ruleset has ``ruleset:`` instead)."""
    data = document.tree
    return is_map(data) and OVERLAY_ID_KEY in data


class _Composer(NamedAdds):
    def __init__(self, base: Document, overlays: Sequence[Document]) -> None:
        super().__init__()
        self.base = base
        self.overlays = list(overlays)
        self.report = Reporter()
        self.error = self.report.error
        # per overlay, the overlays (by place) it extends, directly or through a chain
        self.lineage: list[set[int]] = []
        # id of a list -> (overlay place, index, op, verb) of each change that moved its items
        self.shifts: dict[int, list[tuple[int, int, Op, str]]] = {}
        self.warnings: list[Diagnostic] = []
        self.better: list[str] = []  # the last path resolved, spelt by names where it can be

    def resolve(self, op: Op, count: int) -> list[Key] | None:
        """Real keys for the first ``count`` segments, or None after reporting what is missing."""
        node: Node = self.root
        keys: list[Key] = []
        better = list(op.segments)
        counted: tuple[int, Node] | None = None  # the last list item found by its position
        for depth, seg in enumerate(op.segments[:count]):
            found = find_item(node, seg)
            if not found.found:
                where = "/".join(op.segments[:depth]) or "the top level"
                verb = "add into" if op.kind == "add" else op.kind
                if found.problem:
                    message = f"cannot {verb} '{op.text}': in {where}, {found.problem}"
                    self.error("O013", message, op.pos, op.pointer, _AMBIGUOUS_HINT)
                    return None
                if is_map(node):
                    candidates = [plain_key(k) for k in node]
                    message = f"cannot {verb} '{op.text}': no '{seg}' in {where}"
                    hint = hint_for(seg, candidates)
                elif is_seq(node):
                    message = (
                        f"cannot {verb} '{op.text}': {where} is a list of {len(node)} "
                        f"item(s); '{seg}' is neither an index in it nor the `name:`, id or "
                        "value of one of its items"
                    )
                    hint = hint_for(seg, labels_of(node))
                else:
                    message = f"cannot {verb} '{op.text}': {where} is not a map or a list"
                    hint = None
                self.error("O007", message, op.pos, op.pointer, hint)
                return None
            real = found.key
            if is_seq(node) and str(seg).isdigit():
                if self.moved(op, node, found.index):
                    return None  # (a name finds its item wherever others moved it)
                named = better_segment(node, found.index)
                if named is not None:
                    better[depth] = named
                    counted = (depth, node[found.index])
            keys.append(real)
            node = child(node, real)
        self.better = better
        if counted is not None:
            depth, item = counted
            fix = f"if that is the item you mean, write {'/'.join(better)}"
            self.counted_item(op, depth, item, fix)
            return None
        return keys

    def counted_item(self, op: Op, depth: int, item: Node, fix: str) -> None:
        """O011: a path that counts list items where a name, id or value would find the item.
        A position finds whatever item stands there now, which is not the one it was written
        for once the list changed (another version of the rules, an expansion): the message
        names the item the position finds now and shows its first lines, so the author
        sees what the overlay would change, and the fix is the path by name."""
        where = "/".join(op.segments[:depth]) or "the top level"
        index = op.segments[depth]
        file, line, _ = locate(self.root, self.keys_of(op, depth + 1))
        at = f" ({file}:{line})" if file and line is not None else ""
        self.error(
            "O011",
            f"'{op.text}' counts list items: item {index} of {where} is now "
            f"{_describe(item)}{at}"
            + (f", which reads: {item_preview(item)}" if is_map(item) else ""),
            op.pos,
            op.pointer,
            f"{fix}; a position finds whatever item stands there, and items move when the "
            "rules or an overlay add or remove one",
        )

    def keys_of(self, op: Op, count: int) -> list[Key]:
        """The real keys of ``op``'s first ``count`` segments (each found, as resolve found it)."""
        node: Node = self.root
        keys: list[Key] = []
        for seg in op.segments[:count]:
            real = find_item(node, seg).key
            keys.append(real)
            node = child(node, real)
        return keys

    def moved(self, op: Op, items: NodeSeq, index: int) -> bool:
        """Whether an overlay that ``op``'s does not extend inserted, removed or appended an
        item of ``items`` at or before ``index`` (O008, reported): ``op``'s index counts the
        items of the list its author saw, which are no longer where they were."""
        for source, at, other, verb in self.shifts.get(id(items), ()):
            if source == op.source or source in self.lineage[op.source] or at > index:
                continue
            self.error(
                "O008",
                f"conflicting overlays: {op.kind} '{op.text}' ({op.where()}) counts the items "
                f"of a list in which {other.kind} '{other.text}' ({other.where()}) {verb} item "
                f"{at}, so the items from there on moved",
                op.pos,
                op.pointer,
                conflict_hint(op, other),
            )
            return True
        return False

    def note_shift(self, items: Owned, op: Op, index: int, verb: str) -> None:
        """Remember that ``op`` moved the items of a list from ``index`` on (see ``moved``)."""
        self.shifts.setdefault(id(items), []).append((op.source, index, op, verb))

    def apply_overlay(self, ops: list[Op], skipped: set[int]) -> None:
        live = [op for op in ops if id(op) not in skipped]
        resolved: list[tuple[Op, list[Key]]] = []
        appends: set[int] = set()
        named: list[NamedAdd] = []
        for op in live:
            if op.kind == "add":
                keys = self.resolve(op, len(op.segments) - 1)
                if keys is None:
                    continue
                last = self.add_key(op, keys)
                if last is None:
                    continue
                if last is _NewItem.NAMED:
                    named.append(NamedAdd(op, keys, op.segments[-1]))
                    continue
                if last is _NewItem.APPEND:
                    appends.add(id(op))
                    last = -1  # (the list's length, when it is appended)
                resolved.append((op, keys + [last]))
            else:
                keys = self.resolve(op, len(op.segments))
                if keys is not None:
                    resolved.append((op, keys))
        # Replace and patch leave indexes alone, so they go first.
        for op, keys in resolved:
            if op.kind in ("replace", "patch"):
                parent = self.writable(keys[:-1])
                if op.kind == "replace":
                    value = self.keys_like(parent[keys[-1]], op.value)
                    self.set_entry(parent, keys[-1], value, op.holder, op.holder_key)
                    self.record(keys, op.file, clear=True)
                else:
                    assert is_map(op.value)  # (read_overlay: a patch is a map)
                    self.merge(keys, parent, keys[-1], op.value, op.holder, op.holder_key)
        # Map entries and appends move no item: in the order written.
        shifting: list[tuple[Op, list[Key]]] = []
        for op, keys in resolved:
            if op.kind != "add":
                continue
            parent = self.writable(keys[:-1])
            if isinstance(parent, CommentedSeq):
                if id(op) not in appends:
                    shifting.append((op, keys))
                    continue
                keys[-1] = end = len(parent)  # appends stay appends whatever ran before
                self.note_shift(parent, op, end, "appended")
            self.set_entry(parent, keys[-1], op.value, op.holder, op.holder_key)
            self.record(keys, op.file, clear=True)
        # Inserts and removes move the items after them: the last position first, so that
        # every index still counts the list as the overlay's author saw it.
        shifting += [(op, keys) for op, keys in resolved if op.kind == "remove"]
        shifting.sort(key=lambda item: _sort_keys(item[1]), reverse=True)
        for op, keys in shifting:
            parent = self.writable(keys[:-1])
            if op.kind == "add":
                index = keys[-1]
                # (an add shifts only where it inserts into a list, at a position)
                assert isinstance(parent, CommentedSeq) and isinstance(index, int)
                self.renumber_record(keys[:-1], index, +1)
                self.insert_entry(parent, index, op.value, op.holder, op.holder_key)
                self.record(keys, op.file, clear=True)
                self.note_shift(parent, op, index, "inserted")
                continue
            self.delete_entry(parent, keys[-1])
            if isinstance(parent, CommentedSeq):  # the path now names the next item, which
                index = keys[-1]  # keeps its source
                assert isinstance(index, int)  # (a list's item is found by its position)
                self.renumber_record(keys[:-1], index, -1)
                self.note_shift(parent, op, index, "removed")
            else:
                self.record(keys, op.file, clear=True)
        # Items added by name go where their placement names, whatever moved: last.
        for added in named:
            self.apply_named(added)

    def add_key(self, op: Op, keys: list[Key]) -> str | int | _NewItem | None:
        """The key a new entry gets (``_NewItem.APPEND`` at the end of a list), or None after
        reporting why it cannot be added."""
        parent: Node = self.root
        for k in keys:
            parent = child(parent, k)
        last = op.segments[-1]
        if is_map(parent):
            found, real = resolve_key(parent, last)
            if found:
                self.error(
                    "O006",
                    f"cannot add '{op.text}': it already exists",
                    op.pos,
                    op.pointer,
                    "use 'replace' to swap it or 'patch' to change some of its fields",
                )
                return None
            if last.isdigit() and numbered_map(parent):
                return int(last)
            return last
        if is_seq(parent):
            if last == "-" or (last.isdigit() and int(last) == len(parent)):
                return _NewItem.APPEND
            if last.isdigit() and int(last) < len(parent):
                # inserted before the item now at that index (0: first)
                if self.moved(op, parent, int(last)):
                    return None
                anchor = better_segment(parent, int(last))
                if all(is_map(x) for x in parent) and (anchor or int(last) == 0):
                    place = f"before: {anchor}" if int(last) else "first: true"
                    fix = (
                        f"to add before that item, add '{'/'.join(self.better[:-1])}/NAME' "
                        f"with '{place}' in the entry"
                    )
                    self.counted_item(op, len(op.segments) - 1, parent[int(last)], fix)
                    return None
                return int(last)
            if not last.isdigit():
                item = find_item(parent, last)
                if item.found:
                    self.error(
                        "O006",
                        f"cannot add '{op.text}': the list has an item '{last}' already",
                        op.pos,
                        op.pointer,
                        "use 'replace' to swap it or 'patch' to change some of its fields",
                    )
                    return None
                return _NewItem.NAMED if self.check_named(op, parent, last) else None
            self.error(
                "O010",
                f"cannot add '{op.text}': the list has {len(parent)} item(s)",
                op.pos,
                op.pointer,
                f"add inserts before the item at an index from 0 to {len(parent) - 1}, "
                "or appends with '-' (or the list's length) as the last segment",
            )
            return None
        where = "/".join(op.segments[:-1]) or "the top level"
        self.error(
            "O007",
            f"cannot add '{op.text}': {where} is not a map or a list",
            op.pos,
            op.pointer,
        )
        return None

    def builds_on(self, later: Op, earlier: Op) -> bool:
        """Whether ``later``'s overlay extends ``earlier``'s (so it composes on its result)."""
        return earlier.source in self.lineage[later.source]

    def run(self) -> Composed:
        base = self.base
        sources = [base.path]
        data = base.tree
        if not is_map(data):
            self.error(
                "O001",
                "a ruleset must be a map",
                node_position(data) if data is not None else (base.path, None, None),
                file=base.path,
            )
            self.report.sink.raise_if_errors()
        assert is_map(data)  # (else O001 raised)
        base_id = data.get(BASE_ID_KEY)
        if not isinstance(base_id, str) or not base_id:
            self.error(
                "O003",
                "ruleset id missing: add 'ruleset: <id>'",
                position_of(data, BASE_ID_KEY) if BASE_ID_KEY in data else node_position(data),
                json_pointer([BASE_ID_KEY]),
                file=base.path,
            )
            base_id = "?"
        self.root = self.copy(data)
        known_ids = [base_id]
        seen: dict[str, Document] = {}
        all_ops: list[Op] = []
        per_overlay: list[list[Op]] = []
        given = [_overlay_id(doc.tree) for doc in self.overlays]
        for place, doc in enumerate(self.overlays):
            sources.append(doc.path)
            later = [i for i in given[place + 1 :] if isinstance(i, str)]
            ops = read_overlay(self.report, doc, known_ids, seen, later)
            for op in ops:
                op.order = len(all_ops)
                op.source = place
                all_ops.append(op)
            per_overlay.append(ops)
        self.lineage = _lineage(self.overlays)
        skipped = find_conflicts(self.report, all_ops, self.builds_on, self.root)
        for ops in per_overlay:
            self.apply_overlay(ops, skipped)
        self.report.sink.raise_if_errors()
        return Composed(
            data=self.root,
            sources=sources,
            provenance=dict(self.provenance),
            warnings=self.warnings,
        )


def _lineage(overlays: Sequence[Document]) -> list[set[int]]:
    """For each overlay (by place), the places of the overlays it extends, directly or through
    their own ``extends``; an id names the last overlay of that id before it."""
    out: list[set[int]] = []
    for place, doc in enumerate(overlays):
        below: set[int] = set()
        for target in extended_ids(doc):
            for earlier in range(place - 1, -1, -1):
                if _overlay_id(overlays[earlier].tree) == target:
                    below |= {earlier, *out[earlier]}
                    break
        out.append(below)
    return out


def _overlay_id(data: Node) -> Node:
    """What an overlay document gives as its ``overlay:`` id (None where it is no map)."""
    return data.get(OVERLAY_ID_KEY) if is_map(data) else None


def _describe(item: Node) -> str:
    """What a list item is called: its name, option id or word."""
    if is_map(item):
        for key, what in (("name", "the item named"), ("id", "the option")):
            if isinstance(item.get(key), str):
                return f"{what} '{item[key]}'"
        return "an item"
    return f"'{item}'"


def _sort_keys(keys: Sequence[Key]) -> list[tuple[int, int | str]]:
    """Order removals so that, within one list, later items go first (indexes stay valid)."""
    return [(0, k) if isinstance(k, int) else (1, plain_key(k)) for k in keys]


def compose(base: Document, overlays: Sequence[Document]) -> Composed:
    """Apply ``overlays`` in order to ``base``; raises :class:`RulesError` with all problems."""
    return _Composer(base, overlays).run()
