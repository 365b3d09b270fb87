"""The pieces every typed rule object is made of: where it was written (:class:`Pos`, or
:class:`Places` for the parts only a report needs, found when asked), plain values out of the
position-carrying YAML tree, and small readers that turn a tree node into a typed value (a
text, a number, a map of texts) whatever an overlay or a hand-made tree put there.

>>> plain({"a": [1, "x"]})
{'a': [1, 'x']}
>>> texts({"one": "A", "two": 2})
{'one': 'A', 'two': '2'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeAlias, TypeVar, cast

from interpreter.load.locate import (
    is_map,
    is_seq,
    key_position,
    locate,
    node_position,
    position_of,
)

__all__ = [
    "NONE_WORD",
    "NOWHERE",
    "Places",
    "Plain",
    "Pos",
    "TreePath",
    "Value",
    "empty_map",
    "frozen_map",
    "items_of",
    "key_pos",
    "node_pos",
    "plain",
    "rule_value",
    "seq_of",
    "text",
    "texts",
    "value_at",
    "written_at",
    "written_beside",
]

# A value as YAML writes it, once out of the tree: what a catalog attribute, a table or a
# player-count row holds (the rule language's own values)
Plain: TypeAlias = "str | int | float | bool | None | list[Plain] | dict[str, Plain]"

# A value as a rule text reads it (a table, a catalog attribute, a field's start value): maps
# and lists as plain dicts and lists, their keys as YAML read them (a table by player count is
# keyed by numbers, which a text's `table[players]` looks up), the word `none` as no value
Value: TypeAlias = "str | int | float | bool | None | list[Value] | dict[Any, Value]"

# the word a rule file writes for no value
NONE_WORD = "none"

# Where a typed object sits in the composed tree, from its top: the keys and list indexes a
# JSON pointer (``/phases/builder/0/choose``) is made of
TreePath: TypeAlias = tuple[str | int, ...]

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Pos:
    """Where a rule text was written: 1-based line and column; any part None when unknown (a
    tree built in code)."""

    file: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        return ":".join(str(p) for p in (self.file or "<rules>", self.line, self.column) if p)


NOWHERE = Pos()


@dataclass(frozen=True, slots=True)
class Places:
    """Where the parts of one map (or list) of the rule files were written, found when asked:
    what a report needs, and reading the rules does not, so loading them finds none. ``path``
    names a part below the map, as keys and list indexes."""

    node: object = field(default=None, repr=False)
    # the key of the part itself in ``node`` where ``node`` is the map holding it (a table's,
    # whose value may be a number, which keeps no place of its own)
    prefix: tuple[str | int, ...] = ()

    def key(self, *path: str | int) -> Pos:
        """Where the last key of ``path`` was written (a list's item: the item)."""
        return Pos(*locate(self.node, (*self.prefix, *path), key=True))

    def value(self, *path: str | int) -> Pos:
        """Where the value at ``path`` was written (its key where the value has none)."""
        return Pos(*locate(self.node, (*self.prefix, *path)))


def key_pos(container: object, key: object) -> Pos:
    """Where ``key`` of a map (an item of a list) was written."""
    return Pos(*key_position(container, key))


def node_pos(node: object) -> Pos:
    """Where a map or list of the tree starts."""
    return Pos(*node_position(node))


def written_at(container: object, key: object) -> Pos:
    """Where an author reads ``container[key]`` as written: its key (a list item: the item),
    else its value where the key has no recorded place (a YAML merge)."""
    found = key_position(container, key)
    return Pos(*(found if found[1] is not None else position_of(container, key)))


def written_beside(container: object, key: object, value: object) -> Pos:
    """:func:`written_at` for ``container[key]`` set to ``value``, the container left as it
    is (a node the engine writes in beside the rules)."""
    found = key_position(container, key)
    return Pos(*(found if found[1] is not None else position_of(container, key, value)))


def value_at(container: object, key: object) -> Pos:
    """Where the value ``container[key]`` was written (its key where the value has none)."""
    return Pos(*position_of(container, key))


def plain(value: object) -> Plain:
    """Nested maps and lists of the tree as plain dicts and lists (keys as text)."""
    if is_map(value):
        return {str(k): plain(v) for k, v in value.items()}
    if is_seq(value):
        return [plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def rule_value(value: object) -> Value:
    """The value a rule text reads where ``value`` is written (see :data:`Value`)."""
    if isinstance(value, dict):
        return {k: rule_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rule_value(v) for v in value]
    if isinstance(value, str):
        return None if value == NONE_WORD else str(value)
    return cast(Value, value)  # a number, true/false, or a scalar YAML reads otherwise


def text(value: object, default: str = "") -> str:
    """A text field: its words, or ``default`` where it is absent."""
    return default if value is None else str(value)


def texts(value: object) -> dict[str, str]:
    """A map of texts (``labels:``, ``icons:``): keys and values as text; anything else empty."""
    return {str(k): str(v) for k, v in value.items()} if is_map(value) else {}


def empty_map() -> Mapping[str, Any]:
    """An empty read-only map: a typed object's default."""
    return MappingProxyType({})


def frozen_map(items: Mapping[str, V]) -> Mapping[str, V]:
    """A read-only view of a new dict of ``items``: what a typed object holds."""
    return MappingProxyType(dict(items))


def items_of(value: object) -> list[tuple[str, object]]:
    """The (key, value) pairs of a map node; none for anything else."""
    return [(str(k), v) for k, v in value.items()] if is_map(value) else []


def seq_of(value: object) -> Sequence[object]:
    """The items of a list node; none for anything else."""
    return value if is_seq(value) else ()
