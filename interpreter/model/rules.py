"""Compiles a composed ruleset (already schema-checked) into the tables and closures a Game runs.

Reads the ruleset's sections once: sets, tables, catalogs (pieces with attributes, dynamic
fields, grants and hooks), state declarations, events, functions and procedures, the flow and
phases, and scoring. All DSL texts are compiled here; every fault becomes a Diagnostic that
points at the rule file (file:line:col inside the effect text), and all of them are reported.
Each section has its own module; this one orders them (names before the texts that use them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.dsl.compiler import Compiler, Env, Fn, Scope
from interpreter.model.added_entries import report as report_lacks, set_aside
from interpreter.model.catalogs import HeldHook, Hook, compile_pieces, declare_names
from interpreter.model.costs import OptionCost, compile_costs
from interpreter.model.datatypes import DataTypes, check_data_types
from interpreter.model.end_triggers import declare_end_triggers
from interpreter.model.flow import Program, compile_flow, declare_variables
from interpreter.model.functions import (
    check_functions,
    declare_events,
    declare_functions,
    unused_events,
)
from interpreter.model.host import SECRET_VARS, DslHost
from interpreter.model.invariants import Invariant, compile_invariants
from interpreter.model.limits import Limits, read_limits
from interpreter.model.may import card_paths, expand_may, unasked_offers
from interpreter.model.origins import TextOrigins
from interpreter.model.scoring import Scoring, compile_scoring
from interpreter.model.state_decl import LOCAL_SCOPES, declare_state
from interpreter.model.typeinfo import type_info
from interpreter.model.unbound import fold_unbound_seat_names
from interpreter.model.unread import check_unread
from interpreter.model.words import Words, uncited_knobs, untexted_options

__all__ = ["Hook", "Rules", "Scoring", "build_rules"]


@dataclass
class Rules:
    """Everything compiled from one ruleset for one player count and option set."""

    env: Env
    program: Program
    global_init: dict[str, tuple[str, Any]]  # name -> (kind, start)
    player_init: dict[str, tuple[str, Any]]
    hidden_global: set[str]
    hidden_player: set[str]
    hidden_all: set[str]
    player_areas: tuple[str, ...]
    hooks: dict[str, dict[str, Hook]]
    active: dict[str, tuple[Fn, str]]  # piece type -> (predicate, self slot)
    # event -> the hooks of entries that are no pieces, run for the seat holding them
    held_hooks: dict[str, list[HeldHook]]
    round_over: Fn
    trigger: Fn | None
    scoring: Scoring
    types: DataTypes = field(default_factory=DataTypes)
    collections: dict[str, str] = field(default_factory=dict)  # field -> set/catalog it holds
    warnings: list[Diagnostic] = field(default_factory=list)
    invariants: tuple[Invariant, ...] = ()  # checked on request (engine/invariant_checks.py)
    limits: Limits = field(default_factory=Limits)  # the safety bound of every game
    # scope (phase, round) -> its local (global or player, field) pairs, left out of views
    # while no phase (round) runs
    local: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # (no phase runs, no round runs) -> the local fields out of the view then, made as met
    # (engine/view.py's out_of_scope, asked at every step of an agent environment)
    out_of_view: dict[tuple[bool, bool], frozenset[tuple[str, str]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # generated code object -> (file, line, column, JSON path) of the rule text it runs
    origins: TextOrigins | None = None
    # a coverage build's counters (model/probes.py); None for every other game
    probes: Any = None
    # a journal build: the generated code notes each state write in ``s.tj`` (dsl/journal.py)
    journal: bool = False
    # option family -> what its options cost, for people (presentation/options/F/cost)
    costs: dict[str, OptionCost] = field(default_factory=dict)
    # `state: remember:` piles: what a seat remembers when ids leave its sight (engine/knowledge.py)
    remember: tuple[str, ...] = ()
    # the ids' names and the options' texts, for log lines (model/words.py)
    words: Words = field(default_factory=Words)
    # the flow variables whose value may come from what some seat may not see (dsl/secrecy.py;
    # None: not known, as in a lazy build given no marks, so any may): hidden from the listing
    # that decides whether a lone option is taken (engine/forced.py)
    secret_vars: frozenset[str] | None = None

    @cached_property
    def grants_by_type(self) -> dict[str, tuple[tuple[tuple[str, int], ...], Fn | None, str]]:
        """Piece type -> what one active piece of it grants, (ability, amount) pairs with
        amounts other than 0, and its `active` predicate with the slot its `self` is read
        from (None, "": always active), so the walk that sums what a seat's pieces grant
        (engine/machine.py) looks a piece's type up once."""
        by_type: dict[str, list[tuple[str, int]]] = {}
        for name, amounts in self.env.abilities.items():
            for kind, amount in amounts.items():
                if amount:
                    by_type.setdefault(kind, []).append((name, amount))
        return {
            kind: (tuple(pairs), *self.active.get(kind, (None, "")))
            for kind, pairs in by_type.items()
        }


