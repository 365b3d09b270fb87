"""The named definitions rule texts use: ``functions:`` and ``procedures:`` (texts with
parameters, inlined where called), ``events:`` (what a rule may ``emit``), ``sets:`` (named
lists of ids) and ``extension-points:`` (the names a ruleset keeps for its overlays), each
with where it sits in the tree and where it was written.

>>> defs = Definitions.from_data({"functions": {"twice": {"params": ["x"], "expr": "x * 2"}},
...                               "extension-points": ["twice", "nothing"]})
>>> f = defs.functions["twice"]
>>> f.kind, f.params, f.body, f.path
('function', ('x',), 'x * 2', ('functions', 'twice'))
>>> [(p.name, p.path) for p in defs.extension_points]
[('twice', ('extension-points', 0)), ('nothing', ('extension-points', 1))]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.load.locate import is_map
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    plain,
    seq_of,
    text,
    value_at,
    written_at,
)

__all__ = ["Definitions", "InvariantDecl", "Named", "NamedList", "RuleFunction"]


@dataclass(frozen=True, slots=True)
class RuleFunction:
    """A function (``expr:``, a value) or a procedure (``do:``, statements): ``body``."""

    kind: str  # "function" or "procedure"
    name: str
    params: tuple[str, ...]
    body: Plain
    doc: str = ""
    path: TreePath = ()
    pos: Pos = NOWHERE

    @classmethod
    def from_node(cls, section: str, name: Any, decl: object, pos: Pos) -> RuleFunction:
        """The entry ``name`` of ``functions:`` or ``procedures:`` (``section``), written at
        ``pos``."""
        spec = decl if is_map(decl) else {}
        kind, body = ("function", "expr") if section == "functions" else ("procedure", "do")
        return cls(
            kind,
            str(name),
            tuple(str(p) for p in seq_of(spec.get("params"))),
            plain(spec.get(body)),
            text(spec.get("doc")),
            (section, name),
            pos,
        )


@dataclass(frozen=True, slots=True)
class NamedList:
    """A named list of names: a set's members, an event's parameters."""

    name: str
    items: tuple[Plain, ...]
    path: TreePath = ()
    pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class Named:
    """One name of a list (``extension-points:``), at the item's place."""

    name: str
    path: TreePath = ()
    pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class InvariantDecl:
    """An ``invariants:`` entry: a condition that holds after every decision (``expr``, as
    written), its ``doc``, and the path of its text (``invariants/NAME/expr``, or
    ``invariants/NAME`` where the condition is written alone)."""

    name: str
    expr: Plain
    doc: str = ""
    path: TreePath = ()


def _invariants(data: Mapping[object, object]) -> tuple[InvariantDecl, ...]:
    node = data.get("invariants")
    return tuple(
        InvariantDecl(
            str(name),
            plain(spec.get("expr", "")),
            str(spec.get("doc", "")),
            ("invariants", name, "expr"),
        )
        if is_map(spec)
        else InvariantDecl(str(name), plain(spec), "", ("invariants", name))
        for name, spec in (node.items() if is_map(node) else ())
    )


def _functions(data: Mapping[object, object], section: str) -> Mapping[str, RuleFunction]:
    node = data.get(section)
    return frozen_map(
        {
            str(name): RuleFunction.from_node(section, name, decl, written_at(node, name))
            for name, decl in (node.items() if is_map(node) else ())
        }
    )


def _lists(data: Mapping[object, object], section: str) -> Mapping[str, NamedList]:
    node = data.get(section)
    return frozen_map(
        {
            str(name): NamedList(
                str(name),
                tuple(plain(v) for v in seq_of(items)),
                (section, name),
                written_at(node, name),
            )
            for name, items in (node.items() if is_map(node) else ())
        }
    )


@dataclass(frozen=True, slots=True)
class Definitions:
    """Functions, procedures, events, sets and extension points, by name in written order."""

    functions: Mapping[str, RuleFunction] = field(default_factory=empty_map)
    procedures: Mapping[str, RuleFunction] = field(default_factory=empty_map)
    events: Mapping[str, NamedList] = field(default_factory=empty_map)
    sets: Mapping[str, NamedList] = field(default_factory=empty_map)
    # None: no `extension-points:` list written (an empty one keeps nothing either)
    extension_points: tuple[Named, ...] | None = None
    invariants: tuple[InvariantDecl, ...] = ()

    @classmethod
    def from_data(cls, data: object) -> Definitions:
        if not is_map(data):
            return cls()
        listed = data.get("extension-points")
        points = (
            tuple(
                Named(str(name), ("extension-points", i), value_at(listed, i))
                for i, name in enumerate(seq_of(listed))
            )
            if listed is not None and seq_of(listed) is listed
            else None
        )
        return cls(
            _functions(data, "functions"),
            _functions(data, "procedures"),
            _lists(data, "events"),
            _lists(data, "sets"),
            points,
            _invariants(data),
        )
