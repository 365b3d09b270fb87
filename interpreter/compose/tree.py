"""Copy-on-write editing of a loaded YAML tree that keeps every entry's position and file.

Composition never mutates its inputs: a container is copied the first time it is changed,
unchanged subtrees stay the original ruamel nodes, and each copied or set entry keeps the
position (and file) it was written at, so :func:`interpreter.load.locate.locate` on the result
points into whichever file supplied the entry. ``provenance`` records which file last set each
slash path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from interpreter.load.locate import (
    KEYFILES_ATTR,
    entry_file,
    is_map,
    is_seq,
    node_file,
    resolve_key,
    set_entry_file,
    set_node_file,
    slash_path,
)
from interpreter.load.node import Key, Node, NodeMap, NodeSeq, child

__all__ = ["CopyOnWriteTree", "Owned", "numbered_map"]

# A container the composer copied and so may change: ruamel's, which keep positions (ruamel
# types their entries Any; what is read out of one is a Node)
Owned: TypeAlias = CommentedMap | CommentedSeq


def numbered_map(node: Node) -> bool:
    """Whether ``node`` is a map keyed by whole numbers only (a table by player count or
    seat; ruamel's ``ScalarInt`` keys count, booleans do not)."""
    return (
        is_map(node)
        and bool(node)
        and all(isinstance(k, int) and not isinstance(k, bool) for k in node)
    )


class CopyOnWriteTree:
    def __init__(self) -> None:
        self.owned: set[int] = set()
        self.keep: list[Owned] = []  # owned copies stay alive so their ids stay unique
        self.provenance: dict[str, str] = {}
        self.root: Owned = CommentedMap()

    def copy(self, node: NodeMap | NodeSeq) -> Owned:
        """Shallow copy keeping positions, file and per-entry files (ruamel's copy shares .lc)."""
        new: Owned
        if is_map(node):
            new = CommentedMap()
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

    def keys_like(self, old: Node, new: Node) -> Node:
        """``new`` (a value an overlay writes over ``old``) with each map key written as digits
        made the whole number it stands for where ``old``'s map at that level is keyed by whole
        numbers (a table by player count or by seat): JSON writes every key as text, and a
        table read as ``start-bonus[seat]`` must find them. Positions and files are kept."""
        if not (is_map(old) and is_map(new)):
            return new
        numbered = numbered_map(old)

        def key(k: Key) -> Key:
            return int(k) if numbered and isinstance(k, str) and k.isdigit() else k

        values = {k: self.keys_like(_entry(old, key(k)), v) for k, v in new.items()}
        if all(key(k) == k and values[k] is v for k, v in new.items()):
            return new
        out = CommentedMap()
        src_lc = getattr(new, "lc", None)
        data = (src_lc.data if src_lc is not None else None) or {}
        out.lc.data = {}
        if src_lc is not None:
            out.lc.line, out.lc.col = src_lc.line, src_lc.col
        files = getattr(new, KEYFILES_ATTR, None) or {}
        renamed = {}
        for k in new:
            out[key(k)] = values[k]
            if k in data:
                out.lc.data[key(k)] = list(data[k])
            if k in files:
                renamed[key(k)] = files[k]
        set_node_file(out, node_file(new))
        if renamed:
            setattr(out, KEYFILES_ATTR, renamed)
        self.owned.add(id(out))
        self.keep.append(out)
        return out

    def writable(self, keys: Sequence[Key]) -> Owned:
        """The container at ``keys``, copied (and re-linked) along the way where not yet ours."""
        node = self.root
        for k in keys:
            entry = node[k]
            if id(entry) not in self.owned:
                entry = self.copy(entry)
                node[k] = entry
            node = entry
        return node

    # -- entry edits that keep positions -------------------------------------------------------

    @staticmethod
    def _lc_data(container: Owned) -> dict[Key, list[int]]:
        lc = container.lc
        if lc.data is None:
            lc.data = {}
        return lc.data

    def set_entry(self, container: Owned, key: Key, value: Node, src: Node, src_key: Key) -> None:
        """``container[key] = value``, taking the position from ``src[src_key]`` and its file."""
        if isinstance(container, CommentedSeq) and key == len(container):
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

    def delete_entry(self, container: Owned, key: Key) -> None:
        data = self._lc_data(container)
        table = getattr(container, KEYFILES_ATTR, None)
        del container[key]
        if is_map(container):
            for store in [data] if table is None else [data, table]:
                store.pop(key, None)
            return
        # Items after the removed one move up by one; so do their positions and files.
        assert isinstance(key, int), key  # (a list's item is found by its position)
        self._renumber(container, key, -1)

    def insert_entry(
        self, container: CommentedSeq, index: int, value: Node, src: Node, src_key: Key
    ) -> None:
        """Insert ``value`` before item ``index`` of a list (``src[src_key]`` gives its
        position); the items from there on move down by one, with their positions and files."""
        self._renumber(container, index, +1)
        container.insert(index, value)
        self.set_entry(container, index, value, src, src_key)

    def _renumber(self, container: Owned, index: int, delta: int) -> None:
        """Move the stored positions and files of a list's items from ``index`` on by
        ``delta`` (-1: item ``index`` was removed; +1: one is being inserted there)."""
        data = self._lc_data(container)
        table = getattr(container, KEYFILES_ATTR, None)
        for store in [data] if table is None else [data, table]:
            items = list(store.items())
            store.clear()
            for i, v in items:
                if isinstance(i, int):
                    if delta < 0 and i == index:
                        continue
                    if i > index or (delta > 0 and i == index):
                        i += delta
                store[i] = v

    def renumber_record(self, keys: Sequence[Key], index: int, delta: int) -> None:
        """Provenance of the list at ``keys`` after an item was removed (``delta`` -1) or
        inserted (+1) at ``index``: the paths of the items that moved follow them."""
        prefix = slash_path(list(keys)) + "/" if keys else ""
        moved: dict[str, str] = {}
        for path in [p for p in self.provenance if p.startswith(prefix)]:
            head, _, rest = path[len(prefix) :].partition("/")
            if not head.isdigit() or int(head) < index:
                continue
            file = self.provenance.pop(path)
            if delta < 0 and int(head) == index:
                continue
            moved[prefix + str(int(head) + delta) + ("/" + rest if rest else "")] = file
        self.provenance.update(moved)

    def merge(
        self, keys: list[Key], parent: Owned, key: Key, patch: NodeMap, src: Node, src_key: Key
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
        numbered = numbered_map(target)
        for pk, pv in patch.items():
            found, real = resolve_key(target, pk)
            if not found:  # a new key: a digit text in a map by whole numbers is one (JSON)
                real = int(pk) if numbered and isinstance(pk, str) and pk.isdigit() else pk
            elif not (is_map(target[real]) and is_map(pv)):
                pv = self.keys_like(target[real], pv)
            if found and is_map(target[real]) and is_map(pv):
                self.merge(keys + [real], target, real, pv, patch, pk)
            else:
                self.set_entry(target, real, pv, patch, pk)
                self.record(keys + [real], entry_file(patch, pk) or file, clear=True)

    def record(self, keys: Sequence[Key], file: str, *, clear: bool) -> None:
        path = slash_path(list(keys))
        if clear:
            for p in [p for p in self.provenance if p.startswith(path + "/")]:
                del self.provenance[p]
        self.provenance[path] = file


def _entry(container: Node, key: Key) -> Node:
    """``container[key]`` when the map holds it, else None."""
    found, real = resolve_key(container, key)
    return child(container, real) if found else None
