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
from interpreter.load.locate import is_map, is_seq, locate, plain_key

__all__ = ["OptionLine", "family_warnings", "option_lines"]

CODE = "O014"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class OptionLine:
    """An option of a ``choose`` in a composed ruleset: where it is and when it is offered."""

    pattern: str  # its id with every `{...}` as `{}`
    ident: str
    named: str  # its slash path, list items by name or id where they have one
    keys: tuple[Any, ...]  # its real keys in the composed tree
    condition: str | None  # its `if:` text (None: always offered)


def option_lines(data: Any) -> Iterator[OptionLine]:
    """Every option line of a composed ruleset (a map with an ``id`` in an ``options`` list)."""
    yield from _walk(data, (), ())


def _walk(node: Any, keys: tuple[Any, ...], named: tuple[str, ...]) -> Iterator[OptionLine]:
    if is_map(node):
        for key, value in node.items():
            if plain_key(key) == "options" and is_seq(value):
                for i, item in enumerate(value):
                    ident = item.get("id") if is_map(item) else None
                    if isinstance(ident, str):
                        cond = item.get("if")
                        yield OptionLine(
                            _PLACEHOLDER.sub("{}", ident),
                            ident,
                            "/".join((*named, "options", ident)),
                            (*keys, key, i),
                            None if cond is None else str(cond).strip(),
                        )
            elif is_map(value) or is_seq(value):
                yield from _walk(value, (*keys, key), (*named, plain_key(key)))
    elif is_seq(node):
        for i, item in enumerate(node):
            name = item.get("name") if is_map(item) else None
            yield from _walk(item, (*keys, i), (*named, name if isinstance(name, str) else str(i)))


# composes a base and overlays (check/compositions.py's compose, which calls this module: given,
# not imported, so the two do not import each other)
Composer = Callable[[Session, str, Sequence[str]], tuple[Any, list[Diagnostic]]]


def family_warnings(
    run: Session, base: str, order: Sequence[str], compose: Composer
) -> list[Diagnostic]:
    """O014 for the overlay ``order[-1]`` (its chain down to ``base`` before it)."""
    overlay = order[-1]
    before, _ = compose(run, base, list(order[:-1]))
    after, _ = compose(run, base, list(order))
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
        plain, _ = compose(run, base, stack)
        ruled, _ = compose(run, base, [*stack, overlay])
        if plain is None or ruled is None:
            continue  # the stack does not compose: its own check says why
        theirs_id = _overlay_id(run, expansion)
        companions = _companions(run, base, (mine, theirs_id))
        settled = [compose(run, base, [*stack, overlay, c])[0] for c in companions]
        plain_lines = {line.named: line for line in option_lines(plain)}
        for line in option_lines(ruled):
            file = locate(ruled, list(line.keys))[0]
            if not (file and _same(file, expansion)) or line.named not in plain_lines:
                continue
            if plain_lines[line.named].condition != line.condition:
                continue  # the overlay reaches it (or changes it otherwise)
            if any(_changed(data, line) for data in settled if data is not None):
                continue
            for change in changed:
                if change.pattern == line.pattern:
                    out.append(_warning(after, change, ruled, line, mine, theirs_id))
    return out


def _warning(
    after: Any, change: OptionLine, ruled: Any, line: OptionLine, mine: str, theirs: str
) -> Diagnostic:
    file, row, col = locate(after, [*change.keys, "if"], key=True)
    if row is None:  # an `if` removed: at the option
        file, row, col = locate(after, list(change.keys))
    tfile, trow, tcol = locate(ruled, list(line.keys))
    where = f"{tfile}:{trow}:{tcol}" if trow is not None else str(tfile)
    companion = f"{mine}-{theirs}" if mine and theirs else "COMPANION"
    return Diagnostic(
        CODE,
        f"the `if` of option '{change.ident}' changes here, but {theirs} offers "
        f"'{line.ident}' too, at {line.named} ({where}), with its `if` as it was: with "
        f"{theirs}, the option is offered there as before this overlay",
        file=file,
        line=row,
        column=col,
        hint=f"if the change is meant there too, add an overlay 'overlay: {companion}' with "
        f"'extends: [{mine}, {theirs}]' that changes the `if` of {line.named} the same way",
        severity="warning",
    )


def _changed(data: Any, line: OptionLine) -> bool:
    """Whether the option line at ``line.named`` has another condition in ``data``."""
    for other in option_lines(data):
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
        doc = run.load(path).doc
        data = doc.data if doc is not None else None
        if is_map(data) and "overlay" in data and data.get("extends") == base_id:
            out.append(path)
    return out


def _companions(run: Session, base: str, ids: tuple[str, str]) -> list[str]:
    """Overlays known to the run that extend both of ``ids`` (a list ``extends``)."""
    _bases, overlays = run.candidates(base)
    out = []
    for path in overlays.values():
        doc = run.load(path).doc
        target = doc.data.get("extends") if doc is not None and is_map(doc.data) else None
        if is_seq(target) and set(ids) <= {str(t) for t in target}:
            out.append(path)
    return out


def _overlay_id(run: Session, path: str) -> str:
    doc = run.load(path).doc
    ident = doc.data.get("overlay") if doc is not None and is_map(doc.data) else None
    return ident if isinstance(ident, str) else ""


def _ruleset_id(run: Session, path: str) -> str:
    doc = run.load(path).doc
    ident = doc.data.get("ruleset") if doc is not None and is_map(doc.data) else None
    return ident if isinstance(ident, str) else ""


def _same(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)
