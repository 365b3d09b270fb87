"""What an overlay asks for: its operations read and checked one by one (O001-O005, O009).

Each ``add`` / ``replace`` / ``patch`` entry and each ``remove`` item becomes an :class:`Op`
that remembers where it was written, so every later message points into the overlay file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from interpreter.diagnostics.errors import DiagnosticSink
from interpreter.diagnostics.suggest import hint_for
from interpreter.load.locate import (
    Position,
    is_map,
    is_seq,
    json_pointer,
    key_position,
    node_position,
    plain_key,
    position_of,
    split_path,
)
from interpreter.load.node import Key, Node, NodeMap, NodeSeq
from interpreter.load.yamlload import Document

__all__ = [
    "OPERATIONS",
    "OVERLAY_KEYS",
    "OVERLAY_ID_KEY",
    "Op",
    "Reporter",
    "extended_ids",
    "read_overlay",
]

OPERATIONS = ("add", "replace", "patch", "remove")
OVERLAY_KEYS = ("overlay", "extends", "title", "description", *OPERATIONS)
OVERLAY_ID_KEY = "overlay"


class Reporter:
    """Collects composition diagnostics, each at a position in the file that caused it."""

    def __init__(self) -> None:
        self.sink = DiagnosticSink()

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


@dataclass
class Op:
    kind: str
    text: str  # path as written
    segments: list[str]
    value: Node
    doc: Document
    holder: NodeMap | NodeSeq  # the overlay container holding this op (section map or remove list)
    holder_key: Key  # key (or index) of the op in ``holder``
    order: int
    leaves: list[tuple[tuple[str, ...], Node]] = field(default_factory=list)
    source: int = 0  # the overlay's place in the composition (0 = the first overlay)

    @property
    def overlay_id(self) -> str:
        """The id of the overlay this op belongs to ('' when it has none)."""
        data = self.doc.tree
        ident = data.get(OVERLAY_ID_KEY) if is_map(data) else None
        return ident if isinstance(ident, str) else ""

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


def read_overlay(
    report: Reporter,
    doc: Document,
    known_ids: list[str],
    seen: dict[str, Document],
    later_ids: Sequence[str] = (),
) -> list[Op]:
    """The operations of one overlay, in the order written; problems go to ``report``.
    ``known_ids`` (the base and the overlays before this one) gains this overlay's id;
    ``later_ids`` (the overlays given after it) say when an ``extends`` only came too late."""
    data = doc.tree
    if not is_map(data):
        report.error(
            "O001",
            "an overlay must be a map with 'overlay', 'extends' and operations",
            node_position(data) if data is not None else (doc.path, None, None),
            file=doc.path,
        )
        return []
    for key in data:
        if key not in OVERLAY_KEYS:
            report.error(
                "O002",
                f"unknown overlay key '{plain_key(key)}'",
                key_position(data, key),
                json_pointer([key]),
                hint_for(plain_key(key), OVERLAY_KEYS) or f"allowed: {', '.join(OVERLAY_KEYS)}",
            )
    overlay_id = data.get(OVERLAY_ID_KEY)
    if not isinstance(overlay_id, str) or not overlay_id:
        report.error(
            "O003",
            "overlay id missing: add 'overlay: <id>'",
            position_of(data, OVERLAY_ID_KEY) if OVERLAY_ID_KEY in data else node_position(data),
            json_pointer([OVERLAY_ID_KEY]),
        )
        overlay_id = None
    elif overlay_id in seen:
        report.error(
            "O009",
            f"overlay '{overlay_id}' is applied twice (also {seen[overlay_id].path})",
            position_of(data, OVERLAY_ID_KEY),
            json_pointer([OVERLAY_ID_KEY]),
        )
    _check_extends(report, data, known_ids, later_ids)
    if overlay_id:
        seen[overlay_id] = doc
        known_ids.append(overlay_id)
    ops: list[Op] = []
    for kind in OPERATIONS:
        if kind not in data:
            continue
        section = data[kind]
        if section is None:
            continue
        if kind == "remove":
            if not is_seq(section):
                report.error(
                    "O005",
                    "'remove' must be a list of paths",
                    position_of(data, kind),
                    json_pointer([kind]),
                )
                continue
            for i, item in enumerate(section):
                if not isinstance(item, str) or not split_path(item):
                    report.error(
                        "O005",
                        "each 'remove' item must be a non-empty slash path",
                        position_of(section, i),
                        json_pointer([kind, i]),
                    )
                    continue
                ops.append(Op(kind, item, split_path(item), None, doc, section, i, 0))
            continue
        if not is_map(section):
            report.error(
                "O005",
                f"'{kind}' must be a map of path: value",
                position_of(data, kind),
                json_pointer([kind]),
            )
            continue
        for key, value in section.items():
            text = plain_key(key)
            op = Op(kind, text, split_path(text), value, doc, section, key, 0)
            if not op.segments:
                report.error(
                    "O005",
                    f"empty path in '{kind}': the whole ruleset cannot be {kind}d",
                    op.pos,
                    op.pointer,
                )
                continue
            if kind == "patch":
                if not is_map(value):
                    report.error(
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


def _check_extends(
    report: Reporter, data: NodeMap, known_ids: list[str], later_ids: Sequence[str] = ()
) -> None:
    if "extends" not in data:
        report.error(
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
            report.error("O004", "'extends' must name a ruleset id", pos, pointer)
        elif t not in known_ids:
            report.error(
                "O004",
                f"overlay extends '{t}', but the ruleset is '{known_ids[0]}'"
                + (f" (with overlays {', '.join(known_ids[1:])})" if len(known_ids) > 1 else ""),
                pos,
                pointer,
                f"'{t}' is given after it: give '{t}' before it in --with"
                if t in later_ids
                else hint_for(t, known_ids),
            )


def extended_ids(doc: Document) -> list[str]:
    """The ids an overlay names in ``extends`` (one or a list; anything else is O004's)."""
    data = doc.tree
    target = data.get("extends") if is_map(data) else None
    targets = list(target) if is_seq(target) else [target]
    return [t for t in targets if isinstance(t, str)]


def _leaves(value: NodeMap, prefix: tuple[str, ...]) -> list[tuple[tuple[str, ...], Node]]:
    """Paths a patch map sets (maps merge, so only non-map values are real changes)."""
    out: list[tuple[tuple[str, ...], Node]] = []
    for k, v in value.items():
        path = prefix + (plain_key(k),)
        if is_map(v) and v:
            out.extend(_leaves(v, path))
        elif not (is_map(v) and not v):
            out.append((path, v))
    return out
