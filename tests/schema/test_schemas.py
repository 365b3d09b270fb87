"""The JSON Schemas of schemas/: the real ruleset passes, typical mistakes are caught in place.

Each broken variant is a small YAML text; the schema check must name the right code, the line and
column in that text, and (where there is one) the did-you-mean.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from interpreter.cli.config import check_config
from interpreter.cli.main import main
from interpreter.diagnostics.errors import RulebookError
from interpreter.load.schema import check, load_schema
from interpreter.load.yamlload import load_yaml_file, load_yaml_text

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("*/ruleset.yaml"))

# Sections every ruleset needs; a case's own text comes first (so its line numbers are its own)
# and these are appended for the top-level keys the case does not write itself.
REQUIRED = {
    "ruleset": "ruleset: toy\n",
    "players": "players: {min: 2, max: 4}\n",
    "flow": "flow:\n  round:\n    - do: pass\n",
    "scoring": "scoring:\n  components:\n    - {name: points, value: 0}\n",
}


def ruleset_text(text: str, *, omit: tuple[str, ...] = ()) -> str:
    present = set(re.findall(r"^([A-Za-z][\w-]*):", text, flags=re.M))
    tail = "".join(v for k, v in REQUIRED.items() if k not in present and k not in omit)
    return text + tail


def diagnostics(text: str, schema: str = "ruleset") -> list:
    doc = load_yaml_text(text, "case.yaml")
    return [d for d in check(doc.data, load_schema(schema)) if d.severity == "error"]


def summary(diags: list) -> list[tuple[str, int | None, int | None]]:
    return [(d.code, d.line, d.column) for d in diags]


# ------------------------------------------------------------------------------ the real files


@pytest.mark.parametrize("path", RULESETS, ids=[p.parent.name for p in RULESETS])
def test_real_rulesets_validate_clean(path: Path) -> None:
    doc = load_yaml_file(path)
    assert check(doc.data, load_schema("ruleset")) == []


def test_the_minimal_ruleset_of_these_tests_is_valid() -> None:
    assert diagnostics(ruleset_text("")) == []


@pytest.mark.parametrize("name", ["ruleset", "overlay", "config"])
def test_schemas_are_valid_and_describe_every_property(name: str) -> None:
    schema = load_schema(name)
    # the loader trusts the shipped schemas (for start-up time): this is where they are checked
    Draft202012Validator.check_schema(schema)
    missing: list[str] = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in (node.get("properties") or {}).items():
                if isinstance(sub, dict) and "description" not in sub:
                    missing.append(f"{path}/properties/{key}")
            for key, sub in node.items():
                walk(sub, f"{path}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}/{i}")

    walk(schema, "")
    assert missing == []


# ------------------------------------------------------------------------- broken rulesets


def _broken_rulesets() -> list:
    """The cases of broken_rulesets.yaml (a YAML text is easier to read there than in a string)."""
    cases = YAML(typ="safe").load((Path(__file__).parent / "broken_rulesets.yaml").read_text())
    return [
        pytest.param(case["text"], [tuple(e) for e in case["expected"]], case.get("hint"), id=name)
        for name, case in cases.items()
    ]


@pytest.mark.parametrize(("text", "expected", "hint"), _broken_rulesets())
def test_broken_ruleset(text: str, expected: list, hint: str | None) -> None:
    diags = diagnostics(ruleset_text(text, omit=("ruleset",) if text == "" else ()))
    assert summary(diags) == expected, [d.format() for d in diags]
    if hint is not None:
        assert any(hint in (d.hint or "") for d in diags), [d.format() for d in diags]


def test_step_that_is_not_a_map() -> None:
    diags = diagnostics(ruleset_text("flow:\n  round:\n    - do it\n"))
    assert summary(diags) == [("S001", 3, 7)]
    assert "expected a map" in diags[0].message


def test_nested_errors_report_the_step_kind_that_was_meant() -> None:
    # several faults inside an each-player step must not make another kind the "best match"
    text = (
        "flow:\n  round:\n    - each-player:\n        steps:\n"
        "          - do: 1\n          - log: 2\n          - phase: [x]\n"
    )
    diags = diagnostics(ruleset_text(text))
    assert summary(diags) == [("S001", 5, 17), ("S001", 6, 18), ("S001", 7, 20)]


def test_attributes_are_open_but_plain() -> None:
    ok = "catalogs:\n  things:\n    entries:\n      hammer: {weight: 3, tags: [a, b], rare: true}\n"
    assert diagnostics(ruleset_text(ok)) == []
    nested = "catalogs:\n  things:\n    entries:\n      hammer: {parts: {a: 1}}\n"
    assert summary(diagnostics(ruleset_text(nested))) == [("S001", 4, 23)]


# -------------------------------------------------------------------------------- overlays

OVERLAY_OK = """\
overlay: house-rules
extends: toy
title: House rules
add:
  catalogs/things/entries/saw: {cost: 2}
  flow/round/-: {do: pass}
