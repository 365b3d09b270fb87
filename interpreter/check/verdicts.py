"""What one ``rulebook validate`` run hands back, and how its checks build their diagnostics.

:class:`Report` holds the files looked at (each a :class:`CheckedFile`) and the diagnostics
found, sorted and de-duplicated by :func:`dedupe`; :func:`diagnostic_at` builds one diagnostic
positioned at a path in a loaded document, the way every family of checks reports a fault, and
:func:`diagnostic_on` one at a typed rule object's place (``interpreter/ruleset/``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.diagnostics.errors import Diagnostic
from interpreter.load.locate import json_pointer, locate
from interpreter.ruleset.nodes import Pos

__all__ = ["CheckedFile", "Report", "dedupe", "diagnostic_at", "diagnostic_on"]


@dataclass(frozen=True)
class CheckedFile:
    """One discovered file and what it was taken for (``ruleset``/``overlay``/``config``/
    ``skipped``)."""

    path: str
    kind: str


@dataclass
class Report:
    """Everything one run found: sorted, de-duplicated diagnostics and the files looked at."""

    diagnostics: list[Diagnostic]
    files: list[CheckedFile]
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    @property
    def checked(self) -> list[str]:
        return [f.path for f in self.files if f.kind != "skipped"]

    @property
    def skipped(self) -> list[str]:
        return [f.path for f in self.files if f.kind == "skipped"]

    def failed(self, strict: bool = False) -> bool:
        """True when the run should fail: any error, or any warning under ``strict``."""
        return self.errors > 0 or (strict and self.warnings > 0)


def diagnostic_at(
    data: Any,
    path: Sequence[str | int],
    code: str,
    message: str,
    *,
    default_file: str | None = None,
    key: bool = False,
    hint: str | None = None,
    expected: str | None = None,
    severity: str = "error",
) -> Diagnostic:
    """A diagnostic at ``path`` in ``data`` (at its key with ``key=True``); ``default_file``
    names the file when the data carries no position there."""
    file, line, col = locate(data, path, key=key)
    return Diagnostic(
        code,
        message,
        file or default_file,
        line,
        col,
        json_pointer(path),
        expected=expected,
        hint=hint,
        severity=severity,
    )


def diagnostic_on(
    where: Pos,
    path: Sequence[str | int],
    code: str,
    message: str,
    *,
    hint: str | None = None,
    severity: str = "error",
) -> Diagnostic:
    """A diagnostic at ``where``, the place a typed rule object (or one of its fields) was
    written, at ``path`` in the composed tree: what :func:`diagnostic_at` says of the same
    place."""
    return Diagnostic(
        code,
        message,
        where.file,
        where.line,
        where.column,
        json_pointer(path),
        hint=hint,
        severity=severity,
    )


def dedupe(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted; the same fault at the same place reported once (e.g. for every player count)."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Diagnostic] = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        key = (d.file, d.line, d.column, d.code, d.message, d.severity)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out
