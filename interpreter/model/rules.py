"""Compiles a composed ruleset (already schema-checked) into the tables and closures a Game runs.

Reads the ruleset's sections once: sets, tables, catalogs (pieces with attributes, dynamic
fields, grants and hooks), state declarations, events, functions and procedures, the flow and
phases, and scoring. All DSL texts are compiled here; every fault becomes a Diagnostic that
points at the rule file (file:line:col inside the effect text), and all of them are reported.
Each section has its own module; this one orders them (names before the texts that use them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.dsl.compiler import FOR_PLAY, Compiler, Emit, EmitPlan, Env, Fn, Scope
from interpreter.model.added_entries import report as report_lacks, set_aside
from interpreter.model.catalogs import HeldHook, Hook, compile_pieces, declare_names
from interpreter.model.costs import OptionCost, compile_costs
from interpreter.model.datatypes import DataTypes, check_data_types
from interpreter.model.decisions import SECRET_VARS
from interpreter.model.end_triggers import declare_end_triggers
from interpreter.model.flow import Program, compile_flow, declare_variables
from interpreter.model.functions import (
    check_functions,
    declare_events,
    declare_functions,
    unused_events,
)
from interpreter.model.host import DslHost
from interpreter.model.invariants import Invariant, compile_invariants
from interpreter.model.limits import Limits, read_limits
from interpreter.model.may import card_paths, unasked_offers
from interpreter.model.may_phase import write_may
from interpreter.model.origins import TextOrigins
from interpreter.model.probes import Probes
from interpreter.model.scoring import Scoring, compile_scoring
from interpreter.model.state_decl import StateFields, declare_state
from interpreter.model.texts import Texts
from interpreter.model.typeinfo import type_info
from interpreter.model.unbound import fold_unbound_seat_names
from interpreter.model.unread import check_unread
from interpreter.model.words import Words, uncited_knobs, untexted_options
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["Compiled", "Hook", "Rules", "Scoring", "SecretMarks", "build_rules", "compile_rules"]


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
    # catalog -> its entries' ids, sorted (every build, checked or not: infoset/forced.py tries
    # each as the content of a hidden pile of one)
    catalog_ids: dict[str, tuple[str, ...]] = field(default_factory=dict)
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
    probes: Probes | None = None
    # a journal build: the generated code notes each state write in ``s.tj`` (dsl/emit/journal.py)
    journal: bool = False
    # option family -> what its options cost, for people (presentation/options/F/cost)
    costs: dict[str, OptionCost] = field(default_factory=dict)
    # `state: remember:` piles: what a seat remembers when ids leave its sight
    # (infoset/knowledge.py)
    remember: tuple[str, ...] = ()
    # the ids' names and the options' texts, for log lines (model/words.py)
    words: Words = field(default_factory=Words)
    # the flow variables whose value may come from what some seat may not see (infoset/secrecy.py;
    # None: not known, as in a lazy build given no marks, so any may): hidden from the listing
    # that decides whether a lone option is taken (infoset/forced.py)
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


# which `choose` steps and option lines may depend on a hidden field, by position, and under
# SECRET_VARS the flow variables whose value may come from a secret (Decisions.settle)
SecretMarks = Mapping[Any, Any]


@dataclass(frozen=True)
class Compiled:
    """What one build of a ruleset gives: its rules, or the faults that stopped them, and what
    its passes found on the way, from which validation decides how to check the other counts.
    """

    rules: Rules | None  # None when the rule texts have faults
    faults: tuple[Diagnostic, ...]  # every error, each once, in file order
    # whether any check read the player count's value (Env.count_used): when none did, every
    # count gives the same diagnostics
    count_used: bool
    # which decisions depend on a hidden field: what a build that checks nothing is given
    marks: SecretMarks
    # every resolved rule text, for the analyses of the whole (model/texts.py); None for a
    # build that resolves no text before it runs
    texts: Texts | None

    def rules_or_raise(self) -> Rules:
        """The rules; a RulesError with every fault when the texts have any."""
        if self.rules is None:
            raise RulesError(list(self.faults))
        return self.rules


def build_rules(
    data: Any,
    players: int,
    options: dict[str, Any],
    plan: EmitPlan = FOR_PLAY,
    typed: Ruleset | None = None,
) -> Rules:
    """The rules a game runs (:func:`compile_rules`, the default plan: every text checked and
    written now). Raises RulesError with every fault of the rule texts."""
    return compile_rules(data, players, options, plan, typed=typed).rules_or_raise()


def compile_rules(
    data: Any,
    players: int,
    options: dict[str, Any],
    plan: EmitPlan = FOR_PLAY,
    marks: SecretMarks | None = None,
    typed: Ruleset | None = None,
) -> Compiled:
    """Compile `data` (a composed ruleset tree) for `players` seats and the resolved options.
    `typed`: the typed rules read from `data` where the caller has them (the loader does), so
    they are not read again.

    The passes, in order: declare every name (sets, catalogs, state, functions, events,
    variables) and check the data's types; compile the sections' texts (flow, pieces, scoring,
    invariants, costs); check the whole (functions never called, flow variables read before
    they are known, what overlays' entries lack, unread values); settle which decisions depend
    on a hidden field; collect the faults. `plan` says when each text's code is written and
    what else it does (dsl/compiler.py's EmitPlan: counting rule points for coverage, noting
    writes in a journal). A plan that resolves no text before it runs
    (``Emit.UNCHECKED_ON_FIRST_RUN``: the set-up of a count whose texts were checked with
    another count) checks nothing and must be given that build's `marks`.
    Raises ConfigError for options the ruleset refuses.
    """
    unchecked = plan.when is Emit.UNCHECKED_ON_FIRST_RUN
    if unchecked and marks is None:
        raise ValueError("an unchecked build takes the secrecy marks of a checked one")
    ruleset = typed if typed is not None and typed.data is data else Ruleset.of(data)
    unasked = unasked_offers(ruleset)
    # the typed rules the compilers read, with what the cards' `may:` hooks need added (their
    # pending bags, the phase that asks them)
    written = write_may(ruleset)
    if written is not None:
        ruleset = written.added_to(ruleset)
    definitions, flow_section, state_fields = ruleset.definitions, ruleset.flow, ruleset.fields
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
    host = DslHost(
        Compiler(env, root, plan),
        ruleset.data,
        players,
        # (the dsl names the plan's counters by what it writes of them; a coverage build's
        # are this stage's Probes, which the host also places and reports)
        cast("Probes | None", plan.probes),
        written.nodes if written is not None else None,
        ruleset.header,
    )
    host.card_paths = card_paths(ruleset)

    # names before the texts that use them
    declare_names(host, env, ruleset)
    # the names log lines print the declared ids by (model/words.py), known to every text
    words = Words.from_ruleset(ruleset, (k for k, v in env.constants.items() if k == v))
    env.id_names.update(words.names)
    types = DataTypes()
    if not unchecked:  # an unchecked build's data was checked with another count
        types, type_faults = check_data_types(ruleset)
        host.diagnostics.extend(type_faults)
    # what an overlay's entries lack is reported at the overlay, once the texts are checked
    lacks = set_aside(ruleset, types)
    fields = declare_state(host, env, ruleset, state_fields)
    declare_functions(host, env, definitions)
    declare_events(env, definitions)
    env.types = None if unchecked else type_info(ruleset, types, env)
    declare_variables(host, flow_section)
    declare_end_triggers(root, env, flow_section, tuple(ruleset.presentation.ends))

    # the sections' texts; the flow before the hooks: its `emit` sites type their values
    flow = compile_flow(host, flow_section, fields.reset("round"), fields.reset("phase"))
    active, hooks, held_hooks = compile_pieces(host, env, root, ruleset)
    scoring = compile_scoring(host, root, ruleset.scoring)
    invariants = compile_invariants(host, definitions.invariants)
    costs = compile_costs(host, ruleset.presentation)

    # the whole, once every text is compiled
    if not unchecked:
        check_functions(host, root)
    host.recheck()
    if env.types is not None:
        report_lacks(host, ruleset, env.types, lacks)
    if env.types is not None and not host.diagnostics:
        # what every text reads is known now; a text that failed would read too little
        check_unread(host, ruleset, env.types)

    settled = _settle_secrets(host, fields, marks)
    texts = None if unchecked else _texts(host, env, fields)
    if host.diagnostics:
        return Compiled(None, _faults(ruleset, host.diagnostics), env.count_used, settled, texts)

    limits = read_limits(ruleset)
    warnings = (
        unused_events(definitions, env) + limits.warnings() + untexted_options(ruleset) + unasked
    )
    warnings += uncited_knobs(ruleset)
    rules = Rules(
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
        catalog_ids={
            name: tuple(sorted(catalog.entries)) for name, catalog in ruleset.catalogs.items()
        },
        invariants=invariants,
        limits=limits,
        local=fields.local,
        origins=host.origins(),
        probes=host.probes,
        journal=plan.journal,
        costs=costs,
        remember=fields.remember,
        words=words,
        secret_vars=settled[SECRET_VARS],
    )
    return Compiled(rules, (), env.count_used, settled, texts)


def _hidden_piles(fields: StateFields) -> Iterator[tuple[str, str, bool]]:
    """(global or player, name, hidden as `all`) of each hidden pile and area."""
    for where, init, hidden in (
        ("global", fields.global_init, fields.hidden_global),
        ("player", fields.player_init, fields.hidden_player),
    ):
        for name, (kind, _) in init.items():
            if name in hidden and kind in ("pile", "area"):
                yield where, name, name in fields.hidden_all


def _hidden_areas(fields: StateFields) -> bool:
    """Whether an area of a seat's pieces is hidden (what its pieces grant then reads it)."""
    return any(
        kind == "area" and name in fields.hidden_player
        for name, (kind, _) in fields.player_init.items()
    )


def _settle_secrets(
    host: DslHost, fields: StateFields, marks: SecretMarks | None
) -> dict[Any, Any]:
    """Which decisions depend on a hidden field (model/decisions.py), or `marks`, another build's
    word for it: a hidden pile's size is shown to every seat (engine/view.py) unless it is
    hidden as `all`."""
    counted = {(where, name) for where, name, to_all in _hidden_piles(fields) if not to_all}
    return host.decisions.settle(
        fields.hidden_global, fields.hidden_player, counted, _hidden_areas(fields), marks
    )


def _texts(host: DslHost, env: Env, fields: StateFields) -> Texts:
    """Every text the build resolved, with what the analyses of the whole need to read them."""
    texts = host.rule_texts
    texts.events = env.events
    texts.hidden_global = frozenset(fields.hidden_global)
    texts.hidden_player = frozenset(fields.hidden_player)
    texts.piles = frozenset((where, name) for where, name, _ in _hidden_piles(fields))
    texts.remembered = frozenset(
        n for n in fields.remember if fields.player_init.get(n, ("pile",))[0] != "pile"
    )
    texts.hidden_areas = _hidden_areas(fields)
    return texts


def _faults(ruleset: Ruleset, diagnostics: list[Diagnostic]) -> tuple[Diagnostic, ...]:
    """Every fault once, in file order."""
    # a fault inside a rule function is found at every call site: report it once
    faults = fold_unbound_seat_names(ruleset, diagnostics)
    unique = {(d.code, d.file, d.line, d.column, d.message): d for d in faults}
    return tuple(sorted(unique.values(), key=Diagnostic.sort_key))
