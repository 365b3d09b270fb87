"""The walk of one field's value into its block of the feature vector, by positions: what
``Layout.encode`` (features.py) does by feature names, done by the encoder (encoder.py) for the
fields a step changed. :class:`Block` is one block of the vector (the global fields, or one
seat's as it or the others see them) and the walk of each of its fields; ``delta`` moves a block
from one value of a field to another by what differs; ``refilled`` runs a field's in-place
refill (refill.py).
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import ne
from typing import Any

from interpreter.agents.features import _plain
from interpreter.agents.refill import MISSING, add

__all__ = ["GONE", "Block", "Node", "refilled"]

GONE = object()  # a field not in the view (out of scope, or hidden without a count)


class Node:
    """One path of the walk, with the block positions of the features it writes, found by name
    the first time each is met (None: a feature not in the layout, dropped as ``Layout.encode``
    drops it). What ``walk`` does with names, ``_write`` does with these positions."""

    __slots__ = ("path", "num", "count", "text", "kids", "kinds", "ids", "items", "index")

    def __init__(self, path: str, index: dict[str, int]) -> None:
        self.path = path
        self.index = index
        self.num = index.get(path)  # the value of a number
        self.count = index.get(f"{path}#")  # a list's length, a hidden pile's size
        self.text: dict[str, int | None] = {}  # a text value -> its one-hot position
        self.kids: dict[Any, Node] = {}  # a dict's keys
        self.kinds: dict[Any, tuple[int | None, Node]] = {}  # a list's pieces, by type
        self.ids: dict[str, int | None] = {}  # a list's ids
        self.items: dict[int, Node] = {}  # a list's other items, by position

    def id_at(self, item: str) -> int | None:
        """The position of id ``item``'s count in this list (met the first time: the callers
        read ``ids`` first, in their loops)."""
        at = self.ids[item] = self.index.get(f"{self.path}:{item}")
        return at

    def text_at(self, value: str) -> int | None:
        """The position of text ``value``'s one-hot feature (met the first time, as ``id_at``)."""
        at = self.text[value] = self.index.get(f"{self.path}={value}")
        return at

    def kid(self, key: Any) -> Node:
        node = self.kids.get(key)
        if node is None:
            node = self.kids[key] = Node(f"{self.path}.{key}", self.index)
        return node


def _write(node: Node, value: Any, vec: array, sign: int = 1) -> None:
    """Add the features of ``value`` at ``node`` into ``vec`` (``sign`` -1: take them off):
    ``walk`` over positions instead of names (a number inside a dict or a piece is written in
    the loop, not by a call)."""
    t = type(value)
    if t is int or t is float or t is bool:
        at = node.num
        if at is not None:
            add(vec, at, sign * value)
    elif t is str:
        at = node.text.get(value, -1)
        if at == -1:
            at = node.text_at(value)
        if at is not None:
            add(vec, at, sign)
    elif t is dict:
        if value.get("hidden") is True:
            at = node.count
            if at is not None:
                add(vec, at, sign * value.get("count", 0))
            return
        kids = node.kids
        for key, item in value.items():
            child = kids.get(key) or node.kid(key)
            ti = type(item)
            if ti is int or ti is float or ti is bool:
                at = child.num
                if at is not None:
                    add(vec, at, sign * item)
            else:
                _write(child, item, vec, sign)
    elif t is list:
        at = node.count
        if at is not None:
            add(vec, at, sign * len(value))
        _items(node, value, 0, vec, sign)
    elif isinstance(value, int):  # a number read from the rule file keeps its YAML type
        at = node.num
        if at is not None:
            add(vec, at, sign * value)
    elif value is not None:
        plain = _plain(value)
        if plain is not None:
            _write(node, plain, vec, sign)


