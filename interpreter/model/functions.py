"""Rule functions, procedures and events: declared before any rule text is compiled (a call site
inlines its own copy of a function), then checked on their own once everything is compiled."""

from __future__ import annotations

from interpreter.diagnostics.errors import Diagnostic
from interpreter.dsl.compiler import Callable_, Env, Scope
from interpreter.load.locate import json_pointer
from interpreter.model.host import DslHost
from interpreter.model.values import rule_text
from interpreter.ruleset.definitions import Definitions


def declare_functions(host: DslHost, env: Env, definitions: Definitions) -> None:
    """`functions:` (an `expr`) and `procedures:` (a `do`) into `env.functions`."""
    for section, is_proc, body_key in (("functions", False, "expr"), ("procedures", True, "do")):
        declared = definitions.functions if section == "functions" else definitions.procedures
        for f in declared.values():
            if f.name in env.functions:
                host.error([section, f.name], "R002", f"'{f.name}' is declared twice")
            # a tree built in code may leave the body out: a function then gives 0
            body = f.body if f.body is not None else "pass" if is_proc else "0"
            env.functions[f.name] = Callable_(
                name=f.name,
                params=list(f.params),
                text=rule_text(body),
                is_procedure=is_proc,
                origin=[section, f.name, body_key],
            )


def declare_events(env: Env, definitions: Definitions) -> None:
    """Each event's parameter names, into `env.events`."""
    env.events = {name: [str(p) for p in event.items] for name, event in definitions.events.items()}


def check_functions(host: DslHost, root: Scope) -> None:
    """Compile each rule function and procedure on its own, so faults in one nobody calls yet
    are reported too (call sites inline their own copies). One inlined whole at a call site
    was checked there, with its arguments' types (which a check on its own does not know):
    its body has no fault this check could find, and a build is spared resolving it again."""
    env = host.c.env
    for fn in env.functions.values():
        if fn.name in env.inlined:
            continue
        scope = root.child()
        for param in fn.params:
            scope.temp(param)
        path = fn.origin or []
        if fn.is_procedure:
            host.statements(fn.text, path, scope)
        else:
            host.expression(fn.text, path, scope)


def unused_events(definitions: Definitions, env: Env) -> list[Diagnostic]:
    """Events declared but never emitted are warnings (a hook on them could never run)."""
    out: list[Diagnostic] = []
    for event in env.events:
        if event not in env.emitted:
            where = definitions.events[event].pos
            out.append(
                Diagnostic(
                    "W001",
                    f"event '{event}' is never emitted by any rule",
                    where.file,
                    where.line,
                    where.column,
                    json_pointer(["events", event]),
                    severity="warning",
                )
            )
    return out
