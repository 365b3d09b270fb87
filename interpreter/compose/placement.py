"""A new list item added by name, and where it goes (``before:``, ``after:`` or ``first:``).

``add: {flow/round/pay-interest: {before: reset-picks, do: ...}}`` adds an item named
``pay-interest`` to a list whose items are found by name (steps) or by id (options: the entry's
``id`` defaults to the new name). The placement key is the overlay's, not the rule's: it is
taken out of the entry when it is composed. An item placed by name stays where its author put
it whatever other overlays insert or remove, so it is composed after the overlay's positional
changes, in the order written (an item may be placed after one added just before it).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from interpreter.compose.operations import Op, Reporter
from interpreter.compose.paths import better_segment, find_item, labels_of
from interpreter.compose.tree import CopyOnWriteTree
from interpreter.load.locate import Position, is_map, is_seq, key_position, position_of
from interpreter.load.node import Key, Node, NodeSeq, is_scalar

__all__ = ["PLACEMENT_KEYS", "NamedAdd", "NamedAdds", "identity_key", "placement_of"]

PLACEMENT_KEYS = ("before", "after", "first")


def placement_of(value: Node) -> tuple[str, Node] | None:
    """The first placement key of an entry and its value (None: at the end)."""
    if not is_map(value):
        return None
    for key in value:
        if key in PLACEMENT_KEYS:
            return str(key), value[key]
    return None


def identity_key(items: NodeSeq) -> str:
    """What identifies an item of this list: ``id`` in a list of options, else ``name``."""
    return "id" if any(is_map(x) and "id" in x for x in items) else "name"


@dataclass
class NamedAdd:
    """An ``add`` of a new item by name, resolved down to its list (``keys``)."""

    op: Op
    keys: list[Key]
    name: str


class NamedAdds(CopyOnWriteTree):
    """The part of the composer that adds items by name (mixed into it)."""

    report: Reporter

    def check_named(self, op: Op, items: NodeSeq, name: str) -> bool:
        """Whether ``op`` may add an item named ``name`` to ``items`` (else reported, O012)."""
        if any(not is_map(x) for x in items):
            self._bad(
                op,
                op.pos,
                f"cannot add '{op.text}' by name: the list holds values, not named items",
                "append a value with '-' as the last segment",
            )
            return False
        if not is_map(op.value):
            self._bad(op, op.pos, f"cannot add '{op.text}': an item added by name is a map")
            return False
        ident = identity_key(items)
        given = op.value.get(ident)
        if given is not None and not _same_name(ident, given, name):
            self._bad(
                op,
                position_of(op.value, ident),
                f"the item added as '{op.text}' has {ident} '{given}'",
                f"leave out '{ident}:' (it is '{name}') or add it as "
                f"'{'/'.join(op.segments[:-1])}/{given}'",
            )
            return False
        placed = [k for k in op.value if k in PLACEMENT_KEYS]
        if len(placed) > 1:
            self._bad(
                op,
                key_position(op.value, placed[1]),
                f"'{op.text}' has {len(placed)} placements ({', '.join(map(str, placed))})",
                "give one of 'before: NAME', 'after: NAME' or 'first: true'",
            )
            return False
        if placed:
            key = str(placed[0])
            value = op.value[key]
            ok = value is True if key == "first" else isinstance(value, str) and bool(value)
            if not ok:
                self._bad(
                    op,
                    position_of(op.value, key),
                    f"'{key}: {value}' in '{op.text}': "
                    + ("'first' takes true" if key == "first" else f"'{key}' takes a name"),
                )
                return False
        return True

    def apply_named(self, added: NamedAdd) -> None:
        """Put the item where its placement says, in the list as it is now."""
        op = added.op
        parent = self.writable(added.keys)
        assert isinstance(parent, CommentedSeq)  # (resolved down to a list: add_key)
        where = placement_of(op.value)
        index = len(parent)
        if where is not None and where[0] == "first":
            index = 0
        elif where is not None:
            key, anchor = where
            found = find_item(parent, anchor if is_scalar(anchor) else None)  # (check_named)
            if found.problem:
                message = f"'{key}: {anchor}' in '{op.text}': {found.problem}"
                pos = position_of(op.value, key)
                self.report.error("O013", message, pos, op.pointer, "place it by another name")
                return
            if not found.found:
                names = labels_of(parent)
                deeper = _deeper_list(parent, str(anchor))
                near = difflib.get_close_matches(str(anchor), names, n=3, cutoff=0.5)
                hint = f"did you mean {' or '.join(repr(n) for n in near)}? " if near else ""
                if deeper is not None:
                    inner = "/".join([*op.segments[:-1], *deeper])
                    hint = (
                        f"'{anchor}' is an item of {inner}, not of this list: add the new item "
                        f"there ('{inner}/{op.segments[-1]}'); "
                    )
                if names:
                    hint += f"the items here: {', '.join(names)}"
                elif parent:
                    hint += "no item of the list has a name, id or value to place it by"
                else:
                    hint += "the list is empty"
                self._bad(
                    op,
                    position_of(op.value, key),
                    f"'{key}: {anchor}' in '{op.text}': "
                    + f"no item of {'/'.join(op.segments[:-1])} is '{anchor}'",
                    hint,
                )
                return
            index = found.index + (1 if key == "after" else 0)
        assert is_map(op.value)  # (check_named)
        entry = self.copy(op.value)
        assert isinstance(entry, CommentedMap)
        for key in PLACEMENT_KEYS:
            if key in entry:
                self.delete_entry(entry, key)
        ident = identity_key(parent)
        if ident not in entry:
            entry.insert(0, ident, added.name)
            self.set_entry(entry, ident, added.name, op.holder, op.holder_key)
        if index == len(parent):
            self.set_entry(parent, index, entry, op.holder, op.holder_key)
        else:
            self.renumber_record(added.keys, index, +1)
            self.insert_entry(parent, index, entry, op.holder, op.holder_key)
        self.record([*added.keys, index], op.file, clear=True)

    def _bad(self, op: Op, pos: Position, message: str, hint: str | None = None) -> None:
        self.report.error("O012", message, pos, op.pointer, hint, file=op.file)


def _same_name(ident: str, given: Node, name: str) -> bool:
    """An option's id may be a template of the new family (``boost:{r}`` added as ``boost``)."""
    if not isinstance(given, str):
        return False
    return given == name or (ident == "id" and given.split(":", 1)[0] == name)


def _deeper_list(items: NodeSeq, name: str) -> list[str] | None:
    """The path (from ``items``, segments spelt by name) of a list nested in ``items`` that
    has an item called ``name``: an anchor that is a step inside one of this list's steps,
    which the author meant to place the new item beside."""

    def walk(node: Node, at: list[str]) -> list[str] | None:
        if is_seq(node):
            if at and find_item(node, name).found:
                return at
            pairs = [(better_segment(node, i) or str(i), x) for i, x in enumerate(node)]
        elif is_map(node):
            pairs = [(str(k), v) for k, v in node.items()]
        else:
            return None
        for segment, value in pairs:
            found = walk(value, [*at, segment])
            if found is not None:
                return found
        return None

    return walk(items, [])
