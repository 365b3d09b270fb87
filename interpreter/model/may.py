"""`may:`, an optional effect written on its card: where it is recorded and where it is asked.

A catalog entry's hook may be ``{may: {...}, do: ...}`` instead of statements
(docs/optional-effects.md). When the event happens, ``do`` runs as a plain hook would and the
offer is recorded: ``amount`` (default 1, read then, with ``when`` deciding whether to record
at all) is added to the owner's pending offers, the player bag ``may-CATALOG`` keyed by entry.
The owner is asked later, where the flow runs the phase ``may``, which ``may_phase.py`` writes
from the cards, one question per card in catalog order (a card's offers made before it is asked
add up into one question):

    owner = actor; amount = actor.may-CATALOG[ENTRY]
    if IF:  choose [ID (log LOG, do DO), pass]
    actor.may-CATALOG[ENTRY] = 0

``owner`` and ``amount`` are flow variables while he is asked, so the card's texts read as the
card does. The written phase's option, `if` and `do` are the card's own nodes (positions kept),
so an error in them points at the card. Recording at the event and asking at the next `may`
phase keeps one decision point per question (design.md: decisions are small choices that the
flow asks), and the owner answers with everything that happened in his turn known.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from interpreter.diagnostics.errors import Diagnostic
from interpreter.load.locate import json_pointer
from interpreter.ruleset.flow_steps import FlowSection
from interpreter.ruleset.hooks import MayOffer as TypedOffer
from interpreter.ruleset.ruleset import Ruleset
from interpreter.ruleset.sections import FieldDecl

__all__ = [
    "ASK_PHASE",
    "AMOUNT_VAR",
    "MayOffer",
    "OWNER_VAR",
    "at_card",
    "card_paths",
    "do_procedure",
    "each_field",
    "for_domain",
    "if_function",
    "may_offers",
    "members_of",
    "pending_bags",
    "pending_field",
    "pending_fields",
    "phases_run",
    "split_for",
    "unasked_offers",
]

# The phase the engine writes from the cards' `may:` (the flow runs it where they are asked).
ASK_PHASE = "may"
# The flow variables the asking texts read.
OWNER_VAR = "owner"
AMOUNT_VAR = "amount"


@dataclass(frozen=True)
class MayOffer:
    """One card's `may:` hook: its catalog, entry, event, the offer as typed (`decl`: its
    texts, where they were written), and the nodes the phase the engine writes is made of:
    the `may:` map itself (`spec`) and the hook that holds it (where the generated `pass` is
    placed)."""

    catalog: str
    entry: str
    event: str
    decl: TypedOffer
    spec: Any
    hook: Any = None


def pending_field(catalog: str) -> str:
    """The player bag that holds a catalog's offers not yet asked (keyed by entry)."""
    return f"may-{catalog}"


def each_field(entry: str) -> str:
    """The player bag that holds an entry's `for:` offers not yet asked (keyed by value)."""
    return f"may-{entry}"


def split_for(text: Any) -> tuple[str, str, int] | None:
    """`VAR in COLLECTION` as (VAR, COLLECTION, the column COLLECTION starts at), or None."""
    name, sep, rest = str(text).partition(" in ")
    name = name.strip()
    if not sep or not name or not name.replace("-", "").replace("_", "").isalnum():
        return None
    return name, rest, len(str(text).partition(" in ")[0]) + len(sep)


def members_of(ruleset: Ruleset) -> dict[str, list[str]]:
    """Each set's and catalog's ids, by its name: what a `may:` `for:` may range over."""
    members = {n: [str(x) for x in s.items] for n, s in ruleset.definitions.sets.items()}
    for name, catalog in ruleset.catalogs.items():
        members[name] = list(catalog.entries)
    return members


def for_domain(members: Mapping[str, list[str]], text: Any) -> str | None:
    """The set or catalog a `may:` `for:` ranges over (its values key the pending bag): the
    collection's own name, or the one declaring every id of a list (`[red, blue]`)."""
    parts = split_for(text)
    if parts is None:
        return None
    coll = parts[1].strip()
    if coll in members:
        return coll
    if coll.startswith("[") and coll.endswith("]"):
        ids = [x.strip() for x in coll[1:-1].split(",") if x.strip()]
        for name, have in members.items():
            if ids and all(i in have for i in ids):
                return name
    return None


def may_offers(ruleset: Ruleset) -> Iterator[MayOffer]:
    """Every `may:` hook of the composed ruleset, in catalog order, with its nodes in the
    tree (whose positions the steps written from it keep)."""
    for hook in ruleset.hooks:
        if hook.may is not None:
            yield MayOffer(hook.catalog, hook.entry, hook.event, hook.may, hook.may.node, hook.node)


def phases_run(flow: FlowSection) -> set[str]:
    """The phase names the flow's steps run by name (`phase: NAME` or a quoted
    `phase: '"NAME"'`); a phase an expression picks (`card.phase`) is not among them."""
    return {
        step.head.strip().strip("\"'")
        for step in flow.steps()
        if step.kind == "phase" and isinstance(step.head, str)
    }


