"""Loading YAML: positions, refusals, and exact error locations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.load import yamlload
from interpreter.load.locate import node_file
from interpreter.load.yamlload import MAX_DEPTH, load_yaml_file, load_yaml_text

FIXTURES = Path(__file__).parent / "fixtures" / "invalid"


def _only(exc: pytest.ExceptionInfo[RulesError]) -> tuple[str, int | None, int | None]:
    diags = exc.value.diagnostics
    assert len(diags) == 1, str(exc.value)
    d = diags[0]
    return d.code, d.line, d.column


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.yaml")), ids=lambda p: p.stem)
def test_invalid_fixture_reports_stated_position(fixture: Path) -> None:
    first = fixture.read_text(encoding="utf-8").splitlines()[0]
    m = re.fullmatch(r"# expect: (\d+):(\d+) (\w+)", first)
    assert m, f"{fixture.name} must start with '# expect: LINE:COL CODE'"
    with pytest.raises(RulesError) as exc:
        load_yaml_file(fixture)
    d = exc.value.diagnostics[0]
    assert (d.line, d.column, d.code) == (int(m[1]), int(m[2]), m[3])
    assert d.file == str(fixture)
    assert str(exc.value).startswith(f"{fixture}:{m[1]}:{m[2]}: error[{m[3]}]")


def test_positions_and_file_tags(tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text("name: demo\nentries:\n  a: {cost: 3}\n  b:\n    - x\n    - y\n")
    doc = load_yaml_file(path)
    assert doc.path == str(path)
    assert doc.locate(["entries", "a", "cost"]) == (str(path), 3, 13)
    assert doc.locate(["entries", "b", 1]) == (str(path), 6, 7)
    assert node_file(doc.data["entries"]["b"]) == str(path)
    assert doc.text.startswith("name: demo")


def test_duplicate_key_names_first_occurrence() -> None:
    with pytest.raises(RulesError) as exc:
        load_yaml_text("a: 1\nb:\n  c: 2\n  c: 3\n", "dup.yaml")
    assert _only(exc) == ("Y003", 4, 3)
    assert exc.value.diagnostics[0].hint == "first defined at line 3, column 3"


def test_all_duplicate_keys_reported_at_once() -> None:
    with pytest.raises(RulesError) as exc:
        load_yaml_text("a: 1\na: 2\nb:\n  c: 1\n  c: 2\n")
    assert [(d.code, d.line, d.column) for d in exc.value.diagnostics] == [
        ("Y003", 2, 1),
        ("Y003", 5, 3),
    ]


def test_same_text_different_type_is_not_duplicate() -> None:
    doc = load_yaml_text("1: int\n'1': str\n")
    assert doc.data[1] == "int" and doc.data["1"] == "str"


def test_tab_indentation() -> None:
    with pytest.raises(RulesError) as exc:
        load_yaml_text("a:\n  b: 1\n\tc: 2\n", "tab.yaml")
    assert _only(exc) == ("Y002", 3, 1)


def test_syntax_error_has_context_hint() -> None:
    with pytest.raises(RulesError) as exc:
        load_yaml_text("a: b: c\n")
    assert _only(exc) == ("Y001", 1, 5)
    with pytest.raises(RulesError) as exc:
        load_yaml_text("x: [1, 2\ny: 3\n")
    assert _only(exc) == ("Y001", 2, 2)
    assert (
        exc.value.diagnostics[0].hint == "while parsing a flow sequence started at line 1, column 4"
    )


def test_alias_bomb_refused() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    names = "abcdefghi"
    for prev, cur in zip(names, names[1:], strict=False):
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    with pytest.raises(RulesError) as exc:
        load_yaml_text("\n".join(lines) + "\n", "bomb.yaml")
    code, _, _ = _only(exc)
    assert code == "Y007"
    assert "aliases expand" in exc.value.diagnostics[0].message


def test_too_many_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlload, "MAX_ALIASES", 5)
    text = "a: &x 1\nb: [" + ", ".join(["*x"] * 6) + "]\n"
    with pytest.raises(RulesError) as exc:
        load_yaml_text(text)
    assert _only(exc)[0] == "Y007"


def test_moderate_aliases_are_fine() -> None:
    doc = load_yaml_text("base: &b {cost: 1}\nx: *b\ny: [*b, *b]\nz:\n  <<: *b\n  size: 2\n")
    assert doc.data["y"][1]["cost"] == 1
    assert doc.data["z"]["cost"] == 1 and doc.data["z"]["size"] == 2


def test_depth_limit_flow_and_block() -> None:
    deep = "a: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n"
    with pytest.raises(RulesError) as exc:
        load_yaml_text(deep)
    # The root map is level 1, so the list opened at column 3 + 64 is level 65.
    assert _only(exc) == ("Y006", 1, 3 + MAX_DEPTH)
    block = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 3))
    with pytest.raises(RulesError) as exc:
        load_yaml_text(block)
    assert _only(exc)[0] == "Y006"
    ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    load_yaml_text(ok)


def test_python_tags_never_construct_objects() -> None:
    for text in (
        "a: !!python/object/apply:os.system ['true']\n",
        "a: !!python/name:os.system\n",
        "a: !!binary aGVsbG8=\n",
        "a: !!set {x, y}\n",
    ):
        with pytest.raises(RulesError) as exc:
            load_yaml_text(text)
        assert _only(exc) == ("Y004", 1, 4)


def test_core_tags_give_plain_values() -> None:
    doc = load_yaml_text("a: !!str 1\nb: !!int '3'\nc: !!float 2\nd: 2024-01-31\n")
    assert doc.data["a"] == "1" and type(doc.data["a"]) is str
    assert doc.data["b"] == 3
    assert doc.data["c"] == 2.0
    assert doc.data["d"] == "2024-01-31" and isinstance(doc.data["d"], str)


def test_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlload, "MAX_BYTES", 100)
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 200 + "\n")
    with pytest.raises(RulesError) as exc:
        load_yaml_file(big)
    assert _only(exc)[0] == "Y005"
    with pytest.raises(RulesError) as exc:
        load_yaml_text("a: " + "x" * 200)
    assert _only(exc)[0] == "Y005"


def test_missing_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as exc:
        load_yaml_file(tmp_path / "nope.yaml")
    assert _only(exc)[0] == "Y011"
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(RulesError) as exc:
        load_yaml_file(bad)
    assert _only(exc) == ("Y011", 2, 7)


def test_empty_document_is_none() -> None:
    assert load_yaml_text("").data is None
    assert load_yaml_text("# only a comment\n").data is None


def test_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeffa: 1\n".encode())
    assert load_yaml_file(path).data["a"] == 1


def test_a_text_with_a_colon_is_told_to_be_quoted(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: x\ndoc: Costs: 3 coins\n", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_yaml_file(path)
    d = err.value.diagnostics[0]
    assert (d.code, d.line, d.column) == ("Y001", 2, 11)
    assert d.hint == "a text that contains ': ' must be quoted: doc: \"...\""
