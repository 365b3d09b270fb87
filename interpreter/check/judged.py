"""Verdicts remembered in this process, by the texts of the rule files they judged.

An editor, a pre-commit hook or a test suite validates the same files again and again in one
process, and composing and compiling a ruleset is most of what a validation costs. What a
check of a ruleset or a composition finds depends on its files' texts alone (the schema and the
code do not change while a process runs; the chain of ``extends`` is found before): the names
the files are given only appear in the findings' positions. So a check that found nothing finds
nothing again for the same texts under any names, and findings are given again only for the
same texts under the same names; anything else is checked anew.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from interpreter.diagnostics.errors import Diagnostic

__all__ = ["forget", "judged"]

# (what was checked, the hashes of the files' texts) -> (the files' names, what it found)
_VERDICTS: dict[tuple[str, ...], tuple[tuple[str, ...], list[Diagnostic]]] = {}
_MOST = 4096  # verdicts kept at most (a test suite that mutates rule files makes many)


def judged(
    check: str, docs: Sequence[Any], judge: Callable[[], list[Diagnostic]]
) -> list[Diagnostic]:
    """What ``judge()`` finds for the files ``docs`` (loaded documents, base first), given
    again where this process judged the same texts before. ``check`` names the judgement (the
    same files may be checked in more than one way)."""
    key = (check, *(hashlib.sha256(doc.text.encode("utf-8")).hexdigest() for doc in docs))
    names = tuple(str(doc.path) for doc in docs)
    seen = _VERDICTS.get(key)
    if seen is not None and (not seen[1] or seen[0] == names):
        return list(seen[1])
    found = judge()
    if len(_VERDICTS) >= _MOST:
        _VERDICTS.clear()
    _VERDICTS[key] = (names, list(found))
    return found


def forget() -> None:
    """Forget every verdict (each check is made anew)."""
    _VERDICTS.clear()
