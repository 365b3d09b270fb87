"""`rulebook validate` knows what a rule file is: the ordinary YAML of a repository (a GitHub
workflow, a Helm chart, a conda environment) is skipped, said so under `--verbose` and when
named on the command line (as the pre-commit hook names changed files), and never fails a run;
a rule file with a mistake, or a slip in its kind key, is still checked.

The game here is the tiny fixture base of tests/validate (`base`, found through
``RULEBOOK_RULESETS``: see conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.load.discovery import SCHEMA_KEYS, classify

ROOT = Path(__file__).resolve().parents[2]

WORKFLOW = """\
name: CI
on:
  push:
    branches: [main]
  pull_request:
permissions:
  contents: read
concurrency:
  group: ci-${{ github.ref }}
  cancel-in-progress: true
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: pip install -e ".[test]"
      - run: rulebook validate . --format github
"""

CHART = """\
apiVersion: v2
name: rulebook-table
description: A Helm chart for the rulebook web table
type: application
version: 0.1.0
appVersion: "0.1.0"
keywords: [games, board-games]
home: https://example.org/rulebook
maintainers:
  - name: Table Keeper
    email: keeper@example.org
dependencies:
  - name: postgresql
    version: 12.x.x
    repository: https://charts.bitnami.com/bitnami
"""

ENVIRONMENT = """\
name: rulebook
channels:
  - conda-forge
  - defaults
dependencies:
  - python=3.11
  - pip
  - pip:
      - -e .
"""

# (it changes nothing the base's own overlay-a changes: validate stacks the two)
OVERLAY = """\
overlay: double-bonus
extends: vbase
title: Double bonus
patch:
  options/bonus: {default: 2}
"""

SCENARIO = """\
game: base
players: 2
scenarios:
  - name: the first seat takes the work card
    steps:
      - seat 0: card:work-card
"""

FOREIGN = {"ci.yml": WORKFLOW, "Chart.yaml": CHART, "environment.yml": ENVIRONMENT}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository: foreign YAML beside a real overlay and scenario file, and a workflow
    where GitHub keeps it (a hidden folder, which a folder search does not enter)."""
    for name, text in FOREIGN.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "double-bonus.yaml").write_text(OVERLAY, encoding="utf-8")
    (tmp_path / "scenarios.yaml").write_text(SCENARIO, encoding="utf-8")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "ci.yml").write_text(WORKFLOW, encoding="utf-8")
    return tmp_path


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["validate", "--json", *argv])
    return code, json.loads(capsys.readouterr().out.splitlines()[-1])


