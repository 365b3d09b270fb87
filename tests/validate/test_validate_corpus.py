"""The corpus: one broken rule file per mistake; every diagnostic's code, line and column.

Each fixture's first line says what must be reported, in order::

    # expect: 58:26 D001                      (in the fixture itself)
    # expect: base/ruleset.yaml:91:29 D003    (in another file, relative to fixtures/)

Nothing more and nothing less may be reported.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.check import validate

# beside conftest.py's own FIXTURES: `from conftest import` would find another tests/ folder's
# conftest when several folders run in one session
FIXTURES = Path(__file__).resolve().parent / "fixtures"

CASES = sorted(p for p in FIXTURES.rglob("*.yaml") if p.parent.name != "base")


def _expected(path: Path) -> list[tuple[str, int, int, str]]:
    # bytes first: a fixture may be broken on purpose below its first line (y_not_utf8.yaml)
    first = path.read_bytes().splitlines()[0].decode("utf-8")
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: ...'"
    out = []
    for item in first[len("# expect: ") :].split(","):
        where, code = item.split()
        *file, line, col = where.split(":")
        target = FIXTURES / file[0] if file else path
        out.append((os.path.normpath(target), int(line), int(col), code))
    return out


def test_corpus_is_large_and_covers_every_stage() -> None:
    assert len(CASES) >= 40
    codes = {code for p in CASES for *_, code in _expected(p)}
    for prefix in "YSORDCW":
        assert any(c.startswith(prefix) for c in codes), prefix
    for code in ("Y001", "Y002", "Y003", "S001", "S002", "S003", "R001", "R002", "R003"):
        assert code in codes
    for code in ("R004", "R005", "O004", "O006", "O007", "O008", "D001", "D003", "D004"):
        assert code in codes
    for code in ("D005", "W001", "W002", "W003", "W004", "W005"):
        assert code in codes


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_reports_exactly_what_it_expects(path: Path) -> None:
    report = validate([path])
    got = [(os.path.normpath(d.file or ""), d.line, d.column, d.code) for d in report.diagnostics]
    assert got == _expected(path), "\n".join(d.format() for d in report.diagnostics)
    assert all(d.code != "V999" for d in report.diagnostics)


def test_the_base_and_its_overlays_are_valid() -> None:
    report = validate([FIXTURES / "base"])
    assert report.diagnostics == []
    assert sorted(f.kind for f in report.files) == ["overlay", "overlay", "ruleset"]


def test_shipped_rulesets_and_toy_have_no_errors() -> None:
    root = FIXTURES.parents[2]
    report = validate([root / "rulesets" / "puerto-rico" / "ruleset.yaml", root / "tests" / "toy"])
    assert report.errors == 0, "\n".join(d.format() for d in report.diagnostics)


def test_whole_corpus_in_one_run_is_complete_and_stably_ordered() -> None:
    # once in this process and again shared out to two workers: the same report, in order
    report = validate([FIXTURES], jobs=1)
    again = validate([FIXTURES], jobs=2)
    assert [d.format() for d in again.diagnostics] == [d.format() for d in report.diagnostics]
    assert again.files == report.files and len(report.diagnostics) > 40
    keys = [d.sort_key() for d in report.diagnostics]
    assert keys == sorted(keys)
    # every fixture's own findings appear in the combined run too
    found = {(os.path.normpath(d.file or ""), d.line, d.column, d.code) for d in report.diagnostics}
    for path in CASES:
        if path.parent.name == "overlays":
            continue  # overlays are composed alongside their neighbours' ids; checked alone above
        for item in _expected(path):
            assert item in found, (path.name, item)


def test_diagnostics_carry_json_path_and_hint() -> None:
    report = validate([FIXTURES / "r_unknown_phase.yaml"])
    (d,) = report.diagnostics
    assert d.json_path == "/catalogs/cards/entries/rest-card/phase"
    assert d.hint == "did you mean 'rest'?"


def test_conflict_names_both_files() -> None:
    (d,) = validate([FIXTURES / "configs" / "c_overlays_conflict.yaml"]).diagnostics
    assert "overlay-c.yaml" in d.message and "overlay-a.yaml" in d.message


def test_non_rule_yaml_is_skipped(tmp_path: Path) -> None:
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n")
    (tmp_path / "workflow.yml").write_text("on: [push]\njobs: {}\n")
    (tmp_path / "broken-other.yaml").write_text("key: [unclosed\n")
    report = validate([tmp_path, tmp_path / ".pre-commit-config.yaml"])
    assert report.diagnostics == []
    assert report.checked == []
    assert len(report.skipped) == 3


def test_misspelt_id_key_is_still_checked(tmp_path: Path) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text("rulset: x\nplayers: {min: 1, max: 2}\n")
    codes = [d.code for d in validate([f]).diagnostics]
    assert "S003" in codes and "S002" in codes
