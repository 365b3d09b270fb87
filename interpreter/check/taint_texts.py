"""What the static leak check (check/taint.py) reads off the shape of the rule texts alone:
whether a statement list always writes a log line, the event a hook runs on, and which texts
run only once the game is over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpreter.dsl.resolve import ir
from interpreter.model.texts import Texts

__all__ = ["always_logs", "game_end_blocks", "hook_event"]


def always_logs(stmts: Sequence[ir.Stmt]) -> bool:
    """Whether running `stmts` writes a log line on every path (then an option's own text is
    not logged for it: engine/state.py)."""
    for st in stmts:
        if isinstance(st, ir.Log) and not (isinstance(st.text, ir.Const) and not st.text.value):
            return True
        if isinstance(st, ir.InlineProc) and always_logs(st.body):
            return True
        if isinstance(st, ir.If) and st.otherwise is not None:
            arms = [body for _, body in st.branches] + [st.otherwise]
            if all(always_logs(body) for body in arms):
                return True
    return False


def hook_event(path: Sequence[Any]) -> str | None:
    """The event a hook's text runs on (``catalogs/C/entries/E/on/EVENT``), else None."""
    if len(path) >= 2 and path[-2] == "on" and path[0] == "catalogs":
        return str(path[-1])
    return None


def game_end_blocks(texts: Texts) -> set[tuple[Any, ...]]:
    """The texts that run only once the game is over: scoring, and the hooks of events only
    such texts emit."""
    over = {b.path for b in texts.blocks if b.path and b.path[0] == "scoring"}
    while True:
        live: set[str] = set()
        for b in texts.blocks:
            if b.path not in over:
                live |= _emitted(b.stmts)
        for line in texts.options:
            live |= _emitted(line.effect)
        more = {
            b.path
            for b in texts.blocks
            if (event := hook_event(b.path)) is not None and event not in live
        }
        if more <= over:
            return over
        over |= more


def _emitted(stmts: Sequence[ir.Stmt]) -> set[str]:
    out: set[str] = set()
    for st in stmts:
        if isinstance(st, ir.Emit):
            out.add(st.event)
        elif isinstance(st, ir.If):
            for _, body in st.branches:
                out |= _emitted(body)
            out |= _emitted(st.otherwise or [])
        elif isinstance(st, ir.For | ir.InlineProc):
            out |= _emitted(st.body)
    return out
