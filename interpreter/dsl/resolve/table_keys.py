"""Whether a table read by a seat or by the player count has the key every game asks for.

A table keyed by numbers is, by its keys, a table by seat (a key for each seat of the smallest
game: 0, 1, ...), a table by player count (most keys within `players:`), or a table of other
numbers. Its type (a table by number) cannot tell them apart, so a read is checked against the
keys themselves, for every player count the ruleset allows, not only the one being compiled:

* read by a seat (`bonus[i]`, `bonus[player(i)]`): a key for every seat of every game, else
  D008 at the reading text (a table by player count read by a seat, or one lacking seats);
* read by the player count (`bonus[players]`, `bonus[players - 1]`): a key for every count.
  A table by player count lacking one is the table's fault, K005 (a :class:`MissingCount`,
  reported at the table by model/host.py); any other table read so is the reading text's,
  D008 (a table by seat read by the count).

A read inside a test on the count (`x if players == 5 else table[players]`, `if players > 2:`)
is checked for the counts the test lets through (the ``holds`` keys of none_safety.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Tree

from interpreter.dsl.parse.unparse import show_tree
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.scope import Env, TypeInfo
from interpreter.dsl.resolve.type_faults import TypeFault, strip_optional, type_of
from interpreter.dsl.resolve.types import SEAT, numbers_by

__all__ = ["MissingCount", "TableKeys"]

_UNKNOWN: Any = object()  # a value a test or key has that the player count alone does not fix

_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
}


class MissingCount(TypeFault):
    """A table by player count that a rule reads by the count lacks a count of the game: the
    table's fault (K005), reported where the table is written with the read as a note."""

    def __init__(self, message: str, at: Tree, table: ir.Const, hint: str) -> None:
        super().__init__(message, at, table, None, "K005")
        self.table = table
        self.hint = hint  # what reads it and how to mend it; model/host.py adds where


