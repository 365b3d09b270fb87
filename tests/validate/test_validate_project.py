"""`rulebook validate FOLDER` on a normal project layout: scenario files beside the rules are
checked as scenarios, deliberately broken fixtures are left out by their markers, and this
repository itself validates clean."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers.groups import EXAMPLE_HOUSE_RULES
from interpreter.cli.main import main
from interpreter.load.discovery import discover

ROOT = Path(__file__).resolve().parents[2]

SCENARIO = """\
game: san-juan
players: 3
scenarios:
  - name: the builder builds
    steps:
      - seat 0: role:builder
"""


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["validate", "--json", *argv])
    return code, json.loads(capsys.readouterr().out.splitlines()[-1])


def _parts() -> dict[str, list[str]]:
    """The repository in three parts of about the same checking cost, each a set of whole
    top-level folders (a folder's house rules are stacked with each other, so a folder is
    never split)."""
    tops = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith("."))
    tests = sorted(f"tests/{p.name}" for p in (ROOT / "tests").iterdir() if p.is_dir())
    rules = [t for t in tops if t != "tests"]
    scenarios = ["tests/scenarios", "tests/scenario_runner"]
    return {
        "rules-and-examples": rules,
        "scenarios": scenarios,
        "other-tests": [t for t in tests if t not in scenarios],
    }


def test_the_parts_cover_the_whole_project(monkeypatch):
    # what the parts below validate is every file `rulebook validate .` would check (the
    # top-level files are not rule files: the pre-commit hooks' list)
    monkeypatch.chdir(ROOT)
    whole = {os.path.normpath(f) for f in discover(["."]) if os.sep in os.path.normpath(f)}
    parts = {os.path.normpath(f) for paths in _parts().values() for f in discover(paths)}
    assert parts == whole and len(whole) > 100


@pytest.mark.slow
@pytest.mark.xdist_group(EXAMPLE_HOUSE_RULES)
@pytest.mark.parametrize("part", sorted(_parts()))
def test_the_project_validates_clean(part, capsys, monkeypatch):
    monkeypatch.delenv("RULEBOOK_RULESETS", raising=False)
    monkeypatch.chdir(ROOT)
    code, report = _report(capsys, *_parts()[part])
    # one house rule of the tests takes the factory out of the base game: The New Buildings'
    # fixed selection names it, so the two cannot be stacked (a warning at both lines)
    refused = {
        (d["code"], os.path.normpath(d["file"]), d["severity"], d["message"].split(" refused:")[0])
        for d in report["diagnostics"]
    }
    house = "tests/scenario_runner/house-rule/pr-no-factory.yaml"
    assert refused <= {
        ("R005", path, "warning", f"stack puerto-rico{more} + pr-no-factory")
        for path in (house, "rulesets/puerto-rico/new-buildings.yaml")
        for more in (" + new-buildings", " + new-buildings + nobles")
    }, report["diagnostics"]
    assert code == 0
    files = report["files"]
    assert files and not any("/fixtures/" in f for f in files)
    if part == "scenarios":  # the shipped scenarios are checked as scenarios
        assert "tests/scenarios/san-juan/builder.yaml" in files
    if part == "rules-and-examples":
        assert any(f.startswith("examples/") for f in files)


def test_a_scenario_file_beside_the_rules_is_checked_as_a_scenario(tmp_path, capsys):
    (tmp_path / "builder.yaml").write_text(SCENARIO, encoding="utf-8")
    code, report = _report(capsys, str(tmp_path))
    assert code == 0 and report["files"] == [str(tmp_path / "builder.yaml")]
    (tmp_path / "builder.yaml").write_text(SCENARIO.replace("role:builder", "role:bilder"))
    code, report = _report(capsys, str(tmp_path))
    assert code == 1
    assert [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [("T002", 6, 17)]


def test_ignore_file_and_marker_keep_broken_files_out_of_a_folder_search(tmp_path, capsys):
    broken = "ruleset: broken\nplayers: {min: 2}\n"
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "bad.yaml").write_text(broken)
    (tmp_path / "marked.yaml").write_text("# rulebook: ignore\n" + broken)
    (tmp_path / ".rulebookignore").write_text("# broken on purpose\nfixtures/\n")
    code, report = _report(capsys, str(tmp_path))
    assert code == 0 and report["files"] == [] and report["skipped"] == []
    # named outright, they are checked (the corpus tests rely on it)
    code, report = _report(capsys, str(tmp_path / "fixtures"), str(tmp_path / "marked.yaml"))
    assert code == 1 and len(report["files"]) == 2


def test_a_declared_kind_wins_over_the_keys(tmp_path, capsys):
    (tmp_path / "s.yaml").write_text("# rulebook: scenario\ngame: san-juan\nplayers: 9\n")
    code, report = _report(capsys, str(tmp_path))
    assert code == 1 and [d["code"] for d in report["diagnostics"]] == ["C003"]
