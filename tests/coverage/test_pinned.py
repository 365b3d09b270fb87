"""The rule coverage figures docs/coverage.md pins are what the shipped scenario suites reach
(benchmarks/coverage_table.py prints them), branches stay at 90% or more in every
rule file, and the doc's list of what no scenario reaches names exactly the lines missed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "coverage.md"


def _table_module():
    spec = importlib.util.spec_from_file_location(
        "coverage_table", ROOT / "benchmarks" / "coverage_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(text: str) -> dict[str, tuple[int, int, int, int]]:
    """file -> (rules, ran, branches, branches ran) of a table in coverage_table's format."""
    out = {}
    for line in text.splitlines():
        m = re.match(
            r"\| (`[^`]+`|\*\*all\*\*) \| (\d+) \| (\d+) \| [\d.]+% \| (\d+) \| (\d+) \|", line
        )
        if m:
            out[m.group(1).strip("`*")] = tuple(int(m.group(i)) for i in range(2, 6))
    return out


def _between(doc: str, marker: str) -> str:
    return doc[doc.index(f"<!-- {marker} -->") : doc.index(f"<!-- /{marker} -->")]


def _missed_rows(text: str) -> set[tuple[str, int]]:
    """(rule file, line) of each row of the doc's table of what no scenario reaches."""
    return {
        (m.group(1), int(m.group(2)))
        for m in re.finditer(r"^\| `([^`]+)` \| (\d+) \|", text, re.MULTILINE)
    }


def test_pinned_coverage_is_the_real_one(monkeypatch):
    monkeypatch.chdir(ROOT)
    module = _table_module()
    reports = module.measure([str(ROOT / "tests" / "scenarios")])
    real = _rows(module.table(reports))
    doc = DOC.read_text(encoding="utf-8")
    pinned = _rows(_between(doc, "coverage-table"))
    stale = {name: (pinned.get(name), row) for name, row in real.items() if pinned.get(name) != row}
    assert not stale and set(pinned) == set(real), (
        "docs/coverage.md's coverage table is not the real one (paste what `python "
        f"benchmarks/coverage_table.py` prints): pinned and real rows {stale}"
    )
    for name, (_, _, arms, arms_ran) in real.items():
        if arms:
            assert arms_ran / arms >= 0.90, (
                f"{name}: the scenarios reach {arms_ran} of {arms} branches"
            )
    # the list of what no scenario reaches, and why: exactly the missed lines
    missed = {(r.file, p.line) for r in reports for p, n in r.points if not n}
    listed = _missed_rows(_between(doc, "missed"))
    assert listed == missed, (
        "docs/coverage.md's table of what no scenario reaches is out of date: "
        f"listed but reached {sorted(listed - missed)}, "
        f"missed but not listed {sorted(missed - listed)}"
    )
