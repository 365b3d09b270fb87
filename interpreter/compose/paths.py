"""List items found by what they are, not by where they stand.

An overlay path segment finds an item of a list by its position (digits), by its ``name:``,
by its ``id:`` (an option), by its id's family (the part of the id before the first ``:``,
when one item of the list has it) or, in a list of words, by the word itself
(``sets/colors/red``). Positions move when another overlay inserts or removes an
item; names, ids and values do not, so :func:`better_segment` says which of them to use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from interpreter.load.locate import is_map, is_seq, plain_key, resolve_key
from interpreter.load.node import Key, Node, NodeSeq

__all__ = [
    "Lookup",
    "better_segment",
    "find_item",
    "item_label",
    "item_preview",
    "labels_of",
    "named_path",
]


@dataclass(frozen=True)
class Lookup:
    """What a segment found: ``key`` (a map key or list index) when ``found``; ``problem``
    says why a segment that matches several items finds none of them."""

    found: bool
    key: Key = None
    problem: str = ""

    @property
    def index(self) -> int:
        """``key`` where the segment found an item of a list: its position."""
        assert isinstance(self.key, int), self.key
        return self.key


def find_item(container: Node, segment: Key) -> Lookup:
    """The entry of ``container`` that path segment ``segment`` names (see the module doc)."""
    if not (is_seq(container) and isinstance(segment, str) and segment and not segment.isdigit()):
        found, real = resolve_key(container, segment)
        return Lookup(found, real)
    for what, matches in (
        ("`name:`", [i for i, x in enumerate(container) if _field(x, "name") == segment]),
        ("`id:`", [i for i, x in enumerate(container) if _field(x, "id") == segment]),
        ("value", [i for i, x in enumerate(container) if isinstance(x, str) and x == segment]),
        ("id family", [i for i, x in enumerate(container) if _family(x) == segment]),
    ):
        if len(matches) == 1:
            return Lookup(True, matches[0])
        if matches:
            where = ", ".join(str(i) for i in matches)
            return Lookup(False, None, f"'{segment}' is the {what} of items {where}")
    return Lookup(False)


def better_segment(container: NodeSeq, index: int) -> str | None:
    """The segment that finds item ``index`` of a list by name, id, value or id family, or
    None when it has none that finds it alone."""
    item = container[index]
    if is_map(item):
        candidates = [_field(item, "name"), _family(item), _field(item, "id")]
    else:
        candidates = [item if isinstance(item, str) else None]
    for seg in candidates:
        if not seg or seg.isdigit() or "/" in seg or "~" in seg or seg == "-":
            continue
        if find_item(container, seg).key == index:
            return seg
    return None


def named_path(root: Node, path: Sequence[Key]) -> list[Key]:
    """`path` into `root` with each list position spelt by the item's `name:`, its option id
    (or id family) or, in a list of words, its word, where that finds it alone: the spelling
    an overlay should use, which survives items added before it. Segments past what `root`
    holds (a text's inside, a position out of range) are kept as written."""
    out: list[Key] = []
    node = root
    for segment in path:
        index = int(segment) if isinstance(segment, str) and segment.isdigit() else segment
        if is_seq(node) and isinstance(index, int) and 0 <= index < len(node):
            out.append(better_segment(node, index) or segment)
            node = node[index]
        elif is_map(node) and segment in node:
            out.append(segment)
            node = node[segment]
        else:
            out.append(segment)
            node = None
    return out


def item_label(item: Node) -> str | None:
    """The word an item is found by (its name, id or value), for lists of suggestions."""
    if is_map(item):
        return _field(item, "name") or _field(item, "id")
    return item if isinstance(item, str) else None


def item_preview(item: Node, lines: int = 3, width: int = 60) -> str:
    """The first ``lines`` entries of an item as they read in a rule file, one line each and
    joined by `` | `` (a nested map or list shown as ``{...}`` / ``[...]``), so a message can
    show what a path finds without the file at hand."""
    if not is_map(item):
        return _short(item, width)
    shown = [f"{plain_key(k)}: {_short(v, width)}" for k, v in list(item.items())[:lines]]
    return " | ".join(shown) + (" | ..." if len(item) > lines else "")


def _short(value: Node, width: int) -> str:
    if is_map(value):
        return "{...}" if value else "{}"
    if is_seq(value):
        return "[...]" if value else "[]"
    text = str(value).strip()
    first, _, rest = text.partition("\n")
    if len(first) > width or rest:
        first = first[:width].rstrip() + " ..."
    return first


def labels_of(container: NodeSeq) -> list[str]:
    """Every name, id, id family and value that can address an item of a list."""
    out: list[str] = []
    for item in container:
        for label in (item_label(item), _family(item)):
            if label and label not in out:
                out.append(label)
    return out


def _field(item: Node, key: str) -> str | None:
    value = item.get(key) if is_map(item) else None
    return value if isinstance(value, str) else None


def _family(item: Node) -> str | None:
    ident = _field(item, "id")
    return ident.split(":", 1)[0] if ident else None