def build_rules(
    data: Any,
    players: int,
    options: dict[str, Any],
    *,
    for_checking: bool = False,
    deferred: bool = False,
    lazy: bool = False,
    notes: dict[str, Any] | None = None,
    probes: Any = None,
    journal: bool = False,
    secret_marks: Mapping[Any, Any] | None = None,
) -> Rules:
    """Compile `data` (a composed ruleset tree) for `players` seats and the resolved options.

    ``for_checking`` stops each text after the resolve pass (every name resolved, every
    diagnostic raised, no code generated), for callers that only want the diagnostics
    (validation); otherwise each text is also generated as Python, which games run on:
    ``deferred``, only when it first runs (validation's one set-up runs few of them).
    ``lazy`` also parses and resolves each text only when it first runs, unchecked: for a
    ruleset already checked with another player count (see ``notes``), set up for this one.
    ``notes["count_used"]``, when given a dict, says whether any check read the player count's
    value (see ``Env.count_consts``); without that, every count gives the same diagnostics.
    ``notes["secret_marks"]`` gets which `choose` steps depend on a hidden field, by position;
    a lazy build is given them back as ``secret_marks`` (it resolves no text it has not run).
    ``probes`` (a model.probes.Probes) makes a coverage build: the generated code counts each
    rule point it runs there. ``journal`` makes a journal build: the generated code notes
    each write to the state in the state's journal (dsl/journal.py).
    """
    # what the cards' `may:` hooks need (their pending bags, the phase that asks them)
    unasked = unasked_offers(data)
    data = expand_may(data)
    root = Scope(None)
    env = Env(
        players=players,
        global_fields={},
        player_fields={"seat": "value"},
        piece_fields=set(),
        abilities={},
        constants={},
        attrs={},
        piece_defaults={},
        options=dict(options),
    )
    compiler = Compiler(
        env,
        root,
        checking=for_checking,
        deferred=deferred,
        lazy=lazy,
        probes=probes,
        journal=journal,
    )
    host = DslHost(compiler, data, players, probes)
    host.card_paths = card_paths(data)
    catalogs = data.get("catalogs") or {}

    declare_names(host, env, data)
    # the names log lines print the declared ids by (model/words.py), known to every text
    words = Words.from_data(data, (k for k, v in env.constants.items() if k == v))
    env.id_names.update(words.names)
    types = DataTypes()
    if not lazy:  # a lazy build's data was checked with another count, and its types unused
        types, type_faults = check_data_types(data)
        host.diagnostics.extend(type_faults)
    # what an overlay's entries lack is reported at the overlay, once the texts are checked
    lacks = set_aside(host, data, types)
    fields = declare_state(host, env, data)
    declare_functions(host, env, data)
    declare_events(env, data)
    # a lazy build's texts were checked with another count: resolved unchecked when they run
    env.types = None if lazy else type_info(data, types, env)
    declare_variables(host, data)
    declare_end_triggers(root, env, data)
    # the flow before the hooks: its `emit` sites type the values each hook is given
    flow = compile_flow(host, data, {scope: fields.reset(scope) for scope in LOCAL_SCOPES})
    active, hooks, held_hooks = compile_pieces(host, env, root, catalogs)
    scoring = compile_scoring(host, root, data)
    invariants = compile_invariants(host, data)
    costs = compile_costs(host, data)

    if not lazy:
        check_functions(host, root)
    host.recheck()
    if env.types is not None:
        report_lacks(host, data, env.types, lacks)
    if env.types is not None and not host.diagnostics:
        # what every text reads is known now; a text that failed would read too little
        check_unread(host, data, env.types)
    # which decisions depend on a hidden field (model/host.py): a hidden pile's size is shown
    # to every seat (engine/view.py) unless it is hidden as `all`
    areas = {k for k, (kind, _) in fields.player_init.items() if kind == "area"}
    counted = {
        (where, name)
        for where, init, hidden in (
            ("global", fields.global_init, fields.hidden_global),
            ("player", fields.player_init, fields.hidden_player),
        )
        for name, (kind, _) in init.items()
        if name in hidden and name not in fields.hidden_all and kind in ("pile", "area")
    }
    marks = host.settle_secrets(
        fields.hidden_global,
        fields.hidden_player,
        counted,
        bool(areas & fields.hidden_player),
        secret_marks,
    )
    limits = read_limits(data)
    warnings = unused_events(data, env) + limits.warnings() + untexted_options(data) + unasked
    warnings += uncited_knobs(data)
    if notes is not None:
        notes["count_used"] = env.count_used
        notes["secret_marks"] = marks
        if not lazy:  # every text resolved, for the analyses of the whole (model/texts.py)
            texts = host.rule_texts
            texts.events = env.events
            texts.hidden_global = frozenset(fields.hidden_global)
            texts.hidden_player = frozenset(fields.hidden_player)
            texts.piles = frozenset(
                (where, name)
                for where, init, hidden in (
                    ("global", fields.global_init, fields.hidden_global),
                    ("player", fields.player_init, fields.hidden_player),
                )
                for name, (kind, _) in init.items()
                if name in hidden and kind in ("pile", "area")
            )
            texts.remembered = frozenset(
                n for n in fields.remember if fields.player_init.get(n, ("pile",))[0] != "pile"
            )
            texts.hidden_areas = bool(areas & fields.hidden_player)
            notes["texts"] = texts
    if host.diagnostics:
        # a fault inside a rule function is found at every call site: report it once
        faults = fold_unbound_seat_names(data, host.diagnostics)
        unique = {(d.code, d.file, d.line, d.column, d.message): d for d in faults}
        raise RulesError(sorted(unique.values(), key=Diagnostic.sort_key))

    return Rules(
        env=env,
        program=flow.program,
        global_init=fields.global_init,
        player_init=fields.player_init,
        hidden_global=fields.hidden_global,
        hidden_player=fields.hidden_player,
        hidden_all=fields.hidden_all,
        player_areas=tuple(k for k, (kind, _) in fields.player_init.items() if kind == "area"),
        hooks=hooks,
        active=active,
        held_hooks=held_hooks,
        round_over=flow.round_over,
        trigger=flow.trigger,
        scoring=scoring,
        types=types,
        warnings=warnings,
        collections=fields.collections,
        invariants=invariants,
        limits=limits,
        local=fields.local,
        origins=host.origins(),
        probes=probes,
        journal=journal,
        costs=costs,
        remember=fields.remember,
        words=words,
        secret_vars=marks[SECRET_VARS],
    )
