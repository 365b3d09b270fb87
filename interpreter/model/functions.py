"""Rule functions, procedures and events: declared before any rule text is compiled (a call site
inlines its own copy of a function), then checked on their own once everything is compiled."""

from __future__ import annotations

from typing import Any

from interpreter.diagnostics.errors import Diagnostic
from interpreter.dsl.compiler import Callable_, Env, Scope
from interpreter.load.locate import json_pointer, locate
from interpreter.model.host import DslHost
from interpreter.model.values import rule_text


def declare_functions(host: DslHost, env: Env, data: Any) -> None:
    """`functions:` (an `expr`) and `procedures:` (a `do`) into `env.functions`."""
    for section, is_proc, body_key in (("functions", False, "expr"), ("procedures", True, "do")):
        for fname, fdecl in (data.get(section) or {}).items():
            fname = str(fname)
            if fname in env.functions:
                host.error([section, fname], "R002", f"'{fname}' is declared twice")
            env.functions[fname] = Callable_(
                name=fname,
                params=[str(p) for p in (fdecl.get("params") or [])],
                text=rule_text(fdecl.get(body_key, "pass" if is_proc else "0")),
                is_procedure=is_proc,
                origin=[section, fname, body_key],
            )


def declare_events(env: Env, data: Any) -> None:
    """Each event's parameter names, into `env.events`."""
    env.events = {
        str(k): [str(p) for p in (v or [])] for k, v in (data.get("events") or {}).items()
    }


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


def unused_events(data: Any, env: Env) -> list[Diagnostic]:
    """Events declared but never emitted are warnings (a hook on them could never run)."""
    out: list[Diagnostic] = []
    for event in env.events:
        if event not in env.emitted:
            file, line, col = locate(data, ["events", event], key=True)
            out.append(
                Diagnostic(
                    "W001",
                    f"event '{event}' is never emitted by any rule",
                    file,
                    line,
                    col,
                    json_pointer(["events", event]),
                    severity="warning",
                )
            )
    return out
