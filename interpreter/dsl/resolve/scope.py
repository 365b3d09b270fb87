"""What an effect text is compiled against: the ruleset's names (Env), the rule functions it
may call (Callable_), and the scopes that say where a local name's value lives (Scope).

A scope binding is a pair (kind, payload):
  ("var", name)    a flow variable, read from s.v (declared by the flow or a scenario)
  ("temp", key)    a slot in s.t the engine fills before running the text (hook's self, ...)
  ("local", slot)  a let, loop or parameter name: a Python local of the generated function
  ("alias", expr)  a rule function's parameter, read as the (cheap) argument it was given
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from lark import Tree

from interpreter.dsl.parse.parser import parse
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.types import Type
from interpreter.dsl.runtime.builtins import BUILTINS

SPECIAL_NAMES = ("players", "seats", "round", "option", "true", "false", "none")

# a scope binding: (kind, payload), the kind telling what the payload is (the module's
# docstring)
Binding = (
    tuple[Literal["var"], str]
    | tuple[Literal["temp"], str]
    | tuple[Literal["local"], ir.Slot]
    | tuple[Literal["alias"], ir.Expr]
)


@dataclass
class Callable_:
    """A function or procedure declared by the ruleset, inlined at each call site."""

    name: str
    params: list[str]
    text: str
    is_procedure: bool
    # where the text lives, for error positions (set by the model builder)
    origin: Sequence[str | int] | None = None
    _tree: Tree | None = None

    def tree(self) -> Tree:
        if self._tree is None:
            self._tree = parse(self.text, "start" if self.is_procedure else "expr")
        return self._tree


@dataclass
class TypeInfo:
    """The types of everything a rule text may name (filled by the model builder; types.py)."""

    constants: dict[str, Type] = field(default_factory=dict)  # set, catalog, id, table, choice
    global_fields: dict[str, Type] = field(default_factory=dict)
    player_fields: dict[str, Type] = field(default_factory=dict)
    piece_fields: dict[str, dict[str, Type]] = field(default_factory=dict)  # catalog -> field
    attributes: dict[str, dict[str, Type]] = field(default_factory=dict)  # catalog -> attribute
    partial: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # entries lacking
    catalog_of: dict[str, str] = field(default_factory=dict)  # entry id -> its catalog
    options: dict[str, Type] = field(default_factory=dict)
    phases: set[str] = field(default_factory=set)
    variables: dict[str, Type] = field(default_factory=dict)  # flow variable -> type seen so far
    # event -> the type of each value its `emit` sites pass (joined; ANY when they disagree)
    events: dict[str, list[Type]] = field(default_factory=dict)
    # local name (a `let`, a rule function's parameter) -> each type of what it was bound to,
    # over every text where it is known (a parameter may take a card's id at one call and the
    # card itself at another): for tools asking what a bare name stands for
    # (tests/validate/mutations.py uses it)
    bound: dict[str, set[Type]] = field(default_factory=dict)
    # what the texts read, for the check that every attribute and option set is read
    # (model/unread.py): (catalog, attribute) pairs, catalog "" where the value's catalog is
    # not known (such a read may be of any catalog's entries), and `option.NAME` names
    reads: set[tuple[str, str]] = field(default_factory=set)
    options_read: set[str] = field(default_factory=set)
    # the (catalog, attribute) pairs read of an entry not named in the text (`b.cost` for a
    # `b` of the catalog, not `some-entry.cost`): every entry must give those (D010, and
    # model/added_entries.py for an entry an overlay writes)
    entry_reads: set[tuple[str, str]] = field(default_factory=set)
    # every player count the ruleset allows (`players: {min, max}`): a table read by a seat
    # or by the count must have a key for each one's (table_keys.py); empty: not known
    counts: tuple[int, ...] = ()


@dataclass
class Env:
    """Everything a rule text may name, declared by the ruleset."""

    players: int
    global_fields: dict[str, str]  # name -> kind (counter, value, bag, pile, area)
    player_fields: dict[str, str]
    piece_fields: set[str]
    abilities: dict[str, dict[str, int]]  # ability -> {piece type: amount}
    constants: dict[str, Any]  # ids, sets, catalogs, tables
    attrs: dict[str, dict[str, Any]]  # id -> static attributes (catalog entries)
    piece_defaults: dict[str, dict[str, Any]]  # piece type -> its dynamic fields' start values
    options: dict[str, Any]
    functions: dict[str, Callable_] = field(default_factory=dict)
    events: dict[str, list[str]] = field(default_factory=dict)
    # late-bound by the game once hooks and abilities are compiled
    runtime: dict[str, Any] = field(default_factory=dict)
    emitted: set[str] = field(default_factory=set)
    # rule functions inlined whole at some call site: checked there with the arguments' own
    # types, so the check of each function on its own (model/functions.py) can pass them by
    inlined: set[str] = field(default_factory=set)
    types: TypeInfo | None = None  # None: texts are not type-checked
    # a counter's declared range, ("global" or "player", name) -> (least, greatest), None = open;
    # generated writes check it (bag entries never go below 0)
    ranges: dict[tuple[str, str], tuple[int | None, int | None]] = field(default_factory=dict)
    # The Consts `players` and `seats` resolved to (by id, kept alive here). Checking reads only
    # their types, the same for every player count, so a ruleset checked for one count is
    # checked for all, unless a value is used: a check that reads such a Const's value sets
    # `count_used` (check/compile.py then checks every count, as it must).
    count_consts: dict[int, Any] = field(default_factory=dict)
    count_used: bool = False
    # each declared id -> its name in a log line (model/words.py fills it before any text)
    id_names: dict[str, str] = field(default_factory=dict)
    # the end triggers (`presentation: ends:`) and the state fields the flow's `trigger:`
    # reads: where a text gives one, a bare trigger's name is that trigger (barewords.py);
    # each rule function -> its parameters given an end trigger, found when first called
    end_triggers: tuple[str, ...] = ()
    trigger_fields: frozenset[str] = frozenset()
    trigger_param_names: dict[str, set[str]] = field(default_factory=dict)

    # attribute name -> {entry id: value}, made from `attrs` once it is filled: a field read
    # asking each entry's attributes in turn was a tenth of a check's time
    _tables: dict[str, dict[str, Any]] = field(default_factory=dict, init=False, repr=False)
    _tables_of: int = field(default=-1, init=False, repr=False)  # len(attrs) at making

    def attribute_table(self, name: str) -> dict[str, Any] | None:
        """Each catalog entry's value of the static attribute `name` (None: no entry has it)."""
        if self._tables_of != len(self.attrs):
            tables: dict[str, dict[str, Any]] = {}
            for eid, values in self.attrs.items():
                for key, value in values.items():
                    tables.setdefault(key, {})[eid] = value
            self._tables, self._tables_of = tables, len(self.attrs)
        return self._tables.get(name)

    def names(self) -> list[str]:
        return [
            *self.global_fields,
            *self.constants,
            *self.functions,
            *BUILTINS,
            *SPECIAL_NAMES,
        ]