def _items(node: Node, items: list[Any], start: int, vec: array, sign: int) -> None:
    """Add (``sign`` -1: take off) the features of a list's items, the first at position
    ``start``, less the list's length."""
    for i, item in enumerate(items, start):
        ti = type(item)
        if ti is dict:
            kind = item.get("type", i)
            found = node.kinds.get(kind)
            if found is None:
                name = f"{node.path}[{kind}]"
                found = node.kinds[kind] = (node.index.get(name), Node(name, node.index))
            at, sub = found
            if at is not None:
                add(vec, at, sign)
            kids = sub.kids
            for key, field_value in item.items():
                if key == "type":
                    continue
                child = kids.get(key) or sub.kid(key)
                tf = type(field_value)
                if tf is int or tf is float or tf is bool:
                    at = child.num
                    if at is not None:
                        add(vec, at, sign * field_value)
                elif field_value is not None:
                    _write(child, field_value, vec, sign)
        elif ti is str:
            at = node.ids.get(item, -1)
            if at == -1:
                at = node.id_at(item)
            if at is not None:
                add(vec, at, sign)
        elif item is not None:
            item_node = node.items.get(i)
            if item_node is None:
                item_node = node.items[i] = Node(f"{node.path}[{i}]", node.index)
            _write(item_node, item, vec, sign)


def _delta(node: Node, old: Any, new: Any, vec: array) -> bool:
    """Change ``vec`` from the features of ``old`` to those of ``new`` by what differs (a
    changed entry of a dict, the items a list gained or lost, a number's difference). False
    where that is not exact (a fraction, a list of position-named items changing length): the
    caller then walks the whole value again."""
    to, tn = type(old), type(new)
    if (to is int or isinstance(old, int)) and (tn is int or isinstance(new, int)):
        # (a bool, or a number read from the rule file, which keeps its YAML type until a
        # rule writes it, is an int too)
        at = node.num
        if at is not None:
            add(vec, at, new - old)
        return True
    if (
        to is dict
        and tn is dict
        and old.get("hidden") is not True
        and new.get("hidden") is not True
    ):
        if old.keys() != new.keys():
            return False
        kids = node.kids
        # the keys whose value changed, found in C (old looked up by new's keys)
        for key in compress(new, map(ne, map(old.__getitem__, new), new.values())):
            if not _delta(kids.get(key) or node.kid(key), old[key], new[key], vec):
                return False
        return True
    if to is list and tn is list:
        n_old, n_new = len(old), len(new)
        if n_old == n_new:
            return _same_length(node, old, new, vec)
        i = 0
        while i < n_old and i < n_new and old[i] == new[i]:
            i += 1
        j_old, j_new = n_old, n_new
        while j_old > i and j_new > i and old[j_old - 1] == new[j_new - 1]:
            j_old -= 1
            j_new -= 1
        gone, came = old[i:j_old], new[i:j_new]
        if n_old != n_new:
            for item in gone + came:
                ti = type(item)
                if ti is not dict and ti is not str:
                    return False  # named by position: every later position moves
        for item in gone:
            ti = type(item)
            if ti is float or (ti is dict and any(type(x) is float for x in item.values())):
                return False  # a fraction taken off may not give back the sum exactly
        _items(node, gone, i, vec, -1)
        _items(node, came, i, vec, 1)
        if n_old != n_new and node.count is not None:
            add(vec, node.count, n_new - n_old)
        return True
    if (to is str or old is None or to is bool) and (tn is str or new is None or tn is bool):
        _write(node, old, vec, -1)
        _write(node, new, vec)
        return True
    return False


def _same_length(node: Node, old: list[Any], new: list[Any], vec: array) -> bool:
    """``_delta`` of a list that kept its length: each changed position on its own (a piece
    of the same type and fields by the fields that changed, any other item taken off and
    put back)."""
    for i in compress(range(len(new)), map(ne, old, new)):
        a, b = old[i], new[i]
        if type(a) is dict and type(b) is dict:
            kind = a.get("type", i)
            if kind == b.get("type", i) and a.keys() == b.keys():
                found = node.kinds.get(kind)
                if found is None:
                    name = f"{node.path}[{kind}]"
                    found = node.kinds[kind] = (node.index.get(name), Node(name, node.index))
                sub = found[1]
                kids = sub.kids
                for key in compress(b, map(ne, map(a.__getitem__, b), b.values())):
                    if not _delta(kids.get(key) or sub.kid(key), a[key], b[key], vec):
                        return False  # "type" never differs here: the kinds are equal
                continue
            if any(type(x) is float for x in a.values()):
                return False  # a fraction taken off may not give back the sum exactly
        elif type(a) is float:
            return False
        _items(node, [a], i, vec, -1)
        _items(node, [b], i, vec, 1)
    return True


