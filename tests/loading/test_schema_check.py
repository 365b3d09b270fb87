"""Schema checking: every error positioned, human messages, did-you-mean, best oneOf branch."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.load.schema import check, check_or_raise, load_schema, to_plain
from interpreter.load.yamlload import load_yaml_text

SCHEMAS = Path(__file__).parent / "fixtures" / "schemas"

DOC = """\
document: demo
entries:
  alpha:
    cost: ten
    size: smal
    tags: [a, b, a]
  beta:
    cots: 3
  Bad_Id:
    cost: 1
  gamma:
    cost: -1
    effects:
      - {kind: gain, amount: x}
      - kind: move
        taget: there
      - 5
      - just text
table: {3: 2, 4: three}
extra: 1
"""


@pytest.fixture(autouse=True)
def _schemas(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEBOOK_SCHEMAS", str(SCHEMAS))


def _run(text: str = DOC) -> list[tuple[str, int | None, int | None, str, str, str | None]]:
    doc = load_yaml_text(text, "doc.yaml")
    diags = check(doc.data, load_schema("entries"))
    assert all(d.file == "doc.yaml" for d in diags)
    return [(d.code, d.line, d.column, d.json_path, d.message, d.hint) for d in diags]


def test_all_errors_positioned_and_sorted() -> None:
    assert _run() == [
        ("S001", 4, 11, "/entries/alpha/cost", "expected an integer, got 'ten'", None),
        (
            "S004",
            5,
            11,
            "/entries/alpha/size",
            "expected one of small, medium, large, got 'smal'",
            "did you mean 'small'?",
        ),
        ("S008", 6, 18, "/entries/alpha/tags/2", "duplicate item 'a'", None),
        (
            "S002",
            7,
            3,
            "/entries/beta",
            "missing required key 'cost'",
            "is 'cots' a misspelling of 'cost'?",
        ),
        (
            "S003",
            8,
            5,
            "/entries/beta/cots",
            "unknown key 'cots'",
            "did you mean 'cost'?",
        ),
        (
            "S006",
            9,
            3,
            "/entries/Bad_Id",
            "key 'Bad_Id' does not match the pattern ^[a-z][a-z0-9-]*$",
            None,
        ),
        ("S005", 12, 11, "/entries/gamma/cost", "expected a number >= 0, got -1", None),
        ("S001", 14, 30, "/entries/gamma/effects/0/amount", "expected an integer, got 'x'", None),
        (
            "S002",
            15,
            9,
            "/entries/gamma/effects/1",
            "missing required key 'target'",
            "is 'taget' a misspelling of 'target'?",
        ),
        (
            "S003",
            16,
            9,
            "/entries/gamma/effects/1/taget",
            "unknown key 'taget'",
            "did you mean 'target'?",
        ),
        (
            "S001",
            17,
            9,
            "/entries/gamma/effects/2",
            "expected a map or a string, got 5",
            None,
        ),
        ("S001", 19, 18, "/table/4", "expected an integer, got 'three'", None),
        ("S003", 20, 1, "/extra", "unknown key 'extra'", None),
    ]


def test_valid_document_has_no_diagnostics() -> None:
    text = "document: demo\nentries:\n  a: {cost: 1, effects: [{kind: gain, amount: 2}]}\n"
    assert _run(text) == []


def test_missing_top_level_key_points_at_document_start() -> None:
    assert _run("document: demo\n") == [("S002", 1, 1, "", "missing required key 'entries'", None)]


def test_expected_and_format() -> None:
    doc = load_yaml_text("document: demo\nentries:\n  a: {cost: ten}\n", "d.yaml")
    (d,) = check(doc.data, load_schema("entries"))
    assert d.expected == "an integer"
    assert d.format() == (
        "d.yaml:3:13: error[S001]: expected an integer, got 'ten' (at /entries/a/cost)"
    )


def test_check_or_raise() -> None:
    doc = load_yaml_text("document: 7\nentries: {}\n", "d.yaml")
    with pytest.raises(RulesError) as exc:
        check_or_raise(doc.data, load_schema("entries"))
    assert [(d.code, d.line, d.column) for d in exc.value.diagnostics] == [("S001", 1, 11)]


def test_plain_data_without_positions() -> None:
    diags = check({"document": "demo", "entries": {"a": {"cost": "x"}}}, load_schema("entries"))
    assert [(d.code, d.file, d.line, d.json_path) for d in diags] == [
        ("S001", None, None, "/entries/a/cost")
    ]


def test_prefix_for_subtrees() -> None:
    doc = load_yaml_text("outer:\n  x: 1\n", "d.yaml")
    diags = check(
        doc.data["outer"],
        {"type": "object", "properties": {"x": {"type": "string"}}},
        prefix=["outer"],
    )
    assert [(d.json_path, d.line, d.column) for d in diags] == [("/outer/x", 2, 6)]


def test_broken_schemas_are_reported() -> None:
    with pytest.raises(RulesError) as exc:
        load_schema("broken")
    assert exc.value.diagnostics[0].code == "S010"
    with pytest.raises(RulesError) as exc:
        load_schema("notjson")
    d = exc.value.diagnostics[0]
    assert (d.code, d.line) == ("S011", 2)
    with pytest.raises(RulesError) as exc:
        load_schema("absent")
    assert exc.value.diagnostics[0].code == "S011"


def test_unresolvable_ref() -> None:
    diags = check({"a": 1}, {"properties": {"a": {"$ref": "missing.schema.json"}}})
    assert [d.code for d in diags] == ["S010"]


def test_to_plain_is_json_shaped() -> None:
    doc = load_yaml_text("a: 0x10\nb: 1.5\n3: [yes, true, ~]\nc: |\n  text\n")
    plain = to_plain(doc.data)
    assert plain == {"a": 16, "b": 1.5, "3": ["yes", True, None], "c": "text\n"}
    assert type(plain["a"]) is int and type(plain["b"]) is float and type(plain["c"]) is str