class Scope:
    """Compile-time map from a rule name to where its value lives."""

    def __init__(self, parent: Scope | None = None, **bindings: Binding) -> None:
        self.parent = parent
        self.bindings: dict[str, Binding] = dict(bindings)
        # the numbers of the temp slots and locals the texts of this scope's root bind: one
        # count a build, so its names are unique in it and the same at every load
        self.numbers: Iterator[int] = itertools.count() if parent is None else parent.numbers
        self.types: dict[str, Type] = {}  # temp key -> the type of what the engine puts there

    def lookup(self, name: str) -> Binding | None:
        scope: Scope | None = self
        while scope is not None:
            hit = scope.bindings.get(name)
            if hit is not None:
                return hit
            scope = scope.parent
        return None

    def visible(self) -> list[str]:
        out: list[str] = []
        scope: Scope | None = self
        while scope is not None:
            out.extend(scope.bindings)
            scope = scope.parent
        return out

    def child(self) -> Scope:
        return Scope(self)

    def temp(self, name: str, ty: Type | None = None) -> str:
        """Bind `name` to a fresh s.t slot, which the caller fills before the text runs with
        values of type `ty` (None: any)."""
        key = f"{name}#{next(self.numbers)}"
        self.bindings[name] = ("temp", key)
        if ty is not None:
            self.types[key] = ty
        return key

    def temp_type(self, key: str) -> Type | None:
        scope: Scope | None = self
        while scope is not None:
            if key in scope.types:
                return scope.types[key]
            scope = scope.parent
        return None
