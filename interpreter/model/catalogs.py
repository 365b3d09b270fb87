"""The ruleset's names and pieces: sets, tables and catalogs become constants a rule text may
name; catalog entries give the static attributes, the dynamic fields a placed piece starts with
and what it grants; `active` predicates and `on:` hooks are compiled per piece type."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from interpreter.dsl.compiler import Env, Fn, Scope
from interpreter.dsl.resolve.types import ANY, SEAT, Id, Piece, item_of
from interpreter.dsl.runtime.runtime_state import RunningState
from interpreter.load.locate import json_pointer
from interpreter.model.host import DslHost
from interpreter.model.may import each_field, pending_field, split_for
from interpreter.model.values import hint
from interpreter.ruleset.header import GameOption
from interpreter.ruleset.hooks import Hook as HookDecl
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import Catalog


@dataclass
class Hook:
    """What a piece does when an event it listens to is fired on its owner's seat."""

    fn: Fn
    self_key: str
    owner_key: str
    param_keys: tuple[str, ...]


# (state, entry id) -> the seat holding that entry now, or none
Holder = Callable[[RunningState, str], Any]


@dataclass
class HeldHook:
    """A hook of an entry that is no piece (a catalog with `held-by:`, such as roles): it runs
    for the seat that `holder` (read with `self` the entry's id) names, when the event fires
    on that seat."""

    entry: str
    hook: Hook
    holder: Holder


class _Constants:
    """The constants table, remembering where each name was first declared (for R002)."""

    def __init__(self, host: DslHost, constants: dict[str, Any]) -> None:
        self.host = host
        self.constants = constants
        self.owners: dict[str, list] = {}

    def add(self, name: str, value: Any, path: list) -> None:
        if name in self.constants and self.constants[name] != value:
            first = self.owners[name]
            self.host.error(
                path,
                "R002",
                f"the name '{name}' is declared twice (first at {json_pointer(first)})",
            )
            return
        self.constants[name] = value
        self.owners.setdefault(name, list(path))


def declare_names(host: DslHost, env: Env, ruleset: Ruleset) -> None:
    """Sets, catalogs (with their entries' attributes, fields and grants), tables and option
    choices, into the constants, attributes, piece defaults and abilities of `env`."""
    names = _Constants(host, env.constants)
    host.declared = names.owners  # name -> where it is declared (faults reported there)
    for name, members in ruleset.definitions.sets.items():
        listed = [str(x) for x in members.items]
        names.add(name, tuple(listed), ["sets", name])
        for m in listed:
            names.add(m, m, ["sets", name])
    for catalog in ruleset.catalogs.values():
        _declare_catalog(names, env, catalog)
    for name, table in ruleset.tables.items():
        names.add(name, table.constant, ["tables", name])
    _declare_option_choices(host, env.constants, ruleset.header.options.values())


def _declare_catalog(names: _Constants, env: Env, catalog: Catalog) -> None:
    cname = catalog.name
    names.add(cname, tuple(catalog.entries), list(catalog.path))
    env.piece_fields.update(catalog.piece_starts)
    for eid, entry in catalog.entries.items():
        names.add(eid, eid, [*catalog.path, "entries", eid])
        env.attrs[eid] = dict(entry.values)
        env.piece_defaults[eid] = dict(catalog.piece_starts)
        for ability, amount in entry.grants.items():
            env.abilities.setdefault(ability, {})[eid] = _whole(amount)


def _whole(amount: object) -> int:
    """A grant's amount (the schema's whole number) as a number."""
    return int(amount) if isinstance(amount, int | float) else int(str(amount))


def _declare_option_choices(
    host: DslHost, constants: dict[str, Any], options: Iterable[GameOption]
) -> None:
    """An option's choices are names a rule text may use too; its default must be one of them."""
    for option in options:
        oname, choices, default = option.name, list(option.choices), option.default
        if choices and option.has_default and default not in choices:
            host.error(
                ["options", oname, "default"],
                "R004",
                f"the default {default!r} of option '{oname}' is not one of its choices",
                _unquoted(default, choices) or hint(str(default), [str(c) for c in choices]),
            )
        kinds = [_kind(c) for c in choices]
        odd = next((i for i, k in enumerate(kinds) if k != kinds[0]), None)
        if odd is not None:
            host.error(
                ["options", oname, "choices", odd],
                "K001",
                f"option '{oname}': its choices mix {kinds[0]} and {kinds[odd]} "
                f"({choices[0]!r} and {choices[odd]!r}); a rule compares option.{oname} with "
                "values of one type",
            )
        for choice in choices:
            if isinstance(choice, str) and choice not in constants:
                constants[choice] = choice


def _unquoted(default: Any, choices: list[Any]) -> str | None:
    """The mend for a choice written in quotes (`"false"`, `"3"`): a text, not the choice."""
    if not isinstance(default, str):
        return None
    for choice in choices:
        if not isinstance(choice, str) and _written(choice) == default.strip().lower():
            return f"write {_written(choice)} without quotes: in quotes it is a text"
    return None


