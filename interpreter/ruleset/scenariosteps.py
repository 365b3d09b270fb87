"""A scenario's steps, set-ups and expectations typed (docs/scenarios.md), each with where it
was written (``pos``) and its path in the scenario file (a message's JSON pointer).

The steps are read in the order a scenario takes them: a ``do: name`` step is replaced by the
steps of the named block of the file's top-level ``blocks:`` (a block may take in another), and
a list written where one step goes (a YAML alias of a list, ``- *prelude``) by its steps. A step
taken in from a block keeps the block's own path (``/blocks/prelude/2``) and position. An
unknown block name, or a block that takes itself in, is a :class:`StepFault` at the ``do:``
(with a did-you-mean), left out of the steps: ``rulebook validate`` and ``rulebook test`` read
the same steps and report the same faults.

The tree read is one a schema check passed (``schemas/scenario.schema.json``): a step is a text
or a map of one of the shapes the schema allows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.load.locate import is_map, is_seq
from interpreter.load.schema import to_plain
from interpreter.ruleset.gameconfig import Chosen
from interpreter.ruleset.nodes import (
    NOWHERE,
    Plain,
    Pos,
    TreePath,
    empty_map,
    frozen_map,
    key_pos as key_pos_of,
    seq_of,
    value_at,
)

__all__ = [
    "BLOCKS",
    "DO",
    "ONLY_CHOICE_STEP",
    "ExpectEntry",
    "ExpectItem",
    "SetField",
    "SetupSpec",
    "SetupTarget",
    "StepFault",
    "StepReader",
    "StepSpec",
    "expect_items",
    "parse_move",
    "parse_option_step",
    "read_setup",
]

BLOCKS = "blocks"  # the top-level map of named step lists
DO = "do"  # the step that takes a named block in
# the step that lists a move the engine takes itself (one legal option): `only choice: seat 3 x`
ONLY_CHOICE_STEP = "only choice"
SEAT_KEY = re.compile(r"^seat ([0-9]+)$")
OPTION_STEP = re.compile(r"^\s*seat\s+([0-9]+)\s*:\s*(\S+)\s*$")
MOVE = re.compile(r"^\s*seat\s+([0-9]+)\s*:?\s+(\S+)\s*$")


def parse_option_step(text: str) -> tuple[int | None, str]:
    """``"seat 1: build:x"`` -> (1, "build:x"); a bare id -> (None, id)."""
    m = OPTION_STEP.match(text)
    if m:
        return int(m.group(1)), m.group(2)
    return None, text.strip()


def parse_move(text: str) -> tuple[int | None, str]:
    """A move of `moved:` or `only choice:`: ``seat 1: build:x`` or ``seat 1 build:x`` -> (1,
    "build:x"); a bare id -> (None, id), a move of any seat."""
    m = MOVE.match(text)
    if m:
        return int(m.group(1)), m.group(2)
    return None, text.strip()


@dataclass(frozen=True, slots=True)
class SetField:
    """One field a set-up sets: its name, the value as plain data, where its name was
    written."""

    name: str
    value: Plain
    pos: Pos = NOWHERE


@dataclass(frozen=True, slots=True)
class SetupTarget:
    """What a set-up sets of one holder: ``target`` is ``global``, ``every`` (each seat) or a
    seat number; its fields in the order written."""

    target: str | int
    fields: tuple[SetField, ...] = ()


@dataclass(frozen=True, slots=True)
class SetupSpec:
    """One ``setup:`` (or a ``set:`` step's map): its targets in order, how the game goes on
    after it (``restart``), whether the totals of ids are kept (``check_totals``) and the
    fields left out of them (``uncounted``)."""

    pos: Pos = NOWHERE  # where the set-up's map was written
    targets: tuple[SetupTarget, ...] = ()
    restart: str = "decision"
    check_totals: bool = True
    uncounted: tuple[str, ...] = ()


def read_setup(node: object, pos: Pos) -> SetupSpec:
    """The set-up map ``node`` (written at ``pos``) typed."""
    targets: list[SetupTarget] = []
    restart = "decision"
    check_totals = True
    uncounted: tuple[str, ...] = ()
    for key, value in node.items() if is_map(node) else ():
        k = str(key)
        if k == "uncounted":
            uncounted = tuple(str(x) for x in value)
            continue
        if k == "restart":
            restart = str(value)
            continue
        if k == "check-totals":
            check_totals = bool(value)
            continue
        m = SEAT_KEY.match(k)
        target: str | int = int(m.group(1)) if m else ("every" if k == "every seat" else k)
        fields = value or {}
        values = to_plain(fields)
        set_fields = tuple(SetField(str(f), values[str(f)], key_pos_of(fields, f)) for f in fields)
        targets.append(SetupTarget(target, set_fields))
    return SetupSpec(pos, tuple(targets), restart, check_totals, uncounted)


@dataclass(frozen=True, slots=True)
class ExpectEntry:
    """One key of an expectation map (``seat 0 may: [...]``, ``log contains: x``, ``seat 1:
    {...}``): its value as plain data, where its key and its value were written, the texts it
    lists one by one (a text alone, or each text of a list, with its own path and place), and
    where each name of a map value was written (the fields of ``seat 1:``)."""

    key: str
    value: Plain
    path: TreePath
    pos: Pos = NOWHERE
    key_pos: Pos = NOWHERE
    texts: tuple[Chosen, ...] = ()
    names: Mapping[str, Pos] = field(default_factory=empty_map)


@dataclass(frozen=True, slots=True)
class ExpectItem:
    """One expectation: a rule expression (``text``), or a map of checks (``entries``, in the
    order written); ``any_case`` where ``any case: true`` stands beside its log checks."""

    path: TreePath
    pos: Pos = NOWHERE
    text: str | None = None
    entries: tuple[ExpectEntry, ...] = ()
    any_case: bool = False

    def entry(self, key: str) -> ExpectEntry | None:
        """The entry of ``key``, or None where the map does not write it."""
        return next((e for e in self.entries if e.key == key), None)


def expect_items(node: object, path: TreePath, pos: Pos) -> tuple[ExpectItem, ...]:
    """The expectations of an ``expect:`` value written at ``pos``: one item, or a list."""
    if is_seq(node):
        return tuple(_expect_item(v, (*path, i), value_at(node, i)) for i, v in enumerate(node))
    return (_expect_item(node, path, pos),)


def _expect_item(node: object, path: TreePath, pos: Pos) -> ExpectItem:
    if isinstance(node, str):
        return ExpectItem(path, pos, text=str(node))
    if not is_map(node):
        return ExpectItem(path, pos)
    entries = []
    for key, value in node.items():
        at = (*path, str(key))
        if isinstance(value, str):
            texts: tuple[Chosen, ...] = (Chosen(str(value), at, value_at(node, key)),)
        elif is_seq(value):
            texts = tuple(Chosen(str(v), (*at, j), value_at(value, j)) for j, v in enumerate(value))
        else:
            texts = ()
        names = {str(f): key_pos_of(value, f) for f in value} if is_map(value) else {}
        entries.append(
            ExpectEntry(
                str(key),
                to_plain(value),
                at,
                value_at(node, key),
                key_pos_of(node, key),
                texts,
                frozen_map(names),
            )
        )
    return ExpectItem(path, pos, entries=tuple(entries), any_case=node.get("any case") is True)


@dataclass(frozen=True, slots=True)
class StepSpec:
    """One step as a scenario takes it.

    ``kind``: ``option`` (a text, or ``seat N: id`` as a map), ``only choice`` (the engine's
    own move, listed), ``expect``, ``set``, ``auto``, or ``settings`` (a map of the step
    settings alone). ``option`` is the option id named, at the text that names it; ``seats``
    counts the ``seat N:`` keys of a map (a step takes one). ``block`` names the block the
    step was taken in from."""

    kind: str
    path: TreePath
    pos: Pos = NOWHERE
    block: str | None = None
    option: Chosen | None = None
    seat: int | None = None
    seats: int = 0
    expect: tuple[ExpectItem, ...] = ()
    expect_pos: Pos = NOWHERE
    setup: SetupSpec | None = None
    prefer: tuple[str, ...] = ()  # `auto: [ids]`, in order of preference
    random: bool = False  # `auto: random`
    until: Chosen | None = None  # `until:` as written (`over` included)
    forced: str | None = None
    optional: str | None = None


def _read_step(node: object, path: TreePath, pos: Pos, block: str | None) -> StepSpec:
    if isinstance(node, str):
        seat, option = parse_option_step(node)
        return StepSpec("option", path, pos, block, Chosen(option, path, pos), seat)
    if not is_map(node):
        return StepSpec("settings", path, pos, block)
    return replace(
        _map_step(node, path, pos, block),
        forced=None if node.get("forced") is None else str(node["forced"]),
        optional=None if node.get("optional") is None else str(node["optional"]),
    )


def _map_step(
    node: Mapping[object, object], path: TreePath, pos: Pos, block: str | None
) -> StepSpec:
    """A step written as a map, but for its settings (``forced:``, ``optional:``)."""
    seats = [k for k in node if SEAT_KEY.match(str(k))]
    if seats:
        key = seats[0]
        matched = SEAT_KEY.match(str(key))
        assert matched is not None  # (seats holds the keys it matches)
        taken = Chosen(str(node[key]).strip(), (*path, str(key)), value_at(node, key))
        return StepSpec("option", path, pos, block, taken, int(matched.group(1)), len(seats))
    if ONLY_CHOICE_STEP in node:
        seat, move = parse_move(str(node[ONLY_CHOICE_STEP]))
        at = (*path, ONLY_CHOICE_STEP)
        chosen = Chosen(move, at, value_at(node, ONLY_CHOICE_STEP))
        return StepSpec("only choice", path, pos, block, chosen, seat)
    if "expect" in node:
        where = value_at(node, "expect")
        items = expect_items(node["expect"], (*path, "expect"), where)
        return StepSpec("expect", path, pos, block, expect=items, expect_pos=where)
    if "set" in node:  # a `set:` step's set-up is placed at its step
        setup = read_setup(node["set"], pos)
        return StepSpec("set", path, pos, block, setup=setup)
    if "auto" in node:
        auto = node["auto"]
        until = node.get("until")
        return StepSpec(
            "auto",
            path,
            pos,
            block,
            prefer=() if auto == "random" else tuple(str(x) for x in seq_of(auto)),
            random=auto == "random",
            until=None
            if until is None
            else Chosen(str(until), (*path, "until"), value_at(node, "until")),
        )
    return StepSpec("settings", path, pos, block)


@dataclass(frozen=True, slots=True)
class StepFault:
    """A ``do:`` that takes in no block: where it was written, and why."""

    path: TreePath
    pos: Pos
    message: str


class StepReader:
    """Reads the steps of one scenario of a file whose top is ``top``: the faults of its
    ``do:`` steps gathered in ``faults``, the names of the blocks it takes in in ``used``."""

    def __init__(self, top: object) -> None:
        blocks = top.get(BLOCKS) if is_map(top) else None
        self.named: Mapping[object, object] = blocks if is_map(blocks) else {}
        self.faults: list[StepFault] = []
        self.used: set[str] = set()

    def steps(
        self, node: object, path: TreePath, trail: tuple[str, ...] = ()
    ) -> Iterator[StepSpec]:
        """Every step of the list ``node`` (at ``path``) in order, blocks taken in."""
        for i, step in enumerate(node if is_seq(node) else []):
            at = (*path, i)
            if is_seq(step):
                yield from self.steps(step, at, trail)
            elif is_map(step) and DO in step:
                yield from self.block(str(step[DO]), (*at, DO), value_at(step, DO), trail)
            else:
                yield _read_step(step, at, value_at(node, i), trail[-1] if trail else None)

    def block(
        self, name: str, at: TreePath, pos: Pos, trail: tuple[str, ...] = ()
    ) -> Iterator[StepSpec]:
        """The steps of the block ``name``, taken in by the ``do:`` at ``at`` (``pos``)."""
        if name not in self.named:
            known = [str(k) for k in self.named]
            self.faults.append(StepFault(at, pos, _unknown(name, known)))
        elif name in trail:
            loop = " -> ".join([*trail[trail.index(name) :], name])
            self.faults.append(StepFault(at, pos, f"block '{name}' takes itself in ({loop})"))
        else:
            self.used.add(name)
            yield from self.steps(self.named[name], (BLOCKS, name), (*trail, name))


def _unknown(name: str, known: list[str]) -> str:
    if not known:
        return f"no block named '{name}': this file has no `{BLOCKS}:` (name step lists there)"
    guess = did_you_mean(name, known)
    hint = f"; did you mean '{guess}'?" if guess else ""
    return f"no block named '{name}'{hint} (blocks: {', '.join(sorted(known))})"