class TableKeys:
    """The key checks of TypeRules' index; `env`, `info` and `holding` are TypeRules'."""

    env: Env

    @property
    def info(self) -> TypeInfo:
        raise NotImplementedError  # TypeRules'

    holding: Callable[[], list[tuple[ir.Expr, bool]]]  # NoneGuards': the tests that hold here

    def table_keys(self, tree: Tree, node: ir.Index) -> None:
        """`table[key]` with a table known at load, read by a seat or by the player count."""
        table = node.obj
        if not isinstance(table, ir.Const) or not isinstance(table.value, dict):
            return
        by_seat = strip_optional(type_of(node.key)) == SEAT
        if not by_seat and not self._reads_count(node.key):
            return
        counts = self._reachable()
        if not counts:
            return
        if by_seat:
            self._seats(tree, node, table, counts)
            return
        wanted = {n: self._at_count(node.key, n) for n in counts}
        if any(key is _UNKNOWN for key in wanted.values()):
            return
        missing = [n for n, key in wanted.items() if key not in table.value]
        if missing:
            self._missing_counts(tree, node, table, missing, wanted)

    def _seats(self, tree: Tree, node: ir.Index, table: ir.Const, counts: list[int]) -> None:
        """A table read by a seat must have a key for every seat of every game: one keyed by
        player counts (2 to 5) read by a seat is a slip that would fail only in play."""
        most = max(counts)
        missing = [seat for seat in range(most) if seat not in table.value]
        if not missing:
            return
        shown = ", ".join(str(k) for k in table.value)
        raise TypeFault(
            f"'{show_tree(tree)}': {_table_words(table)} is read by a seat, but has no "
            f"key for seat{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
            f"(its keys: {shown}; with {most} players, seats are numbered 0 to {most - 1})",
            tree.children[1],
            node.key,
            SEAT,
        )

    def _missing_counts(
        self,
        tree: Tree,
        node: ir.Index,
        table: ir.Const,
        missing: list[int],
        wanted: dict[int, Any],
    ) -> None:
        counts = self._counts()
        keys = list(table.value)
        shown = ", ".join(str(k) for k in keys)
        text = show_tree(tree)
        kind = numbers_by(keys, counts[0], counts[-1])
        if kind is None and all(type(k) is int and counts[0] <= k <= counts[-1] for k in keys):
            kind = "count"  # a key or two left, each a player count, and read by the count
        if kind == "count" and table.name and all(wanted[n] == n for n in missing):
            counted = ", ".join(map(str, missing))
            keys_word = "keys" if len(missing) > 1 else "key"
            raise MissingCount(
                f"table '{table.name}' by player count has no key for {counted} players (its "
                f"keys: {shown}; the game is for {counts[0]} to {counts[-1]} players)",
                tree,
                table,
                f"'{text}' reads it with {counted} players; add the {keys_word} {counted}, or "
                f"read it only where the count has one ('... if players != {missing[0]} else "
                "...')",
            )
        lacking = ", ".join(str(wanted[n]) for n in missing)
        players = ", ".join(map(str, missing))
        if kind == "seat":
            message = (
                f"'{text}': {_table_words(table)} is a table by seat (its keys: {shown}), read "
                f"by the player count: it has no key {lacking} (with {players} players)"
            )
        else:
            message = (
                f"'{text}': {_table_words(table)} has no key {lacking}, read with {players} "
                f"players (its keys: {shown})"
            )
        raise TypeFault(message, tree.children[1], node.key)

    def _reachable(self) -> list[int]:
        """The player counts for which the text being checked can run here: those no
        surrounding test on the count rules out."""
        tests = [(t, truth) for t, truth in self.holding() if self._reads_count(t)]
        return [n for n in self._counts() if all(self._may(t, truth, n) for t, truth in tests)]

    def _counts(self) -> tuple[int, ...]:
        return self.info.counts or (self.env.players,)

    def _may(self, test: ir.Expr, truth: bool, n: int) -> bool:
        """Whether `test` may be `truth` in a game of `n` players."""
        value = self._at_count(test, n)
        return value is _UNKNOWN or bool(value) == truth

    def _reads_count(self, node: ir.Expr) -> bool:
        """Whether `node` reads the player count (`players` or `seats`)."""
        if isinstance(node, ir.Const):
            return id(node) in self.env.count_consts
        if isinstance(node, ir.Binary):
            return self._reads_count(node.left) or self._reads_count(node.right)
        if isinstance(node, ir.BoolOp):
            return any(self._reads_count(x) for x in node.operands)
        if isinstance(node, ir.Unary):
            return self._reads_count(node.operand)
        if isinstance(node, ir.Inline) and not node.bound:
            return self._reads_count(node.body)
        return False

    def _at_count(self, node: ir.Expr, n: int) -> Any:
        """The value of `node` in a game of `n` players, or _UNKNOWN when more decides it."""
        if isinstance(node, ir.Const):
            if id(node) in self.env.count_consts:
                return n if isinstance(node.value, int) else tuple(range(n))
            return node.value
        if isinstance(node, ir.Inline) and not node.bound:
            return self._at_count(node.body, n)
        if isinstance(node, ir.Unary):
            value = self._at_count(node.operand, n)
            if value is _UNKNOWN:
                return _UNKNOWN
            return (not value) if node.op == "not" else _arith(lambda v: -v, value)
        if isinstance(node, ir.BoolOp):
            values = [self._at_count(x, n) for x in node.operands]
            decided = [bool(v) for v in values if v is not _UNKNOWN]
            stop = node.op == "or"  # `or` is decided by a true operand, `and` by a false one
            if stop in decided:
                return stop
            return _UNKNOWN if len(decided) < len(values) else not stop
        if isinstance(node, ir.Binary) and node.op in _COMPARE:
            left, right = self._at_count(node.left, n), self._at_count(node.right, n)
            if left is _UNKNOWN or right is _UNKNOWN:
                return _UNKNOWN
            return _arith(lambda a, b: _COMPARE[node.op](a, b), left, right)
        return _UNKNOWN


def _arith(op: Any, *values: Any) -> Any:
    try:
        return op(*values)
    except Exception:  # noqa: BLE001 - a value of another kind: not decided here
        return _UNKNOWN


def _table_words(table: ir.Const) -> str:
    return f"table '{table.name}'" if table.name else "the table"
