"""Checks made on a YAML document's node graph once it is composed, before any data is built.

ruamel's composer gives the document as a graph of nodes in which an alias is the anchored node
itself, shared. Anything that walks the data as a tree (schema checks, JSON, composition) pays
for every alias a whole copy, so the limits are counted here, on the graph, where counting is
cheap: a recursive alias (an anchor used inside its own value) is refused, and so is an "alias
bomb", a document whose copies would hold more than :data:`MAX_ALIAS_EXPANSION` extra nodes
(nested aliases, the billion laughs) or weigh more than :func:`expansion_limit` (scalar
characters plus one a node: a long text aliased thousands of times). Keys are checked on the
way: duplicates with both positions, and keys that are not scalars.

Refusals carry a code and the ruamel mark of the culprit; ``interpreter.load.yamlload`` turns
them into located diagnostics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ruamel.yaml.nodes import MappingNode, Node as YamlNode, ScalarNode, SequenceNode

__all__ = [
    "MAX_ALIAS_EXPANSION",
    "EXPANSION_FACTOR",
    "EXPANSION_FLOOR",
    "Finding",
    "Findings",
    "Mark",
    "Refusal",
    "check_graph",
    "check_tree_keys",
    "expansion_limit",
]

MAX_ALIAS_EXPANSION = 100_000
# The plain data of a file (every alias copied out, as schema checks and composition see it) may
# weigh at most this many times the file's own characters, and at least EXPANSION_FLOOR: a rule
# file's aliases repeat small pieces, never a large text thousands of times.
EXPANSION_FACTOR = 10
EXPANSION_FLOOR = 1_000_000


class Mark(Protocol):
    """Where a YAML node starts: ruamel's mark, or PyYAML's on the libyaml path (0-based)."""

    line: int
    column: int


# (code, message, where, hint) of one problem
Finding = tuple[str, str, Mark | None, str | None]


def expansion_limit(size: int) -> int:
    """The most a file of ``size`` characters may weigh once its aliases are copied out.

    The weight of plain data is one per node plus the characters of every scalar, each alias
    counting the whole weight of its anchor's value.
    """
    return max(EXPANSION_FLOOR, EXPANSION_FACTOR * size)


class Refusal(Exception):
    """Raised inside the composer; carries a ready code and the ruamel mark of the culprit."""

    def __init__(self, code: str, message: str, mark: Mark | None, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.mark = mark
        self.hint = hint


class Findings(Exception):
    """Several non-fatal problems found while walking the node graph (e.g. duplicate keys)."""

    def __init__(self, items: list[Finding]) -> None:
        super().__init__(f"{len(items)} problem(s)")
        self.items = items


def _children(node: YamlNode) -> list[YamlNode]:
    if isinstance(node, MappingNode):
        out: list[YamlNode] = []
        for k, v in node.value:
            out.append(k)
            out.append(v)
        return out
    if isinstance(node, SequenceNode):
        return list(node.value)
    return []


def check_graph(
    root: YamlNode, alias_uses: Sequence[tuple[Mark, YamlNode]], weight_limit: int
) -> None:
    """Refuse recursive aliases and alias bombs; collect duplicate and non-scalar keys.

    Aliases make the node graph a DAG: building it is cheap, but anything that walks the data
    as a tree (schemas, JSON, composition) pays the expanded size, in nodes and in the text
    each copy holds.  Memoised sizes and weights keep this check linear in the number of
    distinct nodes.
    """
    size: dict[int, int] = {}
    weight: dict[int, int] = {}  # nodes + scalar characters of the node's expanded value
    state: dict[int, int] = {}  # 1 = on the current DFS path, 2 = done
    findings: list[Finding] = []
    distinct = 0
    written = 0  # weight of the distinct nodes: the data as written, each alias once
    stack: list[tuple[YamlNode, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        nid = id(node)
        if finished:
            children = _children(node)
            size[nid] = 1 + sum(size[id(c)] for c in children)
            own = _own_weight(node)
            written += own
            weight[nid] = own + sum(weight[id(c)] for c in children)
            state[nid] = 2
            continue
        if state.get(nid) == 2:
            continue
        state[nid] = 1
        distinct += 1
        stack.append((node, True))
        if isinstance(node, MappingNode):
            _check_keys(node, findings)
        for child in _children(node):
            child_state = state.get(id(child))
            if child_state == 1:
                anchor = getattr(child, "anchor", None)
                name = f" '&{anchor}'" if anchor else ""
                raise Refusal(
                    "Y008",
                    f"recursive alias: anchor{name} is used inside its own value",
                    getattr(child, "start_mark", None),
                )
            if child_state != 2:
                stack.append((child, False))
    expanded = size.get(id(root), 1)
    if expanded > distinct + MAX_ALIAS_EXPANSION:
        raise Refusal(
            "Y007",
            f"aliases expand this document to {expanded} nodes "
            f"(limit: {MAX_ALIAS_EXPANSION} more than the {distinct} written)",
            getattr(root, "start_mark", None),
            "use fewer nested aliases (&anchor / *alias)",
        )
    if weight.get(id(root), 0) > weight_limit:
        _refuse_heavy(alias_uses, weight, written, weight_limit)
    if findings:
        raise Findings(findings)


def _own_weight(node: YamlNode) -> int:
    """A node's weight without its children: one, plus its text for a scalar."""
    value = node.value
    return 1 + len(value) if isinstance(value, str) else 1


def _refuse_heavy(
    alias_uses: Sequence[tuple[Mark, YamlNode]], weight: dict[int, int], written: int, limit: int
) -> None:
    """Refuse at the first alias (in document order) whose copy takes the data past ``limit``.

    The data written once weighs ``written`` (its distinct nodes); each alias use adds its
    anchor's whole expanded weight (an alias inside an anchored value is counted where it is
    written, and again inside every copy of that value, as the plain data holds it), so the
    uses add up to exactly the plain data's weight.
    """
    total = written
    for mark, node in alias_uses:
        total += weight.get(id(node), 0)
        if total > limit:
            raise Refusal(
                "Y007",
                f"aliases copy more than {limit:,} characters of data out of this file "
                f"(at most {EXPANSION_FACTOR} times its size, and at least {EXPANSION_FLOOR:,})",
                mark,
                "each use of an alias copies its anchor's whole value: "
                "write a large text once, not an alias of it many times",
            )


def check_tree_keys(root: YamlNode) -> None:
    """:func:`check_graph`'s key checks, for a document without aliases."""
    findings: list[Finding] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            _check_keys(node, findings)
            for k, v in node.value:
                stack.append(v)
                stack.append(k)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    if findings:
        raise Findings(findings)


def _check_keys(node: MappingNode, findings: list[Finding]) -> None:
    seen: dict[tuple[str, str], Mark] = {}
    for key, _value in node.value:
        if not isinstance(key, ScalarNode):
            findings.append(
                (
                    "Y012",
                    "keys must be plain scalars, not lists or maps",
                    key.start_mark,
                    None,
                )
            )
            continue
        tag = str(key.tag)
        if tag.endswith(":merge"):
            continue
        ident = (tag, key.value)
        if ident in seen:
            first = seen[ident]
            findings.append(
                (
                    "Y003",
                    f"duplicate key '{key.value}'",
                    key.start_mark,
                    f"first defined at line {first.line + 1}, column {first.column + 1}",
                )
            )
        else:
            seen[ident] = key.start_mark
