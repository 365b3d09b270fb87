"""O014: an overlay changes when an option is offered, and an expansion offers it elsewhere.

A house rule that adds a condition to an option (the ``if:`` of ``take:mine`` in one
``choose``) changes that option where it wrote it. An expansion of the same game may offer an
option of the same id pattern in a step of its own (a second take through a new entry), with
its own ``if:``: stacked, the game plays, and the house rule silently does not hold there. So
when an overlay changes the ``if:`` of an option line, every expansion its game comes with (the
overlays beside its base ruleset that extend it) is composed with it, and each option line the
expansion writes with the same id pattern (``take:{t}`` and ``take:{x}`` are one pattern) whose
``if:`` the overlay leaves as it was is a warning at the overlay's line. Only ids of the form
``family:detail`` name a thing offered (a piece, an entry, a kind); a bare word (``pass``) is
each step's own. The warning names the expansion's line and the companion overlay that would
carry the change there (``extends: [house-rule, expansion]``, changing that option's ``if:``);
an overlay known to the run that extends both and changes that ``if:`` settles it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.check.session import Session
from interpreter.diagnostics.errors import Diagnostic
from interpreter.ruleset.flow_steps import FlowSection, OptionDecl, Step

__all__ = ["OptionLine", "family_warnings", "option_lines"]

CODE = "O014"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class OptionLine:
    """An option of a ``choose`` in a composed ruleset: where it is and when it is offered."""

    pattern: str  # its id with every `{...}` as `{}`
    named: str  # its slash path, steps by name where they have one, the option by its id
    decl: OptionDecl  # the line itself (its id, `if:`, and where they were written)

    @property
    def ident(self) -> str:
        return self.decl.id

    @property
    def condition(self) -> str | None:
        """Its `if:` text (None: always offered)."""
        return self.decl.condition


def option_lines(flow: FlowSection) -> Iterator[OptionLine]:
    """Every option line of a composed ruleset's ``choose`` steps, in the order written."""
    yield from _lines(flow.setup, ("flow", "setup"))
    yield from _lines(flow.round, ("flow", "round"))
    for name, phase in flow.phases.items():
        yield from _lines(phase.steps, ("phases", name))


def _lines(steps: Sequence[Step], named: tuple[str, ...]) -> Iterator[OptionLine]:
    for step in steps:
        at = step.path[-1] if step.path else 0
        here = (*named, step.name if step.name is not None else str(at))
        if step.choose is not None:
            for option in step.choose.options:
                path = "/".join((*here, "choose", "options", option.id))
                yield OptionLine(_PLACEHOLDER.sub("{}", option.id), path, option)
        yield from _lines(step.then, (*here, "then"))
        yield from _lines(step.otherwise or (), (*here, "else"))
        yield from _lines(step.body, (*here, step.kind, "steps"))


# composes a base and overlays (check/compositions.py's compose, which calls this module: given,
# not imported, so the two do not import each other)
Composer = Callable[[Session, str, Sequence[str]], tuple[Any, list[Diagnostic]]]


def _flow(run: Session, base: str, stack: Sequence[str], compose: Composer) -> FlowSection | None:
    """The typed flow of a stack composed (None when it does not compose)."""
    data, _ = compose(run, base, list(stack))
    return None if data is None else FlowSection.from_data(data)


def family_warnings(
    run: Session, base: str, order: Sequence[str], compose: Composer
) -> list[Diagnostic]:
    """O014 for the overlay ``order[-1]`` (its chain down to ``base`` before it)."""
    overlay = order[-1]
    before = _flow(run, base, order[:-1], compose)
    after = _flow(run, base, order, compose)
    if before is None or after is None:
        return []
    was = {line.named: line for line in option_lines(before)}
    changed = [
        line
        for line in option_lines(after)
        if ":" in line.ident and line.named in was and was[line.named].condition != line.condition
    ]
    if not changed:
        return []
    mine = _overlay_id(run, overlay)
    out: list[Diagnostic] = []
    for expansion in _expansions(run, base, order):
        below = [p for p in order[:-1] if not _same(p, expansion)]
        stack = [expansion, *below]
        plain = _flow(run, base, stack, compose)
        ruled = _flow(run, base, [*stack, overlay], compose)
        if plain is None or ruled is None:
            continue  # the stack does not compose: its own check says why
        theirs_id = _overlay_id(run, expansion)
        companions = _companions(run, base, (mine, theirs_id))
        settled = [_flow(run, base, [*stack, overlay, c], compose) for c in companions]
        plain_lines = {line.named: line for line in option_lines(plain)}
        for line in option_lines(ruled):
            file = line.decl.pos.file
            if not (file and _same(file, expansion)) or line.named not in plain_lines:
                continue
            if plain_lines[line.named].condition != line.condition:
                continue  # the overlay reaches it (or changes it otherwise)
            if any(_changed(flow, line) for flow in settled if flow is not None):
                continue
            for change in changed:
                if change.pattern == line.pattern:
                    out.append(_warning(change, line, mine, theirs_id))
    return out


def _warning(change: OptionLine, line: OptionLine, mine: str, theirs: str) -> Diagnostic:
    # at the option's `if:`; at the option itself where the overlay removed its `if`
    at = change.decl.condition_pos
    at = at if at.line is not None else change.decl.pos
    there = line.decl.pos
    where = (
        f"{there.file}:{there.line}:{there.column}" if there.line is not None else str(there.file)
    )
    companion = f"{mine}-{theirs}" if mine and theirs else "COMPANION"
    return Diagnostic(
        CODE,
        f"the `if` of option '{change.ident}' changes here, but {theirs} offers "
        f"'{line.ident}' too, at {line.named} ({where}), with its `if` as it was: with "
        f"{theirs}, the option is offered there as before this overlay",
        file=at.file,
        line=at.line,
        column=at.column,
        hint=f"if the change is meant there too, add an overlay 'overlay: {companion}' with "
        f"'extends: [{mine}, {theirs}]' that changes the `if` of {line.named} the same way",
        severity="warning",
    )


def _changed(flow: FlowSection, line: OptionLine) -> bool:
    """Whether the option line at ``line.named`` has another condition in ``flow``."""
    for other in option_lines(flow):
        if other.named == line.named:
            return other.condition != line.condition
    return True  # a companion that removed it settles it too


def _expansions(run: Session, base: str, order: Sequence[str]) -> list[str]:
    """The overlays beside ``base`` that extend it (the expansions its game comes with), other
    than ``order``'s last overlay (the one checked)."""
    base_id = _ruleset_id(run, base)
    out: list[str] = []
    for f in sorted(Path(base).parent.glob("*.y*ml")):
        path = str(f)
        if _same(path, base) or _same(path, order[-1]):
            continue
        header = run.header(path)
        if header is not None and header.kind == "overlay" and header.extends == base_id:
            out.append(path)
    return out


def _companions(run: Session, base: str, ids: tuple[str, str]) -> list[str]:
    """Overlays known to the run that extend both of ``ids`` (a list ``extends``)."""
    _bases, overlays = run.candidates(base)
    out = []
    for path in overlays.values():
        header = run.header(path)
        if header is not None and set(ids) <= set(header.extends_each) and header.extends_each:
            out.append(path)
    return out


def _overlay_id(run: Session, path: str) -> str:
    return _id(run, path, "overlay")


def _ruleset_id(run: Session, path: str) -> str:
    return _id(run, path, "ruleset")


def _id(run: Session, path: str, kind: str) -> str:
    """The id a rule file of ``kind`` declares ("" for any other file)."""
    header = run.header(path)
    return header.id if header is not None and header.kind == kind else ""


def _same(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)