def _written(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "numbers"
    if isinstance(value, str):
        return "words"
    return "other values"


def compile_pieces(
    host: DslHost, env: Env, root: Scope, ruleset: Ruleset
) -> tuple[dict[str, tuple[Fn, str]], dict[str, dict[str, Hook]], dict[str, list[HeldHook]]]:
    """Each catalog's `active` predicate (piece type -> (predicate, self slot)), each entry's
    `on:` hooks (event -> piece type -> Hook), and the hooks of the entries a `held-by:` catalog
    gives to a seat (event -> HeldHook, in catalog order)."""
    active: dict[str, tuple[Fn, str]] = {}
    hooks: dict[str, dict[str, Hook]] = {}
    held: dict[str, list[HeldHook]] = {}
    written: dict[tuple[str, str], list[HookDecl]] = {}
    for decl in ruleset.hooks:
        written.setdefault((decl.catalog, decl.entry), []).append(decl)
    for cname, catalog in ruleset.catalogs.items():
        holder = _holder(host, root, catalog)
        if catalog.active is not None:
            scope = root.child()
            key = scope.temp("self", Piece(cname))
            pred = host.expression(
                catalog.active, [*catalog.path, "active"], scope, expect="bool"
            ).fn
            for eid in catalog.entries:
                active[eid] = (pred, key)
        for eid, entry in catalog.entries.items():
            for decl in written.get((cname, eid), ()):
                event, hpath = decl.event, list(decl.path)
                if event not in env.events:
                    host.error(
                        hpath,
                        "R003",
                        f"unknown event '{event}'",
                        hint(event, env.events),
                        at_key=True,
                    )
                    continue
                scope = root.child()
                # a held entry's `self` is its id; a piece's is the piece
                self_key = scope.temp("self", (Piece if holder is None else Id)(cname))
                owner_key = scope.temp("owner", SEAT)
                # the values' types, as the event's `emit` sites pass them (compiled before)
                seen = env.types.events.get(event, []) if env.types else []
                keys = tuple(
                    scope.temp(p, seen[i] if i < len(seen) else None)
                    for i, p in enumerate(env.events[event])
                )
                if decl.may is not None:
                    fn = _may_hook(host, scope, decl, hpath)
                else:
                    fn = host.statements(decl.do, hpath, scope)
                if host.probes is not None:  # a coverage build: count each run of the hook
                    k = host.probes.point("effect", f"{eid} on {event}", *host.text_origin(hpath))
                    fn = host.probes.wrap(k, fn)
                hook = Hook(fn, self_key, owner_key, keys)
                if holder is None:
                    hooks.setdefault(event, {})[eid] = hook
                else:
                    held.setdefault(event, []).append(HeldHook(eid, hook, holder))
            if host.probes is not None:
                for ability in entry.grants:
                    gpath = [*catalog.path, "entries", eid, "grants", ability]
                    where = host.text_origin(gpath)
                    host.probes.grants[(eid, ability)] = host.probes.point(
                        "grant", f"{eid} grants {ability}", *where
                    )
    return active, hooks, held


def _holder(host: DslHost, root: Scope, catalog: Catalog) -> Holder | None:
    """A `held-by:` catalog's holder: the seat (or none) that holds the entry `self` names now.
    Its entries are no pieces (roles, say): their hooks run for the seat holding them."""
    if catalog.held_by is None:
        return None
    scope = root.child()
    key = scope.temp("self", Id(catalog.name))
    fn = host.expression(catalog.held_by, [*catalog.path, "held-by"], scope).fn

    def holder(s: RunningState, entry: str) -> Any:
        s.t[key] = entry
        return fn(s)

    return holder


def _may_hook(host: DslHost, scope: Scope, decl: HookDecl, hpath: list[Any]) -> Fn:
    """A `{may: ..., do: ...}` hook (model/may.py): the offer is recorded in the owner's pending
    bag, `amount` more when `when` holds (both read as the event happens), then `do` runs. A
    `for:` offer records each value `when` holds for, in the entry's own bag."""
    assert decl.may is not None
    offer = decl.may
    mpath = [*hpath, "may"]
    each = split_for(offer.ranges) if offer.ranges is not None else None
    domain: Fn | None = None
    slot = ""
    if each is not None:
        var, coll, offset = each
        domain = host.expression(coll, [*mpath, "for"], scope, offset, expect="collection").fn
        slot = scope.temp(var, item_of(host.c.last_type or ANY))
    when = (
        host.expression(offer.when, [*mpath, "when"], scope, expect="bool").fn
        if offer.when is not None
        else None
    )
    amount_key = scope.temp("may-offered")
    if offer.amount is not None:
        amount = host.expression(offer.amount, [*mpath, "amount"], scope, expect="number").fn
    else:
        amount = None
    if each is not None:
        record = host.statements(f"owner.{each_field(decl.entry)}[{each[0]}] = 1", mpath, scope)
    else:
        record = host.statements(
            f"owner.{pending_field(decl.catalog)}[{decl.entry}] += may-offered", mpath, scope
        )
    plain_do = host.statements(decl.do, [*hpath, "do"], scope) if decl.do is not None else None

    def offer_made(s: RunningState) -> None:
        if domain is not None:
            for value in domain(s):
                s.t[slot] = value
                if when is None or when(s):
                    record(s)
        elif when is None or when(s):
            s.t[amount_key] = 1 if amount is None else amount(s)
            record(s)
        if plain_do is not None:
            plain_do(s)

    return offer_made