class Block:
    """One block of the vector (the global fields, or one seat's fields as seen by the seat or
    by the others) and the walk of each of its fields."""

    def __init__(self, names: list[str], slices: dict[str, tuple[int, int]], prefix: str) -> None:
        self.vec = array("f", bytes(4 * len(names)))
        self.zeros = array("f", bytes(4 * len(names)))
        self.slices = slices
        self.index = {n: i for i, n in enumerate(names)}
        self.prefix = prefix
        self.nodes: dict[str, Node] = {}
        # each field's own feature, where its value is a number (None: not in the layout)
        self.num_at = _NumAt(self.index, prefix)

    def fill(self, name: str, shown: Any, was: Any = MISSING) -> None:
        """Refill field ``name``'s slice from its shown value (GONE: not in the view); ``was``,
        the value it was filled from when shown as it is, lets it change only what differs."""
        where = self.slices.get(name)
        if where is None:
            return  # no feature of this field was ever seen: nothing of it is in the vector
        node = self.nodes.get(name) or self.node(name)
        vec = self.vec
        if was is not MISSING and was is not GONE and shown is not GONE:
            if _delta(node, was, shown, vec):
                return
        a, b = where
        vec[a:b] = self.zeros[a:b]
        if shown is not GONE:
            _write(node, shown, vec)

    def node(self, name: str) -> Node:
        """Field ``name``'s walk, made the first time it is asked for."""
        node = self.nodes[name] = Node(self.prefix + name, self.index)
        return node

    def take(self, name: str, block: Block) -> None:
        """Field ``name``'s slice as ``block`` has it (a field every seat sees alike)."""
        where = self.slices.get(name)
        if where is not None:
            a, b = where
            self.vec[a:b] = block.vec[a:b]


class _NumAt(dict):
    """Field name -> the position of the feature of its value as a number (None: none)."""

    def __init__(self, index: dict[str, int], prefix: str) -> None:
        super().__init__()
        self.index = index
        self.prefix = prefix

    def __missing__(self, name: str) -> int | None:
        at = self[name] = self.index.get(self.prefix + name)
        return at


def refilled(
    refill: Any, block: Block, name: str, was: Any, value: Any, vec2: array | None
) -> bool:
    """Whether field ``name`` of ``block`` was brought from ``was`` to ``value`` in place by
    its refill (refill.py; ``vec2``: the block the other seats see, shown alike); False where
    it has none, the type changed or the refill stopped short (the caller walks it then)."""
    if refill is None or type(was) is not type(value):
        return False
    node = block.nodes.get(name) or block.node(name)
    if type(value) is list and len(value) > len(was):  # (a list's refill: refill_area)
        return _grown(refill, node, was, value, block.vec, vec2)
    return refill(node, was, value, block.vec, vec2)


def _grown(
    refill: Any, node: Node, was: list[Any], new: list[Any], vec: array, vec2: array | None
) -> bool:
    """A list of flat pieces that gained pieces at its end (a piece placed): its copy
    ``was`` refilled in place where its pieces changed and extended by copies of the new
    ones, their features added, so the records of its pieces (owners.py) stay good. False,
    the copy and vector consistent, where the pieces it had cannot be refilled."""
    n = len(was)
    came = new[n:]
    for item in came:
        if type(item) is not dict:
            return False
    if not refill(node, was, new[:n], vec, vec2):
        return False
    for v in (vec, vec2):
        if v is not None:
            _items(node, came, n, v, 1)
            if node.count is not None:
                add(v, node.count, len(came))
    was.extend([item.copy() for item in came])
    return True
