"""Overlay composition: each operation, positions after composition, every error, conflicts."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from interpreter.compose.overlays import Composed, compose, is_overlay
from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.locate import locate
from interpreter.load.schema import to_plain
from interpreter.load.yamlload import Document, load_yaml_file

BASE = """\
ruleset: toy
title: Toy game
sections:
  entries:
    alpha: {cost: 1, size: 2}
    beta:
      cost: 3
      tags: [x, y]
      nested: {deep: 1, keep: 2}
  steps: [one, two, three]
table: {3: 2, 4: 3}
"""


def _write(tmp_path: Path, name: str, text: str) -> Document:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return load_yaml_file(path)


@pytest.fixture
def base(tmp_path: Path) -> Document:
    return _write(tmp_path, "base.yaml", BASE)


def _compose(base: Document, *overlays: Document) -> Composed:
    return compose(base, list(overlays))


def _errors(exc: pytest.ExceptionInfo[RulesError]) -> list[Diagnostic]:
    return exc.value.diagnostics


def test_no_overlays_is_identity(base: Document) -> None:
    result = _compose(base)
    assert to_plain(result.data) == to_plain(base.data)
    assert result.sources == [base.path]
    assert locate(result.data, ["sections", "entries", "beta", "cost"]) == (base.path, 7, 13)


def test_add(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path,
        "add.yaml",
        """\
        overlay: more
        extends: toy
        add:
          sections/entries/gamma: {cost: 5}
          sections/steps/-: four
          table/5: 4
        """,
    )
    result = _compose(base, ov)
    plain = to_plain(result.data)
    assert plain["sections"]["entries"]["gamma"] == {"cost": 5}
    assert plain["sections"]["steps"] == ["one", "two", "three", "four"]
    assert result.data["table"][5] == 4  # integer tables stay integer-keyed
    assert locate(result.data, ["sections", "entries", "gamma", "cost"]) == (ov.path, 4, 34)
    assert locate(result.data, ["sections", "entries", "gamma"]) == (ov.path, 4, 27)
    assert locate(result.data, ["sections", "steps", 3]) == (ov.path, 5, 21)
    assert locate(result.data, ["table", "5"]) == (ov.path, 6, 12)
    # untouched neighbours still point at the base file
    assert locate(result.data, ["sections", "entries", "alpha", "cost"]) == (base.path, 5, 19)
    assert locate(result.data, ["table", 3]) == (base.path, 11, 12)
    assert result.provenance["sections/entries/gamma"] == ov.path
    assert result.sources == [base.path, ov.path]
    assert is_overlay(ov) and not is_overlay(base)


def test_replace(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path,
        "rep.yaml",
        """\
        overlay: rep
        extends: toy
        replace:
          sections/entries/beta:
            cost: 7
          sections/steps/two: middle
        """,
    )
    result = _compose(base, ov)
    assert to_plain(result.data["sections"]["entries"]["beta"]) == {"cost": 7}
    assert to_plain(result.data["sections"]["steps"]) == ["one", "middle", "three"]
    assert locate(result.data, ["sections", "entries", "beta", "cost"]) == (ov.path, 5, 11)
    assert locate(result.data, ["sections", "steps", 1]) == (ov.path, 6, 23)


def test_patch_deep_merges(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path,
        "patch.yaml",
        """\
        overlay: p
        extends: toy
        patch:
          sections/entries/beta:
            cost: 9
            tags: [z]
            nested: {deep: 5, new: 6}
          table: {"3": 1}
        """,
    )
    result = _compose(base, ov)
    beta = to_plain(result.data["sections"]["entries"]["beta"])
    assert beta == {"cost": 9, "tags": ["z"], "nested": {"deep": 5, "keep": 2, "new": 6}}
    assert to_plain(result.data["table"]) == {"3": 1, "4": 3}
    assert locate(result.data, ["sections", "entries", "beta", "cost"]) == (ov.path, 5, 11)
    assert locate(result.data, ["sections", "entries", "beta", "nested", "new"]) == (
        ov.path,
        7,
        28,
    )
    assert locate(result.data, ["sections", "entries", "beta", "nested", "keep"]) == (
        base.path,
        9,
        31,
    )
    assert result.provenance["sections/entries/beta/nested/deep"] == ov.path


def test_remove(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path,
        "rm.yaml",
        """\
        overlay: rm
        extends: toy
        remove:
          - sections/entries/alpha
          - sections/steps/one
          - sections/steps/three
          - table/4
        """,
    )
    result = _compose(base, ov)
    assert list(result.data["sections"]["entries"]) == ["beta"]
    assert to_plain(result.data["sections"]["steps"]) == ["two"]
    assert locate(result.data, ["sections", "steps", 0]) == (base.path, 10, 16)
    assert to_plain(result.data["table"]) == {"3": 2}


def test_base_is_not_mutated_and_compose_repeats(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path,
        "o.yaml",
        """\
        overlay: o
        extends: toy
        patch: {sections/entries/beta: {cost: 9, nested: {deep: 0}}}
        remove: [sections/steps/one]
        add: {sections/entries/zeta: {cost: 0}}
        """,
    )
    before = json.dumps(to_plain(base.data))
    first = _compose(base, ov)
    second = _compose(base, ov)
    assert json.dumps(to_plain(base.data)) == before
    assert to_plain(first.data) == to_plain(second.data)
    assert locate(base.data, ["sections", "entries", "beta", "cost"]) == (base.path, 7, 13)
    assert locate(base.data, ["sections", "steps", 0]) == (base.path, 10, 11)


def test_stacked_overlays_and_extends_earlier_overlay(tmp_path: Path, base: Document) -> None:
    exp = _write(
        tmp_path,
        "exp.yaml",
        "overlay: exp\nextends: toy\nadd:\n  sections/entries/gamma: {cost: 5}\n",
    )
    var = _write(
        tmp_path,
        "var.yaml",
        "overlay: var\nextends: exp\npatch:\n  sections/entries/gamma: {cost: 6}\n",
    )
    result = _compose(base, exp, var)
    assert result.data["sections"]["entries"]["gamma"]["cost"] == 6
    assert locate(result.data, ["sections", "entries", "gamma", "cost"]) == (var.path, 4, 34)
    assert result.provenance["sections/entries/gamma/cost"] == var.path
    assert result.sources == [base.path, exp.path, var.path]


def test_extends_mismatch(tmp_path: Path, base: Document) -> None:
    ov = _write(tmp_path, "x.yaml", "overlay: x\nextends: tyo\n")
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    (d,) = _errors(exc)
    assert (d.code, d.file, d.line, d.column) == ("O004", ov.path, 2, 10)
    assert d.hint == "did you mean 'toy'?"
    assert "the ruleset is 'toy'" in d.message


def test_add_existing_entry(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path, "x.yaml", "overlay: x\nextends: toy\nadd:\n  sections/entries/beta: {cost: 1}\n"
    )
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    (d,) = _errors(exc)
    assert (d.code, d.file, d.line, d.column) == ("O006", ov.path, 4, 3)
    assert "replace" in (d.hint or "") and "patch" in (d.hint or "")


@pytest.mark.parametrize("kind", ["replace", "patch"])
def test_missing_path_with_suggestion(tmp_path: Path, base: Document, kind: str) -> None:
    ov = _write(
        tmp_path,
        "x.yaml",
        f"overlay: x\nextends: toy\n{kind}:\n  sections/entries/betta: {{cost: 1}}\n",
    )
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    (d,) = _errors(exc)
    assert (d.code, d.file, d.line, d.column) == ("O007", ov.path, 4, 3)
    assert d.hint == "did you mean 'beta'?"
    assert "no 'betta' in sections/entries" in d.message


def test_remove_missing_path(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path,
        "x.yaml",
        "overlay: x\nextends: toy\nremove:\n  - sections/entries/alpah\n  - sections/steps/9\n",
    )
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    got = [(d.code, d.line, d.column, d.hint) for d in _errors(exc)]
    assert got == [("O007", 4, 5, "did you mean 'alpha'?"), ("O007", 5, 5, None)]


def test_add_into_missing_parent(tmp_path: Path, base: Document) -> None:
    ov = _write(tmp_path, "x.yaml", "overlay: x\nextends: toy\nadd:\n  section/entries/new: 1\n")
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    (d,) = _errors(exc)
    assert (d.code, d.line, d.column, d.hint) == ("O007", 4, 3, "did you mean 'sections'?")


def test_add_into_list_not_at_end(tmp_path: Path, base: Document) -> None:
    ov = _write(tmp_path, "x.yaml", "overlay: x\nextends: toy\nadd:\n  sections/steps/7: z\n")
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    assert [(d.code, d.line) for d in _errors(exc)] == [("O010", 4)]


def test_unknown_overlay_keys_and_bad_sections(tmp_path: Path, base: Document) -> None:
    ov = _write(
        tmp_path,
        "x.yaml",
        """\
        overlay: x
        extends: toy
        replcae: {}
        patch:
          sections/entries/beta: 5
        remove: sections/steps/0
        """,
    )
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    got = [(d.code, d.line, d.column, d.hint) for d in _errors(exc)]
    assert got == [
        ("O002", 3, 1, "did you mean 'replace'?"),
        ("O005", 5, 26, "use 'replace' to change a whole value"),
        ("O005", 6, 9, None),
    ]


def test_overlay_without_id_or_extends(tmp_path: Path, base: Document) -> None:
    ov = _write(tmp_path, "x.yaml", "title: nothing\n")
    with pytest.raises(RulesError) as exc:
        _compose(base, ov)
    assert sorted(d.code for d in _errors(exc)) == ["O003", "O004"]


def test_same_overlay_twice(tmp_path: Path, base: Document) -> None:
    ov = _write(tmp_path, "x.yaml", "overlay: x\nextends: toy\n")
    with pytest.raises(RulesError) as exc:
        _compose(base, ov, ov)
    assert [d.code for d in _errors(exc)] == ["O009"]


def test_base_without_id(tmp_path: Path) -> None:
    base = _write(tmp_path, "b.yaml", "sections: {}\n")
    with pytest.raises(RulesError) as exc:
        _compose(base)
    assert [(d.code, d.line) for d in _errors(exc)] == [("O003", 1)]


def test_conflict_names_both_files(tmp_path: Path, base: Document) -> None:
    one = _write(
        tmp_path,
        "one.yaml",
        "overlay: one\nextends: toy\nreplace:\n  sections/entries/beta: {cost: 1}\n",
    )
    two = _write(
        tmp_path,
        "two.yaml",
        "overlay: two\nextends: toy\ntitle: t\npatch:\n  sections/entries/beta/nested: {deep: 0}\n",
    )
    with pytest.raises(RulesError) as exc:
        _compose(base, one, two)
    (d,) = _errors(exc)
    assert (d.code, d.file, d.line, d.column) == ("O008", two.path, 5, 3)
    assert f"{one.path}:4:3" in d.message
    assert f"{two.path}:5:3" in d.message


@pytest.mark.parametrize(
    ("first", "second", "conflict"),
    [
        ("remove: [sections/entries/beta]", "patch: {sections/entries/beta: {cost: 2}}", True),
        ("add: {sections/entries/g: 1}", "add: {sections/entries/g: 2}", True),
        ("add: {sections/entries/g: {a: 1}}", "add: {sections/entries/g/b: 2}", True),
        (
            "patch: {sections/entries/beta: {cost: 2}}",
            "patch: {sections/entries/beta: {cost: 3}}",
            True,
        ),
        (
            "patch: {sections/entries/beta: {cost: 2}}",
            "patch: {sections/entries/beta: {cost: 2}}",
            False,
        ),
        (
            "patch: {sections/entries/beta: {cost: 2}}",
            "patch: {sections/entries: {beta: {tags: []}}}",
            False,
        ),
        (
            "patch: {sections/entries/beta: {nested: 2}}",
            "patch: {sections/entries/beta/nested: {deep: 3}}",
            True,
        ),
        ("add: {sections/entries/g: {a: 1}}", "patch: {sections/entries/g: {a: 2}}", False),
        ("patch: {sections/entries/beta: {cost: 2}}", "add: {sections/entries/beta/new: 1}", False),
        ("add: {sections/entries/g: 1}", "add: {sections/entries/h: 1}", False),
    ],
)
def test_conflict_rules(
    tmp_path: Path, base: Document, first: str, second: str, conflict: bool
) -> None:
    one = _write(tmp_path, "one.yaml", f"overlay: one\nextends: toy\n{first}\n")
    two = _write(tmp_path, "two.yaml", f"overlay: two\nextends: toy\n{second}\n")
    if conflict:
        with pytest.raises(RulesError) as exc:
            _compose(base, one, two)
        assert [d.code for d in _errors(exc)] == ["O008"]
        assert one.path in str(exc.value) and two.path in str(exc.value)
    else:
        _compose(base, one, two)


def test_all_problems_reported_together(tmp_path: Path, base: Document) -> None:
    one = _write(
        tmp_path,
        "one.yaml",
        "overlay: one\nextends: toy\nremove: [sections/nope]\nadd: {sections/entries/alpha: 1}\n",
    )
    two = _write(tmp_path, "two.yaml", "overlay: two\nextends: other\n")
    with pytest.raises(RulesError) as exc:
        _compose(base, one, two)
    assert [(d.code, Path(d.file or "").name) for d in _errors(exc)] == [
        ("O007", "one.yaml"),
        ("O006", "one.yaml"),
        ("O004", "two.yaml"),
    ]
