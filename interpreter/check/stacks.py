"""House rules stacked as a game would load them (O codes, as warnings): ``validate DIR``
checks the overlays of a folder together, as ``play --with a,b`` would lay them.

An overlay kept away from its base (a house rule) is valid alone, but a game is played with
more than one: with its game's own expansions, and with the other house rules of its
folder. Each such stack is composed and compiled (the fewest and the most players) here:

* the overlay (with the chain it extends) and each set of the overlays beside its base (its
  game's expansions), in ``extends`` order, itself last: a house rule of a game with two
  expansions is checked with each, and with both;
* each pair of overlays of the same base in one folder, both among the files checked (each
  with its chain), in name order.

A stack that does not load is *refused* (:class:`~interpreter.diagnostics.refused.Refused`):
a warning, not an error (each overlay is valid; they only do not go together; ``--strict``
fails on it), given at the line of each file its reason names, so that either side can be
changed. ``--smoke`` plays the same kind of stacks and says the same of those that do not load.
A game's own overlays (beside its base) are checked together by
:func:`~interpreter.check.compositions.check_combinations`, as errors: a
game config may ask for any of them together.
"""

from __future__ import annotations

import os
from pathlib import Path

from interpreter.check.compile import check_ruleset, player_counts
from interpreter.check.compositions import chain, compose, overlays_of
from interpreter.check.judged import judged
from interpreter.check.session import Session
from interpreter.compose.stacking import stacks_beside
from interpreter.diagnostics.errors import Diagnostic
from interpreter.diagnostics.refused import Refused, same_file, shown_path
from interpreter.ruleset.header import Header

__all__ = ["check_stacks", "stacks_of"]


def check_stacks(run: Session, path: str) -> None:
    """Every stack a house rule may join (:func:`stacks_of`) composed and compiled; the ones
    that do not load are reported as refused (warnings at each file's line)."""
    found = stacks_of(run, path)
    if found is None:
        return
    base, stacks = found
    header = run.header(base)
    ident = header.id if header is not None and header.kind == "ruleset" else Path(base).stem
    for stack in stacks:
        faults = _faults(run, base, stack)
        if faults:
            refused = Refused(base, tuple(stack), faults, ident)
            warnings = refused.warnings()
            run.emit(warnings)
            if not any(w.file and same_file(w.file, path) for w in warnings):
                # a reason found in another file only (an expansion's table naming what the
                # house rule removes): said at the house rule's id too, where its author looks
                run.emit([_at_overlay(run, path, refused.label, faults[0])])


def _at_overlay(run: Session, path: str, label: str, reason: Diagnostic) -> Diagnostic:
    """A refusal whose reason lies in another file, at the overlay's ``overlay:`` line."""
    header = run.header(path)
    line, col = (header.id_pos.line, header.id_pos.column) if header is not None else (1, 1)
    at = ":".join(
        [shown_path(reason.file or ""), *(str(n) for n in (reason.line, reason.column) if n)]
    )
    return Diagnostic(
        reason.code,
        f"stack {label} refused: {at}: {reason.message}",
        file=path,
        line=line or 1,
        column=col or 1,
        severity="warning",
    )


def stacks_of(run: Session, path: str) -> tuple[str, list[list[str]]] | None:
    """The base of a house rule and the stacks it is checked in beside its own chain: with
    each set of its game's expansions, and with each other house rule of its folder among the
    files the run checks (``validate DIR``; a file named alone, as a pre-commit hook or an
    upload names it, is not paired with what lies beside it), each pair once, from the first of
    the two in name order.
    None for an overlay beside its base (its base checks the overlays there together) or one
    whose chain does not lead to a base (its own check says why)."""
    base, order, diags = chain(run, path)
    if base is None or diags:
        return None
    folder = _folder(path)
    if _folder(base) == folder:
        return None
    stacks = _with_expansions(run, base, order)
    mine = set(map(_real, order))
    given = {_real(p) for p in run.overlays.values()}
    for other in _siblings(run, path):
        if _real(other) not in given or os.path.basename(other) < os.path.basename(path):
            continue  # not among the files checked, or checked from the other one
        their_base, theirs, faults = chain(run, other)
        if faults or their_base is None or _real(their_base) != _real(base):
            continue
        if _real(path) in set(map(_real, theirs)) or _real(other) in mine:
            continue  # one extends the other: the longer chain is checked alone
        first, second = sorted([order, theirs], key=lambda c: os.path.basename(c[-1]))
        seen = set(map(_real, first))
        stacks.append([*first, *(p for p in second if _real(p) not in seen)])
    return base, stacks


def _with_expansions(run: Session, base: str, order: list[str]) -> list[list[str]]:
    """The chain with each non-empty set of the overlays beside its base that are not in it
    (compose/stacking.py: smallest sets first, each in ``extends`` order, the overlay last)."""
    mine = set(map(_real, order))
    folder = _folder(base)
    others = [
        p
        for _ident, p in sorted(overlays_of(run, base, {}).items())
        if _folder(p) == folder and _real(p) not in mine
    ]
    known = {_real(base), *mine}
    return stacks_beside(
        order, others, known, lambda p: _real(_extended(run, p)), _real, smallest=1
    )


def _extended(run: Session, path: str) -> str:
    """The file an overlay's ``extends`` leads to first (its base, or the overlay before it)."""
    _base, order, _diags = chain(run, path)
    return order[-2] if len(order) > 1 else (_base or "")


def _siblings(run: Session, path: str) -> list[str]:
    """The other overlay files of the folder, in name order."""
    bases: dict[str, str] = {}
    overlays: dict[str, str] = {}
    for f in sorted(Path(path).parent.glob("*.y*ml")):
        run.note(str(f), bases, overlays)
    return sorted((p for p in overlays.values() if _real(p) != _real(path)), key=os.path.basename)


def _faults(run: Session, base: str, stack: list[str]) -> list[Diagnostic]:
    """Why the stack does not load (empty when it does): its composition's errors, else the
    errors of compiling it (references and the effect language) for the fewest and the most
    players. Its set-up is not run: what goes wrong in play is ``--smoke``'s to find. Judged
    once per process for the same texts (check/judged.py)."""
    docs = [run.load(p).doc for p in (base, *stack)]
    if any(doc is None for doc in docs):
        return _judge(run, base, stack)
    return judged("stack", docs, lambda: _judge(run, base, stack))


def _judge(run: Session, base: str, stack: list[str]) -> list[Diagnostic]:
    """:func:`_faults`, found by composing and compiling the stack."""
    data, diags = compose(run, base, stack)
    errors = [d for d in diags if d.severity == "error"]
    if data is None or errors:
        return errors
    counts = player_counts(Header.from_data(data).players)
    found = check_ruleset(data, counts=sorted({counts[0], counts[-1]}), whole=False, setup=False)
    return [d for d in found if d.severity == "error"]


def _real(path: str) -> str:
    return os.path.realpath(path)


def _folder(path: str) -> str:
    return os.path.dirname(os.path.realpath(path))
