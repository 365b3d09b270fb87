"""The phase `may` the engine writes from the cards' `may:` hooks (model/may.py), with the rule
function and procedure of each offer `for:` each value, the flow variables the asking texts
read and the player bags the offers wait in, as typed rules (interpreter/ruleset/) that
``compile_rules`` adds to the ruleset's own.

The written steps are made of the card's own nodes where the card wrote a text (its option's
`id`, `if`, `log`, `do`, its `label`), and take the card's positions where the engine wrote
one: :class:`WrittenMay` keeps each written node by its path (``nodes``), so the compiler's
host (model/host.py) finds a text's place there as it finds the rules' own in their tree, and
an error in the phase points at the card. The ruleset's tree is left as it is (the rule a
reader is shown is the card's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.locate import (
    entry_file,
    is_map,
    json_pointer,
    node_file,
    set_entry_file,
    set_node_file,
)
from interpreter.model.may import (
    AMOUNT_VAR,
    ASK_PHASE,
    OWNER_VAR,
    MayOffer,
    do_procedure,
    each_field,
    for_domain,
    if_function,
    may_offers,
    members_of,
    pending_field,
    pending_fields,
    split_for,
)
from interpreter.ruleset.definitions import RuleFunction
from interpreter.ruleset.flow_steps import Phase, steps_of
from interpreter.ruleset.nodes import TreePath, frozen_map, written_beside
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import FieldDecl

__all__ = ["WrittenMay", "write_may"]

# the sections the written rules go in (an absent one is written as an empty map)
_SECTIONS = ("state", "flow", "phases", "functions", "procedures")


@dataclass(frozen=True)
class WrittenMay:
    """What the cards' `may:` hooks add to a ruleset: the phase that asks them, a `for:`
    offer's `if` function and `do` procedure, the flow variables (the rules' own, then `owner`
    and `amount`), the player bags the offers wait in, and every node written, by its path
    from the top of the tree (an absent section's empty map among them): where the host finds
    the written texts and their places."""

    phase: Phase
    functions: Mapping[str, RuleFunction]
    procedures: Mapping[str, RuleFunction]
    variables: tuple[str, ...]
    fields: tuple[FieldDecl, ...]
    nodes: Mapping[TreePath, Any]

    def added_to(self, ruleset: Ruleset) -> Ruleset:
        """``ruleset`` with these rules added (its tree unchanged)."""
        defs, flow = ruleset.definitions, ruleset.flow
        return replace(
            ruleset,
            definitions=replace(
                defs,
                functions=frozen_map({**defs.functions, **self.functions}),
                procedures=frozen_map({**defs.procedures, **self.procedures}),
            ),
            flow=replace(
                flow,
                variables=self.variables,
                phases=frozen_map({**flow.phases, ASK_PHASE: self.phase}),
            ),
            fields=(*ruleset.fields, *self.fields),
        )


def write_may(ruleset: Ruleset) -> WrittenMay | None:
    """What the ruleset's `may:` hooks need written (:class:`WrittenMay`); None when no hook
    has a `may:`. R002 where the rules name a phase `may` themselves, D007 where a `for:`
    ranges over no set or catalog."""
    offers = list(may_offers(ruleset))
    if not offers:
        return None
    taken = ruleset.flow.phases.get(ASK_PHASE)
    if taken is not None:
        message = (
            f"the phase '{ASK_PHASE}' is the one the engine writes from the cards' "
            "`may:` hooks; name this phase otherwise"
        )
        at = taken.pos
        pointer = json_pointer(["phases", ASK_PHASE])
        raise RulesError([Diagnostic("R002", message, at.file, at.line, at.column, pointer)])
    domains = _each_domains(members_of(ruleset), offers)
    data = ruleset.data
    nodes: dict[TreePath, Any] = {}
    # each section's map as the written rules sit in it (an absent one: empty)
    section: dict[str, Any] = {}
    for key in _SECTIONS:
        found = data.get(key)
        section[key] = found if is_map(found) else nodes.setdefault((key,), CommentedMap())
    if not is_map(section["state"].get("player")):
        nodes[("state", "player")] = CommentedMap()
    for bag in pending_fields(ruleset):
        nodes[("state", "player", bag.name)] = {"bag": bag.holds}
    # a `for:` offer's `if` function and `do` procedure, by path (functions/NAME)
    made: dict[tuple[str, str], CommentedMap] = {}
    for o in offers:
        if o.entry not in domains:
            continue
        params = CommentedSeq([domains[o.entry].var])
        if o.decl.condition is not None:
            made[("functions", if_function(o.entry))] = _like(
                o.spec, [("params", params, "for"), ("expr", o.decl.condition, "if")]
            )
        made[("procedures", do_procedure(o.entry))] = _like(
            o.spec, [("params", params, "for"), ("do", o.decl.do, "do")]
        )
    written: dict[str, dict[str, RuleFunction]] = {"functions": {}, "procedures": {}}
    for (where, name), node in made.items():
        nodes[(where, name)] = node
        pos = written_beside(section[where], name, node)
        written[where][name] = RuleFunction.from_node(where, name, node, pos)
    variables = [*ruleset.flow.variables]
    variables += [v for v in (OWNER_VAR, AMOUNT_VAR) if v not in variables]
    nodes[("flow", "variables")] = CommentedSeq(variables)
    steps = CommentedSeq(
        step
        for o in offers
        for step in (
            _ask_each_steps(o, domains[o.entry].var, domains[o.entry].collection)
            if o.entry in domains
            else _ask_steps(o)
        )
    )
    path: TreePath = ("phases", ASK_PHASE)
    nodes[path] = steps
    phase = Phase(
        ASK_PHASE,
        steps_of(steps, path),
        path,
        written_beside(section["phases"], ASK_PHASE, steps),
    )
    return WrittenMay(
        phase,
        frozen_map(written["functions"]),
        frozen_map(written["procedures"]),
        tuple(variables),
        pending_fields(ruleset),
        MappingProxyType(nodes),
    )


def _like(src: Any, items: list[tuple[str, Any, str | None]]) -> CommentedMap:
    """A new map of `items` (key, value, the key of `src` whose position it takes): the
    generated step keeps the card's positions, so what it reports points at the card."""
    out = CommentedMap()
    out.lc.data = {}
    src_lc = getattr(src, "lc", None) if hasattr(type(src), "lc") else None
    if src_lc is not None:
        out.lc.line, out.lc.col = src_lc.line, src_lc.col
    set_node_file(out, node_file(src))
    for key, value, from_key in items:
        out[key] = value
        if from_key is not None and src_lc is not None and from_key in (src_lc.data or {}):
            out.lc.data[key] = list(src_lc.data[from_key])
            set_entry_file(out, key, entry_file(src, from_key))
    return out


def _log(offer: MayOffer) -> list[tuple[str, Any, str | None]]:
    """The option's `log` (none where the card writes none): the card's own node, as a
    ``{text, own, seat}`` map holds the places its parts were written in."""
    return [] if offer.decl.log is None else [("log", offer.spec["log"], "log")]


def _pass(offer: MayOffer, do: str | None = None) -> CommentedMap:
    """Declining, placed at the card's `may:` key (what it reports and counts points there)."""
    out = _like(offer.hook, [("id", "pass", "may"), *([("do", do, None)] if do else [])])
    if "id" in out.lc.data:
        out.lc.line, out.lc.col = out.lc.data["id"][:2]
    return out


def _ask_each_steps(offer: MayOffer, var: str, coll: str) -> list[Any]:
    """The steps that ask a `for:` offer: one question with an option for each value offered
    and not yet taken (`if` holding), asked again after each one taken; `pass` declines the
    rest (see the module docstring)."""
    spec, decl = offer.spec, offer.decl
    bag = f"actor.{each_field(offer.entry)}"
    tested = f" and {if_function(offer.entry)}({var})" if decl.condition is not None else ""
    tested_at = "for" if decl.condition is None else "if"  # where the test's place is taken
    test = f"{bag}[{var}] > 0{tested}"
    option = _like(
        spec,
        [
            ("id", decl.id, "id"),
            ("for", decl.ranges, "for"),
            ("if", test, tested_at),
            *_log(offer),
            ("do", f"{bag}[{var}] = 0\n{do_procedure(offer.entry)}({var})", "do"),
        ],
    )
    choose = _like(
        spec,
        [
            ("who", "actor", None),
            ("label", str(decl.label or f"{decl.id}?"), "label"),
            ("options", CommentedSeq([option, _pass(offer, f"clear({bag})")]), None),
        ],
    )
    asked = _like(
        spec,
        [
            (
                "while",
                f"any({test} for {var} in {coll})",
                "for" if decl.condition is None else "if",
            ),
            (
                "steps",
                CommentedSeq(
                    [
                        _like(
                            spec,
                            [("name", f"{offer.entry}-choice", None), ("choose", choose, None)],
                        )
                    ]
                ),
                None,
            ),
        ],
    )
    steps = CommentedSeq(
        [
            _like(
                spec,
                [("name", f"{offer.entry}-offered", None), ("do", f"{OWNER_VAR} = actor", None)],
            ),
            _like(spec, [("name", f"{offer.entry}-asked", None), ("repeat", asked, None)]),
            _like(spec, [("name", f"{offer.entry}-done", None), ("do", f"clear({bag})", None)]),
        ]
    )
    return [
        _like(
            spec,
            [("name", offer.entry, None), ("if", f"total({bag}) > 0", None), ("then", steps, None)],
        )
    ]


def _ask_steps(offer: MayOffer) -> list[Any]:
    """The steps that ask one card's offer (see the module docstring)."""
    spec, decl = offer.spec, offer.decl
    pending = f"actor.{pending_field(offer.catalog)}[{offer.entry}]"
    option = _like(spec, [("id", decl.id, "id"), *_log(offer), ("do", decl.do, "do")])
    choose = _like(
        spec,
        [
            ("who", "actor", None),
            ("label", str(decl.label or f"{decl.id}?"), "label"),
            ("options", CommentedSeq([option, _pass(offer)]), None),
        ],
    )
    ask: Any = _like(spec, [("name", f"{offer.entry}-choice", None), ("choose", choose, None)])
    if decl.condition is not None:
        ask = _like(
            spec,
            [
                ("name", f"{offer.entry}-asked", None),
                ("if", decl.condition, "if"),
                ("then", CommentedSeq([ask]), None),
            ],
        )
    bind = f"{OWNER_VAR} = actor\n{AMOUNT_VAR} = {pending}"
    steps = CommentedSeq(
        [
            _like(spec, [("name", f"{offer.entry}-offered", None), ("do", bind, None)]),
            ask,
            _like(spec, [("name", f"{offer.entry}-done", None), ("do", f"{pending} = 0", None)]),
        ]
    )
    return [
        _like(
            spec,
            [("name", offer.entry, None), ("if", f"{pending} > 0", None), ("then", steps, None)],
        )
    ]


@dataclass(frozen=True)
class Each:
    """A `for:` offer's `VAR in COLLECTION`, and the set or catalog (`domain`) it ranges over."""

    var: str
    collection: str
    domain: str


def _each_domains(members: Mapping[str, list[str]], offers: list[MayOffer]) -> dict[str, Each]:
    """Entry -> what its `for:` offer ranges over. D007 where a `for:` is no `VAR in
    COLLECTION` over a set, a catalog or a list of one's ids."""
    domains: dict[str, Each] = {}
    faults: list[Diagnostic] = []
    for o in offers:
        ranges = o.decl.ranges
        if ranges is None:
            continue
        domain = for_domain(members, ranges)
        parts = split_for(ranges)
        if domain is None or parts is None:
            path = ["catalogs", o.catalog, "entries", o.entry, "on", o.event, "may", "for"]
            at = o.decl.places.value("for")
            faults.append(
                Diagnostic(
                    "D007",
                    "a `may:` `for:` is 'NAME in COLLECTION', the collection a set or catalog "
                    f"or a list of its ids (its values key the offers), got {ranges!r}",
                    at.file,
                    at.line,
                    at.column,
                    json_pointer(path),
                )
            )
            continue
        domains[o.entry] = Each(parts[0], parts[1], domain)
    if faults:
        raise RulesError(faults)
    return domains
