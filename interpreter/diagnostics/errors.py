"""The one error hierarchy every user-visible failure belongs to.

Checks produce :class:`Diagnostic` records (code, message, file:line:col, JSON path, what was
expected, a hint) instead of raising at the first problem, so a rules author sees every mistake
in one run.  When a stage has to stop, it raises :class:`RulesError` carrying all of them.
Front ends catch :class:`RulebookError` and print ``str(exc)``; no traceback ever reaches a user.

>>> d = Diagnostic("S003", "unknown key 'cots'", "base.yaml", 3, 9,
...                "/entries/a/cots", hint="did you mean 'cost'?")
>>> d.format()
"base.yaml:3:9: error[S003]: unknown key 'cots' (at /entries/a/cots; did you mean 'cost'?)"
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "Diagnostic",
    "DiagnosticSink",
    "RulebookError",
    "RulesError",
    "IllegalOptionError",
    "ReplayError",
    "ConfigError",
    "SEVERITIES",
]

SEVERITIES = ("error", "warning")


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a rule file, positioned so an editor can jump to it.

    Codes are stable (tests and CI filters rely on them); their meaning is listed in
    ``docs/errors.md``.  Prefixes: ``Y`` YAML loading, ``S`` schema, ``R`` references,
    ``D`` DSL, ``O`` overlays/composition, ``C`` configuration.
    """

    code: str
    message: str
    file: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    json_path: str = ""
    expected: str | None = None
    hint: str | None = None
    severity: str = "error"

    def location(self) -> str:
        """``file:line:col`` with whatever parts are known (``""`` when nothing is)."""
        parts: list[str] = []
        if self.file:
            parts.append(self.file)
            if self.line is not None:
                parts.append(str(self.line))
                if self.column is not None:
                    parts.append(str(self.column))
        elif self.line is not None:
            parts.append(f"line {self.line}")
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def details(self) -> str:
        """The parenthesised tail: JSON path, expectation and hint, each only when known."""
        extra: list[str] = []
        if self.json_path:
            extra.append(f"at {self.json_path}")
        if self.expected and f"expected {self.expected}" not in self.message:
            extra.append(f"expected {self.expected}")
        if self.hint:
            extra.append(self.hint)
        return f" ({'; '.join(extra)})" if extra else ""

    def format(self) -> str:
        """One line, compiler style, so editors and terminals can link to the position."""
        loc = self.location()
        head = f"{loc}: " if loc else ""
        return f"{head}{self.severity}[{self.code}]: {self.message}{self.details()}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for machine reporters."""
        return asdict(self)

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        """Stable order: by file, position, then code, so output does not depend on check order."""
        return (
            self.file or "",
            self.line if self.line is not None else 0,
            self.column if self.column is not None else 0,
            self.code,
            self.json_path,
            self.message,
        )

    def __str__(self) -> str:
        return self.format()


class DiagnosticSink:
    """Collects diagnostics from several checks, then hands them back sorted and de-duplicated.

    >>> sink = DiagnosticSink()
    >>> sink.error("Y001", "second", file="a.yaml", line=2)
    >>> sink.error("Y001", "first", file="a.yaml", line=1)
    >>> [d.message for d in sink.sorted()]
    ['first', 'second']
    """

    def __init__(self, diagnostics: Iterable[Diagnostic] = ()) -> None:
        self._items: list[Diagnostic] = list(diagnostics)

    def add(self, diagnostic: Diagnostic) -> None:
        self._items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self._items.extend(diagnostics)

    def error(self, code: str, message: str, **fields: Any) -> None:
        self._items.append(Diagnostic(code, message, **fields))

    def warning(self, code: str, message: str, **fields: Any) -> None:
        self._items.append(Diagnostic(code, message, severity="warning", **fields))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self._items)

    def sorted(self) -> list[Diagnostic]:
        """Sorted by position; exact duplicates (same check reached twice) kept once."""
        seen: set[Diagnostic] = set()
        out: list[Diagnostic] = []
        for d in sorted(self._items, key=Diagnostic.sort_key):
            if d not in seen:
                seen.add(d)
                out.append(d)
        return out

    def raise_if_errors(self) -> None:
        """Stop the pipeline only when something is wrong; warnings alone do not stop it."""
        if self.has_errors:
            raise RulesError(self.sorted())

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.sorted())

    def __bool__(self) -> bool:
        return bool(self._items)


class RulebookError(Exception):
    """Base of every error a user may see; ``str()`` is the message to print, nothing else."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Positioned details, when the error has any (empty for plain errors)."""
        return []


class RulesError(RulebookError):
    """The rule files are wrong; carries every diagnostic found, not only the first."""

    def __init__(self, diagnostics: Iterable[Diagnostic] | Diagnostic) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self._diagnostics = list(diagnostics)
        super().__init__(self.__str__())

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self._diagnostics

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from the diagnostics when it crosses a process boundary (simulate's workers)
        return (type(self), (self._diagnostics,))

    def __str__(self) -> str:
        if not self._diagnostics:
            return "invalid rules"
        return "\n".join(d.format() for d in self._diagnostics)


def _truncated_list(items: list[str], limit: int = 12) -> str:
    if not items:
        return "(none)"
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f", ... ({len(items) - limit} more)"


class IllegalOptionError(RulebookError):
    """A chosen option id is not among the legal ones at this decision.

    >>> str(IllegalOptionError("pas", ["pass", "take:1"]))
    "illegal option 'pas'; did you mean 'pass'? legal options: pass, take:1"
    """

    def __init__(self, option: str, legal: list[str]) -> None:
        from interpreter.diagnostics.suggest import did_you_mean

        self.option = option
        self.legal = list(legal)
        guess = did_you_mean(option, self.legal)
        hint = f" did you mean '{guess}'?" if guess else ""
        message = f"illegal option '{option}';{hint} legal options: {_truncated_list(self.legal)}"
        super().__init__(message)


class ReplayError(RulebookError):
    """A save file / replay cannot be read or does not replay (corrupt, wrong ruleset, ...)."""


class ConfigError(RulebookError):
    """A game config or command-line choice is invalid (unknown game, overlay, option, count)."""
