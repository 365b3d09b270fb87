"""The rule coverage figures docs/coverage.md pins are not above what the shipped scenario
suites reach (benchmarks/coverage_table.py prints them), and branches stay at 90% or more."""

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


def test_pinned_coverage_is_not_above_the_real_one(monkeypatch):
    monkeypatch.chdir(ROOT)
    module = _table_module()
    real = _rows(module.table(module.measure([str(ROOT / "tests" / "scenarios")])))
    doc = DOC.read_text(encoding="utf-8")
    pinned = _rows(
        doc[doc.index("<!-- coverage-table -->") : doc.index("<!-- /coverage-table -->")]
    )
    assert set(pinned) == set(real), "the pinned table names other files than the real one"
    for name, (rules, ran, arms, arms_ran) in pinned.items():
        r_rules, r_ran, r_arms, r_arms_ran = real[name]
        # a share, since an edit to a rule file may add or remove points
        assert ran / rules <= r_ran / r_rules + 1e-9, (
            f"{name}: pinned {ran}/{rules}, real {real[name]}"
        )
        if arms:
            assert arms_ran / arms <= r_arms_ran / r_arms + 1e-9, f"{name}: branches {real[name]}"
    _, _, arms, arms_ran = real["all"]
    assert arms_ran / arms >= 0.90, f"the shipped scenarios reach {arms_ran} of {arms} branches"
