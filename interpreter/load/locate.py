"""From a node and a JSON path back to ``file:line:column`` (cfn-lint's trick, for YAML).

Every container loaded by :mod:`interpreter.load.yamlload` is a ruamel ``CommentedMap`` /
``CommentedSeq`` whose ``.lc`` holds 0-based positions of its keys and values, and which is
tagged with the file it came from.  Composition (:mod:`interpreter.compose.overlays`) builds
trees that mix nodes from several files; when it sets a single entry of a copied container from
another file it records that entry's file in a per-container side table, so every position
stays true.

Positions returned here are 1-based ``(file, line, column)`` triples; any part may be ``None``
when unknown (e.g. data built in code).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ruamel.yaml.comments import CommentedBase

from interpreter.load.node import Key, Node, child, is_map, is_seq

if TYPE_CHECKING:
    from ruamel.yaml.comments import LineCol

__all__ = [
    "FILE_ATTR",
    "KEYFILES_ATTR",
    "Position",
    "node_file",
    "set_node_file",
    "entry_file",
    "set_entry_file",
    "node_position",
    "position_of",
    "key_position",
    "locate",
    "node_at",
    "path_at",
    "position_at",
    "json_pointer",
    "slash_path",
    "split_path",
    "plain_key",
    "resolve_key",
    "is_map",
    "is_seq",
]

Position = tuple[str | None, int | None, int | None]
# nodes set in beside a tree, by their paths (see :func:`locate`)
Written = Mapping[tuple[Key, ...], Node]

# Attribute names set on ruamel containers (they accept attributes; plain dicts do not).
FILE_ATTR = "_rulebook_file"
KEYFILES_ATTR = "_rulebook_keyfiles"

_UNKNOWN: Position = (None, None, None)
# no value given (position_of reads the container's own)
_UNSET = object()


def node_file(node: object) -> str | None:
    """File a container node was loaded from (None for scalars and code-built data)."""
    try:
        return getattr(node, FILE_ATTR, None)
    except Exception:  # exotic objects with odd __getattr__
        return None


def set_node_file(node: object, path: str | None) -> None:
    """Tag a container with its file; silently skipped for objects that take no attributes."""
    try:
        setattr(node, FILE_ATTR, path)
    except (AttributeError, TypeError):
        pass


def entry_file(container: object, key: object) -> str | None:
    """File that supplied ``container[key]`` (differs from the container's after an overlay)."""
    table = getattr(container, KEYFILES_ATTR, None)
    if table and key in table:
        return table[key]
    return node_file(container)


def set_entry_file(container: object, key: object, path: str | None) -> None:
    """Record that one entry of ``container`` came from another file than the container."""
    table = getattr(container, KEYFILES_ATTR, None)
    if table is None:
        table = {}
        try:
            setattr(container, KEYFILES_ATTR, table)
        except (AttributeError, TypeError):
            return
    table[key] = path


def _lc(node: object) -> LineCol | None:
    # ruamel's .lc property creates an empty LineCol on demand; only trust it on ruamel nodes.
    if not isinstance(node, CommentedBase):
        return None
    try:
        lc: LineCol = node.lc
        return lc
    except Exception:
        return None


def _one(v: object) -> int | None:
    return v + 1 if isinstance(v, int) else None


def node_position(node: object) -> Position:
    """Where a container starts (its first key or item for block style, the bracket for flow)."""
    lc = _lc(node)
    if lc is None:
        return (node_file(node), None, None)
    return (node_file(node), _one(lc.line), _one(lc.col))


def _entry(container: object, key: object) -> Sequence[int] | None:
    lc = _lc(container)
    if lc is None:
        return None
    data = getattr(lc, "data", None)
    if not data:
        return None
    try:
        entry = data.get(key)
    except TypeError:
        return None
    return entry if isinstance(entry, list | tuple) else None


def key_position(container: object, key: object) -> Position:
    """Position of the KEY ``key`` in a map (of the item for a sequence)."""
    entry = _entry(container, key)
    if entry is None or len(entry) < 2:
        # Keys brought in by a YAML merge (<<) have no entry; the map itself is the best we know.
        return (entry_file(container, key),) + node_position(container)[1:]
    return (entry_file(container, key), _one(entry[0]), _one(entry[1]))


def position_of(container: object, key_or_index: object, value: object = _UNSET) -> Position:
    """Position of the VALUE ``container[key_or_index]`` (the key when the value has none).
    ``value``: the place it has there once ``container[key_or_index]`` is set to it, the
    container left as it is (a node the engine writes in beside the rules)."""
    key = key_or_index
    entry = _entry(container, key)
    if value is _UNSET:
        value = _get(container, key)
    if entry is not None and len(entry) >= 4 and value is not None:
        return (entry_file(container, key), _one(entry[2]), _one(entry[3]))
    if entry is not None and len(entry) >= 2:
        # Sequence items, and empty values whose recorded position is the next token.
        return (entry_file(container, key), _one(entry[0]), _one(entry[1]))
    if value is not None and _lc(value) is not None and node_file(value) is not None:
        return node_position(value)
    return key_position(container, key)


def _get(container: object, key: object) -> object:
    try:
        return container[key]  # type: ignore[index]  # any value: one without entries raises
    except (KeyError, IndexError, TypeError):
        return None


def plain_key(key: object) -> str:
    """How a YAML key looks in JSON paths: ``True`` -> ``'true'``, ``3`` -> ``'3'``."""
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    return str(key)


def resolve_key(container: object, segment: Key) -> tuple[bool, Key]:
    """Find the real key/index for a path segment: ``'3'`` finds an int key 3, ``0`` an item,
    ``'choose-roles'`` the one item of a list whose ``name:`` it is."""
    if is_map(container):
        try:
            if segment in container:
                return True, segment
        except TypeError:
            return False, None
        if isinstance(segment, int) and not isinstance(segment, bool):
            if str(segment) in container:
                return True, str(segment)
        # Integer-keyed tables ({3: 2, 4: 3}) are addressed with text segments ("3").
        text = plain_key(segment)
        for k in container:
            if plain_key(k) == text:
                return True, k
        return False, None
    if is_seq(container):
        if isinstance(segment, bool):
            return False, None
        if isinstance(segment, int):
            index = segment
        elif isinstance(segment, str) and segment.isdigit():
            index = int(segment)
        elif isinstance(segment, str):
            # a list item by its name (a step's `name:`), stable where its position is not
            named = [
                i
                for i, item in enumerate(container)
                if is_map(item) and item.get("name") == segment
            ]
            return (True, named[0]) if len(named) == 1 else (False, None)
        else:
            return False, None
        if 0 <= index < len(container):
            return True, index
    return False, None


def locate(
    root: object,
    path: Sequence[Key],
    *,
    key: bool = False,
    written: Written | None = None,
) -> Position:
    """Deepest known position along ``path``.

    A missing segment points at the key that owns the map it is missing from (``entry:``),
    which is where an author adds it.  With ``key=True`` the position of the last key is
    returned instead of its value (for "unknown key" and "missing key" messages).
    ``written``: nodes set in beside ``root`` by their paths (``root`` itself unchanged),
    found there as though ``root`` held them.
    """
    current = root
    value_pos: Position = node_position(root)
    owner_pos: Position = value_pos
    for depth, segment in enumerate(path):
        beside = written.get(tuple(path[: depth + 1])) if written else None
        if beside is not None:
            value_pos = position_of(current, segment, beside)
            owner_pos = key_position(current, segment)
            current = beside
            continue
        found, real = resolve_key(current, segment)
        if not found:
            return owner_pos if owner_pos[1] is not None else value_pos
        value_pos = position_of(current, real)
        owner_pos = key_position(current, real)
        current = _get(current, real)
    if key:
        return owner_pos if owner_pos[1] is not None else value_pos
    return value_pos


def node_at(root: Node, path: Sequence[Key], written: Written | None = None) -> Node:
    """The node at ``path`` of ``root``, or of the nodes ``written`` beside it by their paths
    (:func:`locate`); raises KeyError, IndexError or TypeError where there is none."""
    node = root
    if not written:
        for segment in path:
            node = child(node, segment)
        return node
    for depth, segment in enumerate(path):
        beside = written.get(tuple(path[: depth + 1]))
        node = child(node, segment) if beside is None else beside
    return node


def position_at(root: Node, path: Sequence[Key], written: Written | None = None) -> Position:
    """Position of the value at ``path`` in its container (:func:`position_of`), the nodes
    ``written`` beside ``root`` found by their paths; where ``path`` leads nowhere, the deepest
    known position along it (:func:`locate`)."""
    try:
        parent = node_at(root, path[:-1], written)
    except (KeyError, IndexError, TypeError):
        return locate(root, path, written=written)
    try:
        beside = written.get(tuple(path)) if written else None
        if beside is not None:
            return position_of(parent, path[-1], beside)
        return position_of(parent, path[-1])
    except Exception:  # noqa: BLE001 - positions are best effort
        return locate(root, path, written=written)


def path_at(root: Node, line: int) -> list[Key]:
    """The path of the deepest entry of ``root`` written at 1-based ``line`` or spanning it
    (a key whose block of text or of entries the line is in): the inverse of :func:`locate`.
    Empty when the line is before the first entry."""
    path: list[Key] = []
    node = root
    while is_map(node) or is_seq(node):
        keys = list(node) if is_map(node) else list(range(len(node)))
        found: Key = None
        starts: list[int] = []
        for k in keys:
            at = key_position(node, k)[1]
            if at is None or at > line:
                break
            found = k
            starts.append(at)
        if found is None or starts.count(starts[-1]) > 1:
            break  # before the first entry, or a line of several (`{pile: cards, hidden: true}`)
        path.append(found)
        node = child(node, found)
    return path


def _escape(segment: object) -> str:
    return plain_key(segment).replace("~", "~0").replace("/", "~1")


def json_pointer(path: Sequence[Key]) -> str:
    """RFC 6901 pointer: ``['a', 'b/c', 0]`` -> ``'/a/b~1c/0'`` (``''`` for the root)."""
    return "".join("/" + _escape(segment) for segment in path)


def slash_path(path: Sequence[Key]) -> str:
    """The overlay spelling of a path: like a JSON pointer without the leading slash."""
    return "/".join(_escape(segment) for segment in path)


def split_path(text: str) -> list[str]:
    """Inverse of :func:`slash_path` / :func:`json_pointer` (a leading ``/`` is optional)."""
    if text.startswith("/"):
        text = text[1:]
    if text == "":
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in text.split("/")]