def unasked_offers(ruleset: Ruleset) -> list[Diagnostic]:
    """W005: a card's `may:` that is never asked, as no step runs the phase `may`."""
    if ASK_PHASE in phases_run(ruleset.flow):
        return []
    message = (
        f"this offer can never be asked: no step runs the phase '{ASK_PHASE}' "
        f"(add a step `phase: {ASK_PHASE}` where the owner is asked)"
    )
    return [
        Diagnostic(
            "W005",
            message,
            hook.pos.file,
            hook.pos.line,
            hook.pos.column,
            json_pointer(list(hook.path)),
            severity="warning",
        )
        for hook in ruleset.hooks
        if hook.may is not None
    ]


def if_function(entry: str) -> str:
    """The rule function the engine writes for a `for:` offer's `if` (the card's own text)."""
    return f"may-{entry}-if"


def do_procedure(entry: str) -> str:
    """The procedure the engine writes for a `for:` offer's `do` (the card's own text)."""
    return f"may-{entry}-do"


def card_paths(ruleset: Ruleset) -> dict[str, str]:
    """The pointer of each rule the engine writes from a card's `may:` -> the card's own
    pointer, so what a fault there reports is a path an overlay can write: the asking step in
    the phase `may` (its option's `id`, `for`, `log` and `do`, its `label`, its `if`), and a
    `for:` offer's `if` function and `do` procedure. A pointer under a written rule is moved
    with it (`.../options/0/do` -> `.../may/do`); the steps only the engine writes (binding
    `owner`, declining, clearing the offers) name the card's `may:` itself. Most specific
    first, as :func:`at_card` takes the first that holds."""
    out: dict[str, str] = {}
    offered = (hook for hook in ruleset.hooks if hook.may is not None)
    for k, o in enumerate(offered):
        said = o.may.texts if o.may is not None else {}
        card = json_pointer(["catalogs", o.catalog, "entries", o.entry, "on", o.event, "may"])
        asked: list[str | int] = ["phases", ASK_PHASE, k, "then", 1]
        choose: list[str | int]
        if "for" in said:
            out[json_pointer(["functions", if_function(o.entry), "expr"])] = f"{card}/if"
            out[json_pointer(["procedures", do_procedure(o.entry), "do"])] = f"{card}/do"
            repeat = [*asked, "repeat"]
            choose = [*repeat, "steps", 0, "choose"]
            test = f"{card}/if" if "if" in said else f"{card}/for"
            out[json_pointer([*choose, "options", 0, "if"])] = test
            out[json_pointer([*choose, "options", 0, "do"])] = f"{card}/do"
            out[json_pointer([*repeat, "while"])] = test
        else:
            if "if" in said:
                out[json_pointer([*asked, "if"])] = f"{card}/if"
                asked = [*asked, "then", 0]
            choose = [*asked, "choose"]
        out[json_pointer([*choose, "label"])] = f"{card}/label"
        for key in ("id", "for", "log", "do"):
            out.setdefault(json_pointer([*choose, "options", 0, key]), f"{card}/{key}")
        out[json_pointer(["phases", ASK_PHASE, k])] = card
    return out


def at_card(pointer: str, cards: Mapping[str, str]) -> str:
    """`pointer` moved to the card's where it names (or lies under) a rule written from it."""
    for written, card in cards.items():
        if pointer == written:
            return card
        if pointer.startswith(f"{written}/"):
            # under a written text, the rest is a place in the card's text; under a step only
            # the engine writes, the card's `may:` is all an author can name
            whole_step = written.split("/")[1:3] == ["phases", ASK_PHASE]
            if whole_step and written.count("/") == 3:
                return card
            return card + pointer[len(written) :]
    return pointer


def pending_bags(ruleset: Ruleset) -> dict[str, str]:
    """The player bags the cards' offers wait in until asked (field -> the set or catalog that
    keys it): `may-CATALOG` by entry, and `may-ENTRY` by value for an entry's `for:` offer."""
    members = members_of(ruleset)
    bags: dict[str, str] = {}
    for hook in ruleset.hooks:
        if hook.may is None:
            continue
        ranges = hook.may.ranges
        domain = for_domain(members, ranges) if ranges is not None else None
        if domain is not None:
            bags[each_field(hook.entry)] = domain
        else:
            bags.setdefault(pending_field(hook.catalog), hook.catalog)
    return bags


def pending_fields(ruleset: Ruleset) -> tuple[FieldDecl, ...]:
    """The bags of :func:`pending_bags` as the player fields the cards' offers add (a
    field the rules declare themselves is left as they do), after the rules' own fields."""
    declared = {f.name for f in ruleset.fields if f.scope == "player"}
    return tuple(
        FieldDecl("player", name, "bag", collection, path=("state", "player", name))
        for name, collection in pending_bags(ruleset).items()
        if name not in declared
    )