replace:
  tables/start: 5
patch:
  catalogs/things/entries/hammer: {cost: 1}
remove:
  - catalogs/things/entries/nail
"""


def test_overlay_schema_accepts_a_valid_overlay() -> None:
    assert diagnostics(OVERLAY_OK, "overlay") == []
    assert diagnostics("overlay: a\nextends: [toy, b]\nadd:\n", "overlay") == []


@pytest.mark.parametrize(
    ("text", "expected", "hint"),
    [
        ("overlay: a\nextend: toy\n", [("S002", 1, 1), ("S003", 2, 1)], "extends"),
        ("extends: toy\n", [("S002", 1, 1)], None),
        ("overlay: a\nextends: toy\npatch:\n  tables/start: 5\n", [("S001", 4, 17)], None),
        ("overlay: a\nextends: toy\nremove: [a//b]\n", [("S006", 3, 10)], None),
        ("overlay: a\nextends: toy\nremove: a/b\n", [("S001", 3, 9)], None),
        ("overlay: a\nextends: toy\nadd:\n  /: 1\n", [("S006", 4, 3)], None),
        ("overlay: Bad Id\nextends: toy\n", [("S006", 1, 10)], None),
    ],
)
def test_overlay_schema_rejects(text: str, expected: list, hint: str | None) -> None:
    diags = diagnostics(text, "overlay")
    assert summary(diags) == expected, [d.format() for d in diags]
    if hint is not None:
        assert any(hint in (d.hint or "") for d in diags)


# --------------------------------------------------------------------------------- configs

CONFIGS = [
    ("game: puerto-rico\nplayers: 4\n", True),
    ("", True),
    (
        "game: puerto-rico\nplayers: 3\nwith: [a, b]\noptions: {bank: limited, n: 2.5}\n"
        "seed: 7\nseats: [random, human, first]\n",
        True,
    ),
    ("with: a, b\noptions:\nseats:\n", True),
    ("options: {pair: [1, 2]}\n", True),
    ("player: 4\n", False),
    ("players: 0\n", False),
    ("players: four\n", False),
    ("seed: -1\n", False),
    ("game: ''\n", False),
    ("with: {a: 1}\n", False),
    ("seats: random\n", False),
    ("seats: [random, 3]\n", False),
    ("options: [bank]\n", False),
    ("options: {bank: {x: 1}}\n", False),
    ("options: {bank: [[1]]}\n", False),
    ("- game\n", False),
]


@pytest.mark.parametrize(("text", "valid"), CONFIGS)
def test_config_schema_agrees_with_the_config_loader(text: str, valid: bool) -> None:
    schema_ok = diagnostics(text, "config") == []
    try:
        check_config(load_yaml_text(text, "config.yaml").data, "config.yaml")
        loader_ok = True
    except RulebookError:
        loader_ok = False
    assert (schema_ok, loader_ok) == (valid, valid)


def test_config_typo_suggests_the_key() -> None:
    diags = diagnostics("game: x\nplayer: 4\n", "config")
    assert summary(diags) == [("S003", 2, 1)]
    assert "players" in (diags[0].hint or "")


# ----------------------------------------------------------------------- rulebook schema


@pytest.mark.parametrize("name", ["ruleset", "overlay", "config"])
def test_schema_command_prints_parseable_json(name: str, capsys) -> None:
    assert main(["schema", name]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == load_schema(name)


def test_schema_command_defaults_to_ruleset(capsys) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out)["$id"] == "ruleset.schema.json"


def test_schema_command_unknown_name(capsys) -> None:
    assert main(["schema", "rulez"]) == 2
    err = capsys.readouterr().err
    assert "rulez" in err and "ruleset" in err and "overlay" in err and "config" in err
