"""Every code of docs/errors.md has an example in docs/validate.md, and that page is current.

The corpus (``test_validate_corpus.py``) checks each fixture's first line. This file checks
the rest of what docs/validate.md shows: the ``# expect without schemas:`` lines (checks the
schema shadows), the codes produced by a set-up instead of a fixture (a generated 2 MiB file,
broken schemas, simulated failures), and that the generated part of the page is exactly what
``tests/validate/gen_validate_doc.py`` prints today.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

from interpreter.check.pipeline import validate

HERE = Path(__file__).resolve().parent


def _load_generator():
    spec = importlib.util.spec_from_file_location("gen_validate_doc", HERE / "gen_validate_doc.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_validate_doc", module)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()

SHADOWED = [f for f in gen.fixtures() if f.without_schemas]


def _section(doc: str, code: str) -> str:
    match = re.search(rf"^#### {code}\b.*?(?=^#{{2,4}} |\Z)", doc, re.MULTILINE | re.DOTALL)
    return match.group(0) if match else ""


def test_every_code_of_errors_md_has_an_example_in_validate_md() -> None:
    doc = gen.VALIDATE_MD.read_text(encoding="utf-8")
    codes = gen.all_codes()
    assert len(codes) >= 60
    missing = []
    for code in codes:
        section = _section(doc, code)
        if code in gen.NOT_VALIDATES:
            ok = gen.NOT_VALIDATES[code].split(":")[0] in section
        else:
            ok = f"error[{code}]" in section or f"warning[{code}]" in section
        if not ok:
            missing.append(code)
    assert not missing, (
        f"no example in docs/validate.md for {missing}: add a fixture to tests/validate/fixtures/ "
        f"(or a set-up to gen_validate_doc.GENERATED), then run: {gen.REGENERATE}"
    )


def test_every_code_validate_can_report_has_a_fixture_or_a_set_up() -> None:
    named = {e.code for f in gen.fixtures() for e in (*f.expected, *f.without_schemas)}
    elsewhere = set(gen.GENERATED) | set(gen.NOT_VALIDATES)
    lacking = [c for c in gen.all_codes() if c not in named and c not in elsewhere]
    assert not lacking, f"codes of docs/errors.md no fixture names: {lacking}"


def test_generated_part_of_validate_md_is_current() -> None:
    assert gen.current() == gen.render(), (
        f"docs/validate.md is out of date; regenerate it with: {gen.REGENERATE}"
    )


def test_printed_paths_are_relative() -> None:
    doc = gen.VALIDATE_MD.read_text(encoding="utf-8")
    assert str(gen.ROOT) not in doc
    assert tempfile.gettempdir() + os.sep not in doc


@pytest.mark.parametrize("fixture", SHADOWED, ids=lambda f: f.path.name)
def test_checks_the_schema_shadows_report_without_schemas(
    fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RULEBOOK_SCHEMAS", str(tmp_path / "no-schemas"))
    report = validate([fixture.path], jobs=1)
    got = [
        (Path(os.path.normpath(d.file or "")), d.line, d.column, d.code) for d in report.diagnostics
    ]
    want = [(gen.ROOT / e.file, e.line, e.column, e.code) for e in fixture.without_schemas]
    assert got == want, "\n".join(d.format() for d in report.diagnostics)


@pytest.mark.parametrize("code", sorted(gen.GENERATED))
def test_set_ups_report_their_code_and_nothing_else(code: str, tmp_path: Path) -> None:
    run = gen.GENERATED[code].run(tmp_path)
    found = re.findall(r"\b(?:error|warning)\[([A-Z][0-9]{3})\]", run.output)
    assert found == [code], run.output
    assert run.exit_code == 1
    assert str(tmp_path) not in run.output  # shown paths are relative


def test_huge_file_is_y005(tmp_path: Path) -> None:
    from interpreter.load.yamlload import MAX_BYTES

    f = tmp_path / "huge.yaml"
    f.write_text("ruleset: huge\n" + "# padding\n" * (MAX_BYTES // 10 + 10))
    assert [d.code for d in validate([f]).diagnostics] == ["Y005"]


def test_a_parser_failure_is_y099_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from interpreter.load import yamlload

    class Broken:
        def load(self, text: str) -> None:
            raise IndexError("pop from empty list")

    monkeypatch.setattr(yamlload, "_make_yaml", Broken)
    f = tmp_path / "r.yaml"
    f.write_text("ruleset: demo\n")
    (d,) = validate([f], jobs=1).diagnostics
    assert d.code == "Y099" and "IndexError" in d.message


def test_a_bug_in_a_check_is_v999_and_the_other_files_are_still_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from interpreter.model import rules

    def broken(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(rules, "compile_rules", broken)
    (tmp_path / "a.yaml").write_bytes((HERE / "fixtures" / "base" / "ruleset.yaml").read_bytes())
    (tmp_path / "b.yaml").write_text("ruleset: other\ntitle: [unclosed\n")
    codes = [(Path(d.file or "").name, d.code) for d in validate([tmp_path], jobs=1).diagnostics]
    assert codes == [("a.yaml", "V999"), ("b.yaml", "Y001")]


def test_unreadable_schema_is_s011_and_invalid_schema_is_s010(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "r.yaml"
    f.write_text("ruleset: demo\nplayers: {min: 2, max: 2}\n")
    for text, code in (('{"type": "object",', "S011"), ('{"type": "map"}', "S010")):
        schemas = tmp_path / code
        schemas.mkdir()
        (schemas / "ruleset.schema.json").write_text(text)
        monkeypatch.setenv("RULEBOOK_SCHEMAS", str(schemas))
        assert [d.code for d in validate([f], jobs=1).diagnostics] == [code]


def test_families_are_read_from_errors_md_so_new_ones_are_picked_up() -> None:
    text = (
        "## K — value types\n\n| Code | Meaning | Triggered by |\n|---|---|---|\n"
        "| K001 | wrong type | a value of the wrong type |\n\n## Exit codes\n\n0 fine\n"
    )
    (fam,) = gen.families(text)
    assert fam.title == "K — value types"
    assert [(c.code, c.meaning, c.trigger) for c in fam.codes] == [
        ("K001", "wrong type", "a value of the wrong type")
    ]
