"""Text reports of scenario outcomes: one line per scenario, details of each failure, a
summary. Separate from running, so other reporters (JSON, pytest) reuse the same outcomes."""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.scenario.runner import Outcome

__all__ = ["line", "details", "summary", "MARK"]

MARK = {"pass": "ok   ", "fail": "FAIL ", "error": "ERROR"}


def line(o: Outcome) -> str:
    """`ok    file::name (0.02s)`, one per scenario, then its warnings, one a line."""
    head = f"{MARK[o.status]} {o.id} ({o.seconds:.2f}s)"
    return "\n".join([head, *(f"      {w}" for w in o.warnings)])


def details(o: Outcome, *, steps: bool = True) -> str:
    """Where and what: the expectation, the actual value, the steps taken with the log."""
    head = f"{o.where}: " if o.where is not None else ""
    if head and o.message.startswith(head):
        head = ""  # a file's diagnostics already begin with their file:line:col
    kind = "failed" if o.status == "fail" else "could not run"
    out = [f"--- {o.id} {kind}", f"{head}{o.message}"]
    if o.scenario is not None and o.scenario.doc:
        out.append(f"  ({o.scenario.doc})")
    if steps and o.steps:
        out.append("  steps taken (| the game's log):")
        out.extend(o.steps)
    return "\n".join(out)


def summary(outcomes: Sequence[Outcome], seconds: float) -> str:
    n = {k: sum(1 for o in outcomes if o.status == k) for k in MARK}
    parts = [f"{n['pass']} passed"]
    if n["fail"]:
        stuck = sum(1 for o in outcomes if o.not_ended)
        parts.append(f"{n['fail']} failed" + (f" ({stuck} did not end)" if stuck else ""))
    if n["error"]:
        parts.append(f"{n['error']} could not run")
    return f"{len(outcomes)} scenario(s): {', '.join(parts)} in {seconds:.2f}s"
