"""Rule coverage as a text table (like ``coverage report -m``) and as one JSON object.

A rule point is covered when it ran at least once; a file's missing lines are the lines with a
point that never ran (a line with an `if` whose else arm never ran is missing even if its then
arm did).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.model.probes import KINDS, Point

__all__ = ["FileReport", "by_kind", "json_report", "line_ranges", "summarize", "text_report"]


@dataclass
class FileReport:
    """The points of one rule file and how often each ran."""

    file: str
    points: list[tuple[Point, int]] = field(default_factory=list)  # in line order

    @property
    def rules(self) -> int:
        return len(self.points)

    @property
    def covered(self) -> int:
        return sum(1 for _, n in self.points if n)

    @property
    def missed(self) -> int:
        return self.rules - self.covered

    @property
    def missing_lines(self) -> list[int]:
        return sorted({p.line for p, n in self.points if not n})

    def lines(self) -> dict[int, list[tuple[Point, int]]]:
        """line -> its points and their counts."""
        out: dict[int, list[tuple[Point, int]]] = {}
        for p, n in self.points:
            out.setdefault(p.line, []).append((p, n))
        return out


def shown_path(path: str) -> str:
    """A rule file's name as reports print it: relative to the current folder when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if rel.startswith("..") else rel


def summarize(totals: Mapping[Point, int]) -> list[FileReport]:
    """The points grouped by file (files and points in order)."""
    files: dict[str, FileReport] = {}
    for point in sorted(totals):
        name = shown_path(point.file)
        files.setdefault(name, FileReport(name)).points.append((point, totals[point]))
    return [files[k] for k in sorted(files)]


def by_kind(reports: Iterable[FileReport]) -> dict[str, dict[str, int]]:
    """kind -> {rules, covered} over all files."""
    out = {k: {"rules": 0, "covered": 0} for k in KINDS}
    for r in reports:
        for p, n in r.points:
            entry = out.setdefault(p.kind, {"rules": 0, "covered": 0})
            entry["rules"] += 1
            entry["covered"] += 1 if n else 0
    return {k: v for k, v in out.items() if v["rules"]}


def line_ranges(lines: Iterable[int]) -> str:
    """Consecutive line numbers joined: ``3, 7-9, 12``.

    >>> line_ranges([3, 7, 8, 9, 12])
    '3, 7-9, 12'
    """
    out: list[str] = []
    run: list[int] = []
    for n in sorted(lines):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(_span(run))
        run = [n]
    if run:
        out.append(_span(run))
    return ", ".join(out)


def _span(run: list[int]) -> str:
    return str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"


def percent(covered: int, total: int) -> float:
    return 100.0 if total == 0 else 100.0 * covered / total


def text_report(reports: list[FileReport]) -> str:
    """One row per file (rules, covered, missed, cover, missing lines), a total, then the
    totals by kind of rule."""
    rows = [("file", "rules", "covered", "missed", "cover", "missing")]
    for r in reports:
        cover = f"{percent(r.covered, r.rules):.1f}%"
        rows.append(
            (
                r.file,
                str(r.rules),
                str(r.covered),
                str(r.missed),
                cover,
                line_ranges(r.missing_lines),
            )
        )
    total = sum(r.rules for r in reports)
    covered = sum(r.covered for r in reports)
    rows.append(
        (
            "TOTAL",
            str(total),
            str(covered),
            str(total - covered),
            f"{percent(covered, total):.1f}%",
            "",
        )
    )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = []
    for i, row in enumerate(rows):
        if i == len(rows) - 1:
            lines.append("-" * (sum(widths) + 8))
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:5], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells) + ("  " + row[5] if row[5] else ""))
    kinds = by_kind(reports)
    lines.append("")
    lines.append(
        "by kind: "
        + ", ".join(
            f"{k} {v['covered']}/{v['rules']} ({percent(v['covered'], v['rules']):.1f}%)"
            for k, v in kinds.items()
        )
    )
    return "\n".join(lines)


def json_report(reports: list[FileReport]) -> dict[str, Any]:
    """Totals, totals by kind, and per file its counts, missing lines and every point."""
    total = sum(r.rules for r in reports)
    covered = sum(r.covered for r in reports)
    return {
        "rules": total,
        "covered": covered,
        "missed": total - covered,
        "percent": round(percent(covered, total), 2),
        "kinds": by_kind(reports),
        "files": [
            {
                "file": r.file,
                "rules": r.rules,
                "covered": r.covered,
                "missed": r.missed,
                "percent": round(percent(r.covered, r.rules), 2),
                "missing_lines": r.missing_lines,
                "points": [
                    {
                        "line": p.line,
                        "column": p.column,
                        "kind": p.kind,
                        "label": p.label,
                        "count": n,
                    }
                    for p, n in r.points
                ],
            }
            for r in reports
        ],
    }
