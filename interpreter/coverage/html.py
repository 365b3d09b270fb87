"""Rule coverage as HTML: an index of the rule files (like ``coverage html``) and one page per
file showing every line, the lines whose rules all ran marked `run`, some of them `part`, none
of them `miss`; hovering a marked line lists its rule points and their counts."""

from __future__ import annotations

import html
from pathlib import Path

from interpreter.coverage.tabulate import FileReport, by_kind, line_ranges, percent

__all__ = ["write_html"]

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; }
table.files td, table.files th { padding: 2px 10px; text-align: right; }
table.files td:first-child, table.files th:first-child { text-align: left; }
pre { margin: 0; }
table.source { border-collapse: collapse; font-family: monospace; font-size: 13px; }
table.source td { padding: 0 6px; white-space: pre; }
td.n { color: #888; text-align: right; user-select: none; }
tr.run td.t { background: #dfd; }
tr.part td.t { background: #ffd; }
tr.miss td.t { background: #fdd; }
span.key { padding: 0 6px; margin-right: 8px; }
"""


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>\n{body}\n</body></html>\n"
    )


def _page_name(file: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-." else "_" for ch in file)
    return f"{keep}.html"


def write_html(reports: list[FileReport], folder: str | Path) -> Path:
    """Write index.html and one page per rule file into `folder`; returns the index's path."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for r in reports:
        name = _page_name(r.file)
        (out / name).write_text(_file_page(r), encoding="utf-8")
        rows.append(
            f"<tr><td><a href='{html.escape(name)}'>{html.escape(r.file)}</a></td>"
            f"<td>{r.rules}</td><td>{r.covered}</td><td>{r.missed}</td>"
            f"<td>{percent(r.covered, r.rules):.1f}%</td>"
            f"<td style='text-align:left'>{html.escape(line_ranges(r.missing_lines))}</td></tr>"
        )
    total = sum(r.rules for r in reports)
    covered = sum(r.covered for r in reports)
    kinds = "".join(
        f"<li>{html.escape(k)}: {v['covered']} of {v['rules']} "
        f"({percent(v['covered'], v['rules']):.1f}%)</li>"
        for k, v in by_kind(reports).items()
    )
    body = (
        "<h1>Rule coverage</h1>"
        f"<p>{covered} of {total} rule points ran ({percent(covered, total):.1f}%).</p>"
        "<table class='files'><tr><th>file</th><th>rules</th><th>covered</th><th>missed</th>"
        f"<th>cover</th><th style='text-align:left'>missing</th></tr>{''.join(rows)}"
        f"<tr><th>TOTAL</th><th>{total}</th><th>{covered}</th><th>{total - covered}</th>"
        f"<th>{percent(covered, total):.1f}%</th><th></th></tr></table>"
        f"<h2>By kind</h2><ul>{kinds}</ul>"
    )
    index = out / "index.html"
    index.write_text(_page("Rule coverage", body), encoding="utf-8")
    return index


def _file_page(r: FileReport) -> str:
    try:
        source = Path(r.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        source = []
    marks = r.lines()
    last = max([len(source), *marks]) if marks or source else 0
    rows = []
    for n in range(1, last + 1):
        text = source[n - 1] if n <= len(source) else ""
        points = marks.get(n)
        css, title = "", ""
        if points:
            ran = sum(1 for _, c in points if c)
            css = "run" if ran == len(points) else "part" if ran else "miss"
            title = "\n".join(f"{p.kind} {p.label}: {c} run(s)" for p, c in points)
        rows.append(
            f"<tr class='{css}' id='L{n}' title='{html.escape(title)}'>"
            f"<td class='n'>{n}</td><td class='t'>{html.escape(text)}</td></tr>"
        )
    legend = (
        "<p><span class='key' style='background:#dfd'>every rule here ran</span>"
        "<span class='key' style='background:#ffd'>some ran</span>"
        "<span class='key' style='background:#fdd'>never ran</span>"
        "<a href='index.html'>all files</a></p>"
    )
    head = (
        f"<h1>{html.escape(r.file)}</h1><p>{r.covered} of {r.rules} rule points ran "
        f"({percent(r.covered, r.rules):.1f}%); missing: "
        f"{html.escape(line_ranges(r.missing_lines)) or 'none'}</p>"
    )
    table = f"<table class='source'>{''.join(rows)}</table>"
    return _page(r.file, head + legend + table)
