"""The end triggers named bare in rule texts, as the rules say them: the names under
`presentation: ends:` (why the game ended, in words, per value of the flow's `trigger:`) read as
themselves wherever a text writes them and they name nothing else (`trigger: deck-exhausted if
end-trigger == none else end-trigger`, `end-trigger = city-full`, `trigger-end(city)`). A name
the ruleset declares otherwise (a state field, a table, a function, an id) keeps its meaning,
and its end trigger is written in quotes there (`"points"` where `points` is a counter),
except where a text gives an end trigger (below).

A bare name of no trigger nor anything else is D003 (unknown name), whose did-you-mean lists
the triggers too; the whole `trigger:` a bare word naming nothing is R001 (unknown end
trigger), with a did-you-mean among them. Where a text gives an end trigger (assigns one to a
field the `trigger:` reads, or passes one to a procedure that does: `trigger-end(points)`),
a trigger's name is the trigger even where it also names a field (dsl/resolve/barewords.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from interpreter.diagnostics.suggest import did_you_mean
from interpreter.dsl.compiler import Compiler, Fn
from interpreter.dsl.emit.emitter import Emitted
from interpreter.dsl.parse.parser import DslSyntaxError, parse
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.scope import SPECIAL_NAMES, Env, Scope
from interpreter.ruleset.flow_steps import FlowSection
from interpreter.ruleset.nodes import Plain

__all__ = ["TriggerHost", "compile_trigger", "declare_end_triggers", "trigger_fields"]

_BARE_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*(-[a-zA-Z0-9_]+)*")


def trigger_fields(env: Env, flow: FlowSection) -> frozenset[str]:
    """The state fields the flow's `trigger:` reads (`end-trigger`): what a text assigns to
    one, or compares with one, is an end trigger (dsl/resolve/barewords.py)."""
    text = flow.trigger
    if not isinstance(text, str):
        return frozenset()
    try:
        tree = parse(text, "expr")
    except DslSyntaxError:
        return frozenset()  # reported where the trigger is compiled
    return frozenset(
        str(node.children[0])
        for node in tree.iter_subtrees()
        if node.data == "name" and str(node.children[0]) in env.global_fields
    )


def declare_end_triggers(
    root: Scope, env: Env, flow: FlowSection, triggers: tuple[str, ...]
) -> None:
    """Bind each end trigger (`triggers`: the keys of `presentation: ends:`) that names nothing
    else to itself, for every text; note the triggers and the fields that hold one, for the
    texts that give one (dsl/resolve/barewords.py)."""
    env.end_triggers = triggers
    env.trigger_fields = trigger_fields(env, flow)
    for name in triggers:
        taken = (
            name in env.global_fields
            or name in env.constants
            or name in env.functions
            or name in SPECIAL_NAMES
            or root.lookup(name) is not None
        )
        if not taken:
            root.bindings[name] = ("alias", ir.Const(name))


class TriggerHost(Protocol):
    """What compiling the flow's texts asks of the model builder's host (model/host.py's
    ``DslHost``, which imports the flow's types: named here, not imported, so that neither
    module imports the other): its compiler, a text compiled at a data path, a fault
    reported there. flow.py's ``StepHost`` adds what the flow's steps ask."""

    @property
    def c(self) -> Compiler: ...

    def expression(
        self, text: Plain, path: Sequence[str | int], *, expect: str | None = None
    ) -> Emitted: ...

    def error(
        self, path: Sequence[str | int], code: str, message: str, hint: str | None = None
    ) -> None: ...


def compile_trigger(dsl: TriggerHost, flow: FlowSection) -> Fn | None:
    """The flow's `trigger:` compiled (None without one); a bare word that names no end trigger
    nor anything else is R001 (unknown end trigger), with a did-you-mean among the triggers."""
    if flow.trigger is None:
        return None
    text, path = flow.trigger, ["flow", "trigger"]
    word = text.strip() if isinstance(text, str) else ""
    env = dsl.c.env
    known = (
        dsl.c.root.lookup(word) is not None
        or word in env.global_fields
        or word in env.constants
        or word in env.functions
        or word in SPECIAL_NAMES
    )
    if _BARE_NAME.fullmatch(word) and not known:
        guess = did_you_mean(word, list(env.end_triggers))
        hint = f"did you mean '{guess}'?" if guess else None
        dsl.error(path, "R001", f"unknown end trigger '{word}'", hint)
        return None
    return dsl.expression(text, path).fn
