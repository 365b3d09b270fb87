"""Composition (O codes): an overlay checked as it will run, composed onto what it extends.

An overlay extending another overlay brings the whole chain down to its base ruleset and
composes on that chain's result (it may change what the overlays it extends set); two overlays
of which neither extends the other that change the same entry are reported naming both files
(O008); an ``extends`` that names nothing known, or that leads round in a cycle, is O004. A
base ruleset is also checked with every combination of the overlays beside it that extend it
(its expansions together), as a game config could ask for them.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from interpreter.check.compile import check_ruleset, player_counts
from interpreter.check.families import family_warnings
from interpreter.check.session import Session
from interpreter.compose.stacking import MAX_COMBINATIONS
from interpreter.diagnostics.errors import Diagnostic, RulebookError, RulesError
from interpreter.ruleset.header import Header

__all__ = ["chain", "check_combinations", "check_overlay_file", "compose", "overlays_of"]


def check_overlay_file(run: Session, path: str, doc: Any) -> None:
    """Schema, then the chain down to its base composed and checked like a ruleset."""
    errs = run.schema_errors(doc.data, "overlay", path)
    if errs:
        run.emit(errs)
        return
    base, order, diags = chain(run, path)
    run.emit(diags)
    if base is None:
        return
    data, diags = compose(run, base, order, warn_for=path)
    run.emit(diags)
    if data is not None:
        run.emit(check_ruleset(data))
        run.emit(family_warnings(run, base, order, compose))


def chain(run: Session, overlay_path: str) -> tuple[str | None, list[str], list[Diagnostic]]:
    """Base path and the overlays (in order, ending with this one) an overlay needs, found as
    :class:`~interpreter.compose.finding.OverlayFinder` finds them (the files given first; an
    id two games share, within the game extended); O004 where its ``extends`` leads nowhere,
    round in a cycle, or to more than one game."""
    try:
        stack = run.finder().stack(overlay_path)
    except RulesError as err:
        return None, [overlay_path], list(err.diagnostics)
    except RulebookError:
        return None, [overlay_path], []  # not an overlay: its own stage reports why
    return stack.base, list(stack.overlays), []


def compose(
    run: Session, base_path: str, overlay_paths: Sequence[str], warn_for: str | None = None
) -> tuple[Any, list[Diagnostic]]:
    """Composed data (None when it cannot be built) and the diagnostics on the way: the
    errors, and the warnings of composing written in the file ``warn_for`` (each
    overlay's own check reports its own, so a stack does not repeat them). Composed once per
    run for the same files: the scenarios of a folder play the same stacks again and again,
    and the one composed tree is what lets them share its compiled rules (check/scenarios.py
    keys those by the tree)."""
    key = tuple(os.path.realpath(p) for p in (base_path, *overlay_paths))
    key += (os.path.realpath(warn_for) if warn_for else "",)
    made = run.compositions.get(key)
    if made is None:
        made = run.compositions[key] = _compose(run, base_path, overlay_paths, warn_for)
    return made[0], list(made[1])


def _compose(
    run: Session, base_path: str, overlay_paths: Sequence[str], warn_for: str | None
) -> tuple[Any, list[Diagnostic]]:
    """:func:`compose`, done."""
    from interpreter.compose.overlays import compose as compose_documents

    docs = []
    for p in [base_path, *overlay_paths]:
        loaded = run.load(p)
        if loaded.doc is None:
            return None, list(loaded.diagnostics)
        docs.append(loaded.doc)
    base_errors = run.schema_errors(docs[0].data, "ruleset")
    if base_errors:
        return None, base_errors
    for d in docs[1:]:
        errs = run.schema_errors(d.data, "overlay")
        if errs:
            return None, errs
    if len(docs) == 1:
        return docs[0].data, []
    try:
        composed = compose_documents(docs[0], docs[1:])
    except RulesError as err:
        return None, list(err.diagnostics)
    errs = run.schema_errors(composed.data, "ruleset")
    if errs:
        return None, errs
    mine = os.path.realpath(warn_for) if warn_for else None
    warnings = [w for w in composed.warnings if w.file and os.path.realpath(w.file) == mine]
    return composed.data, warnings


def overlays_of(run: Session, base_path: str, overlays: Mapping[str, str]) -> dict[str, str]:
    """Overlay id -> path for overlays that (through their chain) extend this base."""
    out: dict[str, str] = {}
    local_bases: dict[str, str] = {}
    local: dict[str, str] = {}
    for f in sorted(Path(base_path).parent.glob("*.y*ml")):
        run.note(str(f), local_bases, local)
    for ident, p in {**overlays, **local}.items():
        base, _order, _diags = chain(run, p)
        if base is not None and os.path.normpath(base) == os.path.normpath(base_path):
            out[ident] = p
    return out


def check_combinations(run: Session, base_path: str) -> None:
    """The base with each combination of two or more of the overlays in its folder that extend
    it directly, in name order: conflicts between them (O008) and faults that only show when they
    run together are found before a game config asks for them. Each overlay alone is checked
    as its own file."""
    # the base's own expansions, beside it: a house rule kept elsewhere is checked with its
    # base alone (it need not combine with every expansion)
    folder = os.path.dirname(os.path.realpath(base_path))
    direct = []
    for _ident, path in sorted(overlays_of(run, base_path, {}).items()):
        if os.path.dirname(os.path.realpath(path)) == folder and chain(run, path)[1] == [path]:
            direct.append(path)
    combos = [
        combo
        for size in range(2, len(direct) + 1)
        for combo in itertools.combinations(direct, size)
    ][:MAX_COMBINATIONS]
    for combo in combos:
        data, diags = compose(run, base_path, list(combo))
        run.emit(diags)
        if data is not None:
            # each overlay alone was compiled for every player count; together, the fewest
            # and the most players (where tables by count differ most) keep this cheap
            counts = player_counts(Header.from_data(data).players)
            run.emit(check_ruleset(data, counts=sorted({counts[0], counts[-1]}), whole=False))
