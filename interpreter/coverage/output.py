"""Where a coverage report goes: ``--coverage-format text|json|html`` and ``--coverage-out``
(a file for text and JSON, printed when not given; a folder for HTML)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from interpreter.coverage.html import write_html
from interpreter.coverage.tabulate import json_report, summarize, text_report
from interpreter.model.probes import Point

__all__ = ["FORMATS", "HTML_FOLDER", "write_coverage"]

FORMATS = ("text", "json", "html")
HTML_FOLDER = "rule-coverage"  # where the HTML report goes without --coverage-out


def write_coverage(
    totals: Mapping[Point, int], fmt: str, out: str | None, stream: IO[str]
) -> str | None:
    """Print or write the report of `totals`; returns the path written (None when printed)."""
    reports = summarize(totals)
    if fmt == "html":
        return str(write_html(reports, out or HTML_FOLDER))
    if fmt == "json":
        text = json.dumps(json_report(reports), ensure_ascii=False)
    else:
        text = "Rule coverage\n" + text_report(reports)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")
        return out
    print(text, file=stream)
    return None
