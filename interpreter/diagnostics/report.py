"""Reporters: turn diagnostics into text, JSON or GitHub annotations.

Kept apart from the checks (as in check-jsonschema and yamllint) so every front end, CI job
and editor integration prints the same findings its own way.

>>> from interpreter.diagnostics.errors import Diagnostic
>>> d = Diagnostic("Y003", "duplicate key 'a'", "r.yaml", 4, 3)
>>> print(format_github([d]))
::error file=r.yaml,line=4,col=3,title=Y003::duplicate key 'a'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from interpreter.diagnostics.errors import Diagnostic

__all__ = ["format_text", "format_json", "format_github", "summary_line", "counts"]


def _ordered(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diags, key=Diagnostic.sort_key)


def counts(diags: Iterable[Diagnostic]) -> tuple[int, int]:
    """(errors, warnings)."""
    errors = warnings = 0
    for d in diags:
        if d.severity == "warning":
            warnings += 1
        else:
            errors += 1
    return errors, warnings


def summary_line(diags: Iterable[Diagnostic]) -> str:
    """'2 errors, 1 warning' / 'no problems found'."""
    errors, warnings = counts(diags)
    if not errors and not warnings:
        return "no problems found"
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return ", ".join(parts)


EXCERPT_WIDTH = 160  # the most of one source line an excerpt shows


def _excerpt(d: Diagnostic, sources: Mapping[str, str]) -> list[str]:
    if not d.file or d.line is None or d.file not in sources:
        return []
    lines = sources[d.file].splitlines()
    if not 1 <= d.line <= len(lines):
        return []
    text = lines[d.line - 1].replace("\t", " ")
    column = d.column if d.column is not None and 1 <= d.column <= len(text) + 1 else None
    if len(text) > EXCERPT_WIDTH:
        # a very long line (a generated file, a huge flow string) is shown around the column
        start = max(0, min((column or 1) - 1 - EXCERPT_WIDTH // 2, len(text) - EXCERPT_WIDTH))
        end = start + EXCERPT_WIDTH
        shown = ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")
        if column is not None:
            column = column - start + (3 if start else 0)
        text = shown
    out = [f"    {text}"]
    if column is not None:
        out.append("    " + " " * (column - 1) + "^")
    return out


def format_text(
    diags: Iterable[Diagnostic],
    *,
    sources: Mapping[str, str] | None = None,
    summary: bool = False,
) -> str:
    """One compiler-style line per diagnostic, sorted by position.

    With ``sources`` (file -> text, e.g. from loaded Documents) each line is followed by the
    offending source line and a caret under the column; ``summary`` adds a final count line.
    """
    ordered = _ordered(diags)
    lines: list[str] = []
    for d in ordered:
        lines.append(d.format())
        if sources:
            lines.extend(_excerpt(d, sources))
    if summary:
        lines.append(summary_line(ordered))
    return "\n".join(lines)


def format_json(diags: Iterable[Diagnostic], files_checked: int) -> str:
    """One JSON object for tools: ok flag, counts and every diagnostic as a dict."""
    ordered = _ordered(diags)
    errors, warnings = counts(ordered)
    payload = {
        "ok": errors == 0,
        "errors": errors,
        "warnings": warnings,
        "files_checked": files_checked,
        "diagnostics": [d.to_dict() for d in ordered],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(diags: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands, so findings show up as annotations on the diff."""
    out: list[str] = []
    for d in _ordered(diags):
        command = "warning" if d.severity == "warning" else "error"
        props: list[str] = []
        if d.file:
            props.append(f"file={_escape_property(d.file)}")
            if d.line is not None:
                props.append(f"line={d.line}")
                if d.column is not None:
                    props.append(f"col={d.column}")
        props.append(f"title={_escape_property(d.code)}")
        message = d.message + d.details()
        out.append(f"::{command} {','.join(props)}::{_escape_data(message)}")
    return "\n".join(out)
