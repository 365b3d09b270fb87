"""The rule tree as the loader gives it, typed: maps, lists and scalars, nested.

A rule file loads (:mod:`interpreter.load.yamlload`) into ruamel ``CommentedMap`` and
``CommentedSeq`` containers holding scalars: text, whole numbers, booleans, decimals and null
(dates are read as text, and no tag builds any other object). Composition
(:mod:`interpreter.compose`) copies and edits such trees, and code may build the same shapes
from plain dicts and lists. :data:`Node` names that shape for the type checker, read-only:
:data:`NodeMap` and :data:`NodeSeq` are the abstract ``Mapping`` and ``Sequence`` the
position helpers (:mod:`interpreter.load.locate`) accept, whatever built them.

:func:`is_map` and :func:`is_seq` are the runtime tests that narrow a :data:`Node` to a map or
a list. A value typed ``Any`` (rule data as the readers outside ``load/`` and ``compose/``
hold it) they narrow to ``Mapping[Any, Any]`` / ``Sequence[Any]``: the tree is checked where
it is typed a :data:`Node`, and other code keeps its own types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeGuard, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import TypeIs

__all__ = [
    "Key",
    "Node",
    "NodeMap",
    "NodeSeq",
    "Scalar",
    "child",
    "is_map",
    "is_scalar",
    "is_seq",
]

# A YAML scalar as loaded (a boolean is an int; ruamel's ScalarInt, ScalarFloat and its
# string subclasses are these types too).
Scalar: TypeAlias = str | int | float | None
# A map key: rule files write text, and whole numbers for tables by player count or seat.
Key: TypeAlias = Scalar
NodeMap: TypeAlias = Mapping[Key, "Node"]
NodeSeq: TypeAlias = Sequence["Node"]
Node: TypeAlias = NodeMap | NodeSeq | Scalar

_T = TypeVar("_T")


def is_map(node: object) -> TypeIs[Mapping[Any, Any]]:
    """Whether ``node`` is a map: a :data:`Node` narrows to :data:`NodeMap` (and, when not,
    to a list or a scalar)."""
    return isinstance(node, Mapping)


@overload
def is_seq(node: Sequence[_T] | NodeMap | Scalar) -> TypeGuard[Sequence[_T]]: ...
@overload
def is_seq(node: object) -> TypeGuard[Sequence[Any]]: ...
def is_seq(node: object) -> bool:
    """Whether ``node`` is a list (text is not one): a :data:`Node` narrows to
    :data:`NodeSeq`, anything else to ``Sequence[Any]``. A ``TypeGuard``, not a ``TypeIs``:
    text is a ``Sequence`` to the type checker, so a negative answer must not rule text out."""
    return isinstance(node, Sequence) and not isinstance(node, str | bytes)


def is_scalar(node: object) -> TypeIs[Scalar]:
    """Whether ``node`` is a scalar: text, a number, a boolean or null."""
    return node is None or isinstance(node, str | int | float)


def child(node: Node, key: Key) -> Node:
    """``node[key]``: the entry ``key`` of a map, or item ``key`` of a list; KeyError,
    IndexError or TypeError where there is none (a scalar has no entries)."""
    if is_map(node):
        return node[key]
    if is_seq(node) and isinstance(key, int):
        return node[key]
    raise TypeError(f"no entry {key!r} in {type(node).__name__}")