def _text(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(["validate", *argv])
    return code, capsys.readouterr().out.splitlines()


def test_foreign_yaml_beside_rule_files_is_skipped_and_the_rule_files_checked(repo, capsys):
    code, report = _json(capsys, str(repo))
    assert code == 0 and report["diagnostics"] == []
    assert report["files"] == [str(repo / "double-bonus.yaml"), str(repo / "scenarios.yaml")]
    assert sorted(report["skipped"]) == sorted(str(repo / name) for name in FOREIGN)


def test_verbose_says_which_files_were_skipped_and_why(repo, capsys):
    code, lines = _text(capsys, "--verbose", str(repo))
    assert code == 0
    skipped = [ln for ln in lines if ": skipped, not a rule file: " in ln]
    assert sorted(ln.split(": skipped")[0] for ln in skipped) == sorted(
        str(repo / name) for name in FOREIGN
    )
    why = {ln.split(": skipped")[0]: ln for ln in skipped}
    assert why[str(repo / "ci.yml")].endswith(
        "no top-level ruleset:, overlay:, game: or scenarios: key; its keys: name, on, "
        "permissions, concurrency, jobs"
    )
    assert (
        "its keys: apiVersion, name, description, type, version, appVersion, ..."
        in (why[str(repo / "Chart.yaml")])
    )
    assert lines[-1] == "no problems found (2 files checked, 3 skipped (not rule files))"
    # without --verbose a folder search lists no skipped file, only counts them
    code, lines = _text(capsys, str(repo))
    assert code == 0 and not any("skipped, not a rule file" in ln for ln in lines)


def test_a_file_named_outright_is_skipped_with_a_note_and_passes(repo, capsys):
    # what the pre-commit hook runs when a commit changes only the workflow
    workflow = str(repo / ".github" / "workflows" / "ci.yml")
    code, lines = _text(capsys, workflow)
    assert code == 0
    assert lines == [
        f"{workflow}: skipped, not a rule file: no top-level ruleset:, overlay:, game: or "
        "scenarios: key; its keys: name, on, permissions, concurrency, jobs",
        "no problems found (0 files checked, 1 skipped (not rule files))",
    ]
    # named beside a rule file, as a hook names every changed file
    named = [str(repo / n) for n in ("Chart.yaml", "environment.yml", "double-bonus.yaml")]
    code, lines = _text(capsys, *named)
    assert code == 0 and sum("skipped, not a rule file" in ln for ln in lines) == 2
    code, report = _json(capsys, workflow, *named)
    assert code == 0 and report["files"] == [named[2]] and len(report["skipped"]) == 3
    # the github format keeps stdout for annotations: the note goes to stderr
    assert main(["validate", "--format", "github", workflow]) == 0
    out, err = capsys.readouterr()
    assert out == "" and f"{workflow}: skipped, not a rule file" in err


def test_a_genuine_scenario_file_with_a_mistake_is_still_an_error(repo, capsys):
    (repo / "scenarios.yaml").write_text(SCENARIO.replace("card:work-card", "card:work-crad"))
    code, report = _json(capsys, str(repo))
    assert code == 1 and len(report["skipped"]) == 3
    assert [(d["code"], d["line"]) for d in report["diagnostics"]] == [("T002", 6)]
    # a single scenario, no `scenarios:` list, with a misspelt key: checked, not skipped
    single = repo / "single.yaml"
    single.write_text("game: base\nplayers: 2\nsteps:\n  - seat 0: card:work-card\nexpct: []\n")
    code, report = _json(capsys, str(single))
    assert code == 1 and report["files"] == [str(single)]
    assert [d["code"] for d in report["diagnostics"]] == ["S003"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a slip in a kind key still makes the file checked, when the rest of it says its kind
        ("rulset: x\nplayers: {min: 1, max: 2}\n", "ruleset"),
        ("overlya: x\nextends: vbase\npatch: {}\n", "overlay"),
        ("gmae: base\nplayers: 2\n", "config"),
        ("gmae: base\nplayers: 2\nsteps: [pass]\n", "scenario"),
        # a ruleset that lost its id line, an overlay its id
        ("players: {min: 2}\nflow: {}\nscoring: {}\n", "ruleset"),
        ("extends: vbase\nreplace: {}\n", "overlay"),
        # a single scenario without a `scenarios:` list
        ("game: base\nplayers: 2\nexpect: []\n", "scenario"),
        # a single scenario that forgot its game (T001 says so)
        ("name: opening\nplayers: 2\nsteps: [pass]\n", "scenario"),
        # the schema line of a file the keys cannot tell
        ("# yaml-language-server: $schema=../schemas/scenario.schema.json\n{}\n", "scenario"),
        # other tools' YAML, each with keys near or equal to a rule file's
        ("name: pipeline\ntrigger: [main]\npool: {vmImage: x}\nsteps: []\n", "skipped"),
        ("version: 0.2\nphases: {build: {commands: [make]}}\nartifacts: {}\n", "skipped"),
        ("service: api\nprovider: {name: aws}\nfunctions: {hello: {}}\n", "skipped"),
        ("root: true\nextends: eslint:recommended\nrules: {semi: error}\n", "skipped"),
        ("# yaml-language-server: $schema=https://x.org/compose-config.schema.json\n", "skipped"),
        ("- hosts: all\n  tasks: []\n", "skipped"),
    ],
)
def test_what_a_file_is_taken_for(text: str, kind: str) -> None:
    assert classify(text) == kind


def test_the_keys_never_taken_for_a_slip_are_the_schemas_keys() -> None:
    keys: set[str] = set()
    for kind in ("ruleset", "overlay", "config", "scenario"):
        schema = json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text("utf-8"))
        keys |= set(schema["properties"])
    assert keys == SCHEMA_KEYS
