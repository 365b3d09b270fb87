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

from typing import Any

from lark import Tree

from interpreter.dsl.parse.unparse import show_tree
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.none_safety import NoneGuards
from interpreter.dsl.resolve.scope import Env, TypeInfo
from interpreter.dsl.resolve.type_faults import TypeFault, strip_optional, type_of
from interpreter.dsl.resolve.types import SEAT, numbers_by

__all__ = ["MissingCount", "check_table_keys"]

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


def check_table_keys(
    env: Env, info: TypeInfo, guards: NoneGuards, tree: Tree, node: ir.Index
) -> None:
    """`table[key]` with a table known at load, read by a seat or by the player count;
    `guards` knows the tests that hold where the read is."""
    table = node.obj
    if not isinstance(table, ir.Const) or not isinstance(table.value, dict):
        return
    consts = env.count_consts
    by_seat = strip_optional(type_of(node.key)) == SEAT
    if not by_seat and not _reads_count(consts, node.key):
        return
    counts = info.counts or (env.players,)
    reachable = _reachable(consts, guards, counts)
    if not reachable:
        return
    if by_seat:
        _seats(tree, node, table, reachable)
        return
    wanted = {n: _at_count(consts, node.key, n) for n in reachable}
    if any(key is _UNKNOWN for key in wanted.values()):
        return
    missing = [n for n, key in wanted.items() if key not in table.value]
    if missing:
        _missing_counts(tree, node, table, missing, wanted, counts)


def _seats(tree: Tree, node: ir.Index, table: ir.Const, counts: list[int]) -> None:
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
    tree: Tree,
    node: ir.Index,
    table: ir.Const,
    missing: list[int],
    wanted: dict[int, Any],
    counts: tuple[int, ...],
) -> None:
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


def _reachable(consts: dict[int, Any], guards: NoneGuards, counts: tuple[int, ...]) -> list[int]:
    """The player counts for which the text being checked can run here: those no
    surrounding test on the count rules out."""
    tests = [(t, truth) for t, truth in guards.holding() if _reads_count(consts, t)]
    return [n for n in counts if all(_may(consts, t, truth, n) for t, truth in tests)]


def _may(consts: dict[int, Any], test: ir.Expr, truth: bool, n: int) -> bool:
    """Whether `test` may be `truth` in a game of `n` players."""
    value = _at_count(consts, test, n)
    return value is _UNKNOWN or bool(value) == truth


def _reads_count(consts: dict[int, Any], node: ir.Expr) -> bool:
    """Whether `node` reads the player count (`players` or `seats`: the constants in
    `consts`, Env.count_consts)."""
    if isinstance(node, ir.Const):
        return id(node) in consts
    if isinstance(node, ir.Binary):
        return _reads_count(consts, node.left) or _reads_count(consts, node.right)
    if isinstance(node, ir.BoolOp):
        return any(_reads_count(consts, x) for x in node.operands)
    if isinstance(node, ir.Unary):
        return _reads_count(consts, node.operand)
    if isinstance(node, ir.Inline) and not node.bound:
        return _reads_count(consts, node.body)
    return False


def _at_count(consts: dict[int, Any], node: ir.Expr, n: int) -> Any:
    """The value of `node` in a game of `n` players, or _UNKNOWN when more decides it."""
    if isinstance(node, ir.Const):
        if id(node) in consts:
            return n if isinstance(node.value, int) else tuple(range(n))
        return node.value
    if isinstance(node, ir.Inline) and not node.bound:
        return _at_count(consts, node.body, n)
    if isinstance(node, ir.Unary):
        value = _at_count(consts, node.operand, n)
        if value is _UNKNOWN:
            return _UNKNOWN
        return (not value) if node.op == "not" else _arith(lambda v: -v, value)
    if isinstance(node, ir.BoolOp):
        values = [_at_count(consts, x, n) for x in node.operands]
        decided = [bool(v) for v in values if v is not _UNKNOWN]
        stop = node.op == "or"  # `or` is decided by a true operand, `and` by a false one
        if stop in decided:
            return stop
        return _UNKNOWN if len(decided) < len(values) else not stop
    if isinstance(node, ir.Binary) and node.op in _COMPARE:
        left, right = _at_count(consts, node.left, n), _at_count(consts, node.right, n)
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
