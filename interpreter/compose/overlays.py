"""Overlay composition: a base ruleset plus expansions, variants and house rules.

An overlay document names what it changes by slash paths into the base tree::

    overlay: my-variant          # this overlay's id
    extends: base-id             # the ruleset (or an earlier overlay) it applies to
    add:     {section/new-entry: {...}}     # parent must exist, entry must not
    replace: {section/entry: {...}}         # entry must exist; replaced whole
    patch:   {section/entry: {field: 9}}    # entry must exist; maps merge recursively
    remove:  [section/old-entry]            # entries must exist

Segments are map keys (``~1`` for a ``/`` inside a key, ``~0`` for ``~``), list indexes, or
``-`` to append to a list with ``add``.  A segment of digits finds an integer key, so
tables keyed by numbers (``{3: 2, 4: 3}``) are addressable.

Within one overlay every path refers to the tree as it was before that overlay, so list
indexes do not shift under the author's feet.  Overlays apply in the order given.  Two
operations on the same path, or on a path and its prefix, conflict when either is a
``replace`` or ``remove``, both are ``add`` (except two appends, ``-``, to one list), or both
are ``patch`` and set one leaf to different values; the error names both places.  All
problems are reported together.

Composition never mutates its inputs: every container it changes is copied first (copy on
write), unchanged subtrees are the original ruamel nodes, and copied containers carry their
positions and per-entry source files, so :func:`interpreter.load.locate.locate` on the composed tree
points into whichever file supplied each entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from interpreter.diagnostics.errors import DiagnosticSink
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import (
    KEYFILES_ATTR,
    Position,
    entry_file,
    is_map,
    is_seq,
    json_pointer,
    key_position,
    node_file,
    node_position,
    plain_key,
    position_of,
    resolve_key,
    set_entry_file,
    set_node_file,
    slash_path,
    split_path,
)
from interpreter.load.schema import to_plain
from interpreter.load.yamlload import Document

__all__ = ["Composed", "compose", "OVERLAY_KEYS", "OPERATIONS", "is_overlay"]

OPERATIONS = ("add", "replace", "patch", "remove")
OVERLAY_KEYS = ("overlay", "extends", "title", "description", *OPERATIONS)
BASE_ID_KEY = "ruleset"
OVERLAY_ID_KEY = "overlay"


@dataclass
class Composed:
    """The composed tree plus where it came from (for messages and generated docs)."""

    data: Any
    sources: list[str]
    provenance: dict[str, str] = field(default_factory=dict)


def is_overlay(document: Document) -> bool:
    """An overlay is a map with an ``overlay:`` id (a base ruleset has ``ruleset:`` instead)."""
    return is_map(document.data) and OVERLAY_ID_KEY in document.data


@dataclass
class _Op:
    kind: str
    text: str  # path as written
    segments: list[str]
    value: Any
    doc: Document
    holder: Any  # the overlay container holding this op (section map or remove list)
    holder_key: Any  # key (or index) of the op in ``holder``
    order: int
    leaves: list[tuple[tuple[str, ...], Any]] = field(default_factory=list)

    @property
    def file(self) -> str:
        return self.doc.path

    @property
    def pos(self) -> Position:
        if self.kind == "remove":
            return position_of(self.holder, self.holder_key)
        return key_position(self.holder, self.holder_key)

    @property
    def pointer(self) -> str:
        if self.kind == "remove":
            return json_pointer(["remove", self.holder_key])
        return json_pointer([self.kind, plain_key(self.holder_key)])

    def where(self) -> str:
        _, line, col = self.pos
        return f"{self.file}:{line}:{col}" if line is not None else self.file


def _norm(segments: Sequence[str]) -> tuple[str, ...]:
    return tuple(segments)


def _is_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return len(a) <= len(b) and b[: len(a)] == a


class _Composer:
    def __init__(self, base: Document, overlays: Sequence[Document]) -> None:
        self.base = base
        self.overlays = list(overlays)
        self.sink = DiagnosticSink()
        self.owned: set[int] = set()
        self.keep: list[Any] = []  # owned copies stay alive so their ids stay unique
        self.provenance: dict[str, str] = {}
        self.root: Any = None

    # -- diagnostics ---------------------------------------------------------------------------

    def error(
        self,
        code: str,
        message: str,
        pos: Position,
        pointer: str = "",
        hint: str | None = None,
        file: str | None = None,
    ) -> None:
        pfile, line, col = pos
        self.sink.error(
            code,
            message,
            file=pfile or file,
            line=line,
            column=col,
            json_path=pointer,
            hint=hint,
        )

    # -- copy on write -------------------------------------------------------------------------

    def copy(self, node: Any) -> Any:
        """Shallow copy keeping positions, file and per-entry files (ruamel's copy shares .lc)."""
        if is_map(node):
            new: Any = CommentedMap()
            for k, v in node.items():
                new[k] = v
        else:
            new = CommentedSeq(list(node))
        src_lc = getattr(node, "lc", None) if hasattr(type(node), "lc") else None
        if src_lc is not None:
            new.lc.line, new.lc.col = src_lc.line, src_lc.col
            new.lc.data = {k: list(v) for k, v in (src_lc.data or {}).items()}
        else:
            new.lc.data = {}
        set_node_file(new, node_file(node))
        table = getattr(node, KEYFILES_ATTR, None)
        if table:
            setattr(new, KEYFILES_ATTR, dict(table))
        self.owned.add(id(new))
        self.keep.append(new)
        return new

    def writable(self, keys: Sequence[Any]) -> Any:
        """The container at ``keys``, copied (and re-linked) along the way where not yet ours."""
        node = self.root
        for k in keys:
            child = node[k]
            if id(child) not in self.owned:
                child = self.copy(child)
                node[k] = child
            node = child
        return node

    # -- entry edits that keep positions -------------------------------------------------------

    @staticmethod
    def _lc_data(container: Any) -> dict[Any, Any]:
        lc = container.lc
        if lc.data is None:
            lc.data = {}
        return lc.data

    def set_entry(self, container: Any, key: Any, value: Any, src: Any, src_key: Any) -> None:
        """``container[key] = value``, taking the position from ``src[src_key]`` and its file."""
        if is_seq(container) and key == len(container):
            container.append(value)
        else:
            container[key] = value
        data = self._lc_data(container)
        entry = None
        src_lc = getattr(src, "lc", None) if hasattr(type(src), "lc") else None
        if src_lc is not None and src_lc.data:
            entry = src_lc.data.get(src_key)
        if entry is not None:
            if is_seq(container) and len(entry) >= 4:
                data[key] = [entry[2], entry[3]]
            elif is_map(container) and len(entry) == 2:
                data[key] = [entry[0], entry[1], entry[0], entry[1]]
            else:
                data[key] = list(entry)
        else:
            data.pop(key, None)
        set_entry_file(container, key, entry_file(src, src_key))

    def delete_entry(self, container: Any, key: Any) -> None:
        data = self._lc_data(container)
        table = getattr(container, KEYFILES_ATTR, None)
        del container[key]
        stores = [data] if table is None else [data, table]
        if is_map(container):
            for store in stores:
                store.pop(key, None)
            return
        # Items after the removed one move up by one; so do their positions and files.
        for store in stores:
            items = list(store.items())
            store.clear()
            for i, v in items:
                if isinstance(i, int):
                    if i == key:
                        continue
                    if i > key:
                        i -= 1
                store[i] = v

    # -- reading overlays ----------------------------------------------------------------------

    def read_overlay(
        self, doc: Document, known_ids: list[str], seen: dict[str, Document]
    ) -> list[_Op]:
        data = doc.data
        if not is_map(data):
            self.error(
                "O001",
                "an overlay must be a map with 'overlay', 'extends' and operations",
                node_position(data) if data is not None else (doc.path, None, None),
                file=doc.path,
            )
            return []
        for key in data:
            if key not in OVERLAY_KEYS:
                self.error(
                    "O002",
                    f"unknown overlay key '{plain_key(key)}'",
                    key_position(data, key),
                    json_pointer([key]),
                    hint_for(plain_key(key), OVERLAY_KEYS) or f"allowed: {', '.join(OVERLAY_KEYS)}",
                )
        overlay_id = data.get(OVERLAY_ID_KEY)
        if not isinstance(overlay_id, str) or not overlay_id:
            self.error(
                "O003",
                "overlay id missing: add 'overlay: <id>'",
                position_of(data, OVERLAY_ID_KEY)
                if OVERLAY_ID_KEY in data
                else node_position(data),
                json_pointer([OVERLAY_ID_KEY]),
            )
            overlay_id = None
        elif overlay_id in seen:
            self.error(
                "O009",
                f"overlay '{overlay_id}' is applied twice (also {seen[overlay_id].path})",
                position_of(data, OVERLAY_ID_KEY),
                json_pointer([OVERLAY_ID_KEY]),
            )
        self.check_extends(doc, known_ids)
        if overlay_id:
            seen[overlay_id] = doc
            known_ids.append(overlay_id)
        ops: list[_Op] = []
        for kind in OPERATIONS:
            if kind not in data:
                continue
            section = data[kind]
            if section is None:
                continue
            if kind == "remove":
                if not is_seq(section):
                    self.error(
                        "O005",
                        "'remove' must be a list of paths",
                        position_of(data, kind),
                        json_pointer([kind]),
                    )
                    continue
                for i, item in enumerate(section):
                    if not isinstance(item, str) or not split_path(item):
                        self.error(
                            "O005",
                            "each 'remove' item must be a non-empty slash path",
                            position_of(section, i),
                            json_pointer([kind, i]),
                        )
                        continue
                    ops.append(_Op(kind, item, split_path(item), None, doc, section, i, 0))
                continue
            if not is_map(section):
                self.error(
                    "O005",
                    f"'{kind}' must be a map of path: value",
                    position_of(data, kind),
                    json_pointer([kind]),
                )
                continue
            for key, value in section.items():
                text = plain_key(key)
                op = _Op(kind, text, split_path(text), value, doc, section, key, 0)
                if not op.segments:
                    self.error(
                        "O005",
                        f"empty path in '{kind}': the whole ruleset cannot be {kind}d",
                        op.pos,
                        op.pointer,
                    )
                    continue
                if kind == "patch":
                    if not is_map(value):
                        self.error(
                            "O005",
                            f"patch value for '{text}' must be a map",
                            position_of(section, key),
                            op.pointer,
                            "use 'replace' to change a whole value",
                        )
                        continue
                    op.leaves = list(_leaves(value, ()))
                ops.append(op)
        return ops

    def check_extends(self, doc: Document, known_ids: list[str]) -> None:
        data = doc.data
        if "extends" not in data:
            self.error(
                "O004",
                "overlay does not say what it extends: add 'extends: <ruleset id>'",
                node_position(data),
                "/extends",
            )
            return
        target = data["extends"]
        targets = list(target) if is_seq(target) else [target]
        for i, t in enumerate(targets):
            pos = position_of(target, i) if is_seq(target) else position_of(data, "extends")
            pointer = json_pointer(["extends", i] if is_seq(target) else ["extends"])
            if not isinstance(t, str):
                self.error("O004", "'extends' must name a ruleset id", pos, pointer)
            elif t not in known_ids:
                self.error(
                    "O004",
                    f"overlay extends '{t}', but the ruleset is '{known_ids[0]}'"
                    + (
                        f" (with overlays {', '.join(known_ids[1:])})" if len(known_ids) > 1 else ""
                    ),
                    pos,
                    pointer,
                    hint_for(t, known_ids),
                )

    # -- conflicts -----------------------------------------------------------------------------

    def find_conflicts(self, ops: list[_Op]) -> set[int]:
        """Report conflicting pairs; returns the ids of the later ops, which are skipped."""
        skipped: set[int] = set()
        paths = [_norm(op.segments) for op in ops]
        for j, later in enumerate(ops):
            for i in range(j):
                earlier = ops[i]
                if id(earlier) in skipped:
                    continue
                a, b = paths[i], paths[j]
                if not (_is_prefix(a, b) or _is_prefix(b, a)):
                    continue
                why = _conflict(earlier, a, later, b)
                if why is None:
                    continue
                self.error(
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

    # -- applying ------------------------------------------------------------------------------

    def resolve(self, op: _Op, count: int) -> list[Any] | None:
        """Real keys for the first ``count`` segments, or None after reporting what is missing."""
        node = self.root
        keys: list[Any] = []
        for depth, seg in enumerate(op.segments[:count]):
            found, real = resolve_key(node, seg)
            if not found:
                where = "/".join(op.segments[:depth]) or "the top level"
                verb = "add into" if op.kind == "add" else op.kind
                if is_map(node):
                    candidates = [plain_key(k) for k in node]
                    message = f"cannot {verb} '{op.text}': no '{seg}' in {where}"
                    hint = hint_for(seg, candidates)
                elif is_seq(node):
                    message = (
                        f"cannot {verb} '{op.text}': {where} is a list of {len(node)} "
                        f"item(s); '{seg}' is not an index in it"
                    )
                    hint = None
                else:
                    message = f"cannot {verb} '{op.text}': {where} is not a map or a list"
                    hint = None
                self.error("O007", message, op.pos, op.pointer, hint)
                return None
            keys.append(real)
            node = node[real]
        return keys

    def apply_overlay(self, ops: list[_Op], skipped: set[int]) -> None:
        live = [op for op in ops if id(op) not in skipped]
        resolved: list[tuple[_Op, list[Any]]] = []
        for op in live:
            if op.kind == "add":
                keys = self.resolve(op, len(op.segments) - 1)
                if keys is None:
                    continue
                last = self.add_key(op, keys)
                if last is None:
                    continue
                resolved.append((op, keys + [last]))
            else:
                keys = self.resolve(op, len(op.segments))
                if keys is not None:
                    resolved.append((op, keys))
        # Replace and patch leave indexes alone; adds append; removes go last, highest first.
        for op, keys in resolved:
            if op.kind in ("replace", "patch"):
                parent = self.writable(keys[:-1])
                if op.kind == "replace":
                    self.set_entry(parent, keys[-1], op.value, op.holder, op.holder_key)
                    self.record(keys, op.file, clear=True)
                else:
                    self.merge(keys, parent, keys[-1], op.value, op.holder, op.holder_key)
        for op, keys in resolved:
            if op.kind == "add":
                parent = self.writable(keys[:-1])
                if is_seq(parent):
                    keys[-1] = len(parent)  # appends stay appends whatever ran before
                self.set_entry(parent, keys[-1], op.value, op.holder, op.holder_key)
                self.record(keys, op.file, clear=True)
        removes = [(op, keys) for op, keys in resolved if op.kind == "remove"]
        removes.sort(key=lambda item: _sort_keys(item[1]), reverse=True)
        for op, keys in removes:
            parent = self.writable(keys[:-1])
            self.delete_entry(parent, keys[-1])
            self.record(keys, op.file, clear=True)

    def add_key(self, op: _Op, keys: list[Any]) -> Any:
        """The key a new entry gets, or None after reporting why it cannot be added."""
        parent = self.root
        for k in keys:
            parent = parent[k]
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
            if last.isdigit() and parent and all(type(k) is int for k in parent):
                return int(last)
            return last
        if is_seq(parent):
            if last == "-" or (last.isdigit() and int(last) == len(parent)):
                return len(parent)
            if last.isdigit() and int(last) < len(parent):
                self.error(
                    "O006",
                    f"cannot add '{op.text}': item {last} already exists",
                    op.pos,
                    op.pointer,
                    "add appends to a list (use '-' as the last segment); "
                    "use 'replace' to change an item",
                )
                return None
            self.error(
                "O010",
                f"cannot add '{op.text}': the list has {len(parent)} item(s)",
                op.pos,
                op.pointer,
                "add appends to a list: use '-' (or the list's length) as the last segment",
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

    def merge(
        self, keys: list[Any], parent: Any, key: Any, patch: Any, src: Any, src_key: Any
    ) -> None:
        """Deep merge: maps merge key by key, anything else replaces (positions follow)."""
        target = parent[key]
        file = entry_file(src, src_key) or ""
        if not is_map(target):
            self.set_entry(parent, key, patch, src, src_key)
            self.record(keys, file, clear=True)
            return
        if id(target) not in self.owned:
            target = self.copy(target)
            parent[key] = target
        for pk, pv in patch.items():
            found, real = resolve_key(target, pk)
            real = real if found else pk
            if found and is_map(target[real]) and is_map(pv):
                self.merge(keys + [real], target, real, pv, patch, pk)
            else:
                self.set_entry(target, real, pv, patch, pk)
                self.record(keys + [real], entry_file(patch, pk) or file, clear=True)

    def record(self, keys: Sequence[Any], file: str, *, clear: bool) -> None:
        path = slash_path(list(keys))
        if clear:
            for p in [p for p in self.provenance if p.startswith(path + "/")]:
                del self.provenance[p]
        self.provenance[path] = file

    # -- driver --------------------------------------------------------------------------------

    def run(self) -> Composed:
        base = self.base
        sources = [base.path]
        if not is_map(base.data):
            self.error(
                "O001",
                "a ruleset must be a map",
                node_position(base.data) if base.data is not None else (base.path, None, None),
                file=base.path,
            )
            self.sink.raise_if_errors()
        base_id = base.data.get(BASE_ID_KEY)
        if not isinstance(base_id, str) or not base_id:
            self.error(
                "O003",
                "ruleset id missing: add 'ruleset: <id>'",
                position_of(base.data, BASE_ID_KEY)
                if BASE_ID_KEY in base.data
                else node_position(base.data),
                json_pointer([BASE_ID_KEY]),
                file=base.path,
            )
            base_id = "?"
        self.root = self.copy(base.data)
        known_ids = [base_id]
        seen: dict[str, Document] = {}
        all_ops: list[_Op] = []
        per_overlay: list[list[_Op]] = []
        for doc in self.overlays:
            sources.append(doc.path)
            ops = self.read_overlay(doc, known_ids, seen)
            for op in ops:
                op.order = len(all_ops)
                all_ops.append(op)
            per_overlay.append(ops)
        skipped = self.find_conflicts(all_ops)
        for ops in per_overlay:
            self.apply_overlay(ops, skipped)
        self.sink.raise_if_errors()
        return Composed(data=self.root, sources=sources, provenance=dict(self.provenance))


def _sort_keys(keys: Sequence[Any]) -> list[tuple[int, Any]]:
    """Order removals so that, within one list, later items go first (indexes stay valid)."""
    return [(0, k) if isinstance(k, int) else (1, plain_key(k)) for k in keys]


def _leaves(value: Any, prefix: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    """Paths a patch map sets (maps merge, so only non-map values are real changes)."""
    out: list[tuple[tuple[str, ...], Any]] = []
    for k, v in value.items():
        path = prefix + (plain_key(k),)
        if is_map(v) and v:
            out.extend(_leaves(v, path))
        elif not (is_map(v) and not v):
            out.append((path, v))
    return out


def _conflict(a: _Op, pa: tuple[str, ...], b: _Op, pb: tuple[str, ...]) -> str | None:
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
                if not same and (_is_prefix(full_a, full_b) or _is_prefix(full_b, full_a)):
                    shorter = full_a if len(full_a) <= len(full_b) else full_b
                    return f"both set '{slash_path(shorter)}' to different values"
        return None
    # add and patch: fine when the patch refines what an add brought (or the other way
    # round), a conflict when the patch sets a value at or above the added entry.
    add_path = pa if a.kind == "add" else pb
    patch_op, patch_path = (b, pb) if a.kind == "add" else (a, pa)
    for leaf, _ in patch_op.leaves:
        if _is_prefix(patch_path + leaf, add_path):
            return f"the patch sets '{slash_path(patch_path + leaf)}', where the add puts an entry"
    return None


def compose(base: Document, overlays: Sequence[Document]) -> Composed:
    """Apply ``overlays`` in order to ``base``; raises :class:`RulesError` with all problems."""
    return _Composer(base, overlays).run()
