"""locate(), did-you-mean, the error classes and the three reporters."""

from __future__ import annotations

import doctest
import json

import pytest

import interpreter.diagnostics.errors
import interpreter.diagnostics.report
import interpreter.diagnostics.suggest
import interpreter.load.locate
import interpreter.load.yamlload
from interpreter.diagnostics.errors import (
    ConfigError,
    Diagnostic,
    DiagnosticSink,
    IllegalOptionError,
    ReplayError,
    RulebookError,
    RulesError,
)
from interpreter.diagnostics.report import format_github, format_json, format_text
from interpreter.diagnostics.suggest import did_you_mean
from interpreter.load.locate import json_pointer, key_position, locate, position_of, split_path
from interpreter.load.yamlload import load_yaml_text

TEXT = "a:\n  b: 1\n  c:\n  list:\n    - x\n    - {k: v}\n3: three\n"


@pytest.mark.parametrize(
    "module",
    [
        interpreter.diagnostics.errors,
        interpreter.load.locate,
        interpreter.diagnostics.report,
        interpreter.diagnostics.suggest,
        interpreter.load.yamlload,
    ],
)
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_locate_walks_and_falls_back() -> None:
    data = load_yaml_text(TEXT, "t.yaml").data
    assert locate(data, ["a", "b"]) == ("t.yaml", 2, 6)
    assert locate(data, ["a", "list", 1, "k"]) == ("t.yaml", 6, 11)
    assert locate(data, ["a", "list", "1", "k"]) == ("t.yaml", 6, 11)
    assert locate(data, ["3"]) == ("t.yaml", 7, 4)
    # a missing key points at the key owning the map it is missing from
    assert locate(data, ["a", "missing"]) == ("t.yaml", 1, 1)
    assert locate(data, ["a", "list", 9]) == ("t.yaml", 4, 3)
    assert locate(data, ["nope", "deeper"]) == ("t.yaml", 1, 1)
    assert locate(data, ["a", "b"], key=True) == ("t.yaml", 2, 3)
    # an empty value is reported at its key, not at the next token
    assert position_of(data["a"], "c") == ("t.yaml", 3, 3)
    assert key_position(data["a"], "list") == ("t.yaml", 4, 3)


def test_locate_on_plain_data_is_unknown() -> None:
    assert locate({"a": {"b": 1}}, ["a", "b"]) == (None, None, None)


def test_pointers() -> None:
    assert json_pointer([]) == ""
    assert json_pointer(["a/b", "c~d", 0, 3]) == "/a~1b/c~0d/0/3"
    assert split_path("/a~1b/c~0d/0") == ["a/b", "c~d", "0"]
    assert split_path("x/y") == ["x", "y"]


def test_did_you_mean() -> None:
    assert did_you_mean("colour", ["color", "shape"]) == "color"
    assert did_you_mean("sec", ["section-heading", "size"]) == "section-heading"
    assert did_you_mean("COST", ["cost", "size"]) == "cost"
    assert did_you_mean("zzzz", ["cost", "size"]) is None
    assert did_you_mean("x", []) is None
    assert did_you_mean("cost", ["cost"]) is None  # never suggest the same word


def test_diagnostic_format_omits_missing_parts() -> None:
    assert Diagnostic("C001", "bad").format() == "error[C001]: bad"
    assert Diagnostic("Y005", "big", file="f.yaml").format() == "f.yaml: error[Y005]: big"
    d = Diagnostic("S001", "expected an integer, got 'x'", "f", 1, 2, "/a", expected="an integer")
    assert d.format() == "f:1:2: error[S001]: expected an integer, got 'x' (at /a)"
    w = Diagnostic("R001", "odd", "f", 3, None, severity="warning", expected="x", hint="h")
    assert w.format() == "f:3: warning[R001]: odd (expected x; h)"
    assert w.to_dict()["severity"] == "warning"


def test_sink_sorts_dedupes_and_raises() -> None:
    sink = DiagnosticSink()
    sink.error("Y001", "b", file="b.yaml", line=1)
    sink.error("Y001", "a2", file="a.yaml", line=2, column=1)
    sink.error("Y001", "a1", file="a.yaml", line=2)
    sink.error("Y001", "a1", file="a.yaml", line=2)
    sink.warning("W001", "w", file="a.yaml", line=1)
    assert [d.message for d in sink.sorted()] == ["w", "a1", "a2", "b"]
    with pytest.raises(RulesError) as exc:
        sink.raise_if_errors()
    assert str(exc.value).splitlines()[0] == "a.yaml:1: warning[W001]: w"
    only_warnings = DiagnosticSink([Diagnostic("W001", "w", severity="warning")])
    only_warnings.raise_if_errors()


def test_error_classes() -> None:
    for cls in (RulesError, IllegalOptionError, ReplayError, ConfigError):
        assert issubclass(cls, RulebookError)
    err = IllegalOptionError("pas", ["pass", "take:1"])
    assert "'pas'" in str(err) and "did you mean 'pass'?" in str(err) and "take:1" in str(err)
    many = IllegalOptionError("zz", [f"option-{i}" for i in range(40)])
    assert "(28 more)" in str(many) and "option-39" not in str(many)
    assert many.legal[-1] == "option-39"
    assert str(ConfigError("unknown game 'x'")) == "unknown game 'x'"
    assert ReplayError("corrupt").diagnostics == []
    rules = RulesError([Diagnostic("Y001", "one", "f", 1, 1), Diagnostic("Y001", "two", "f", 2, 1)])
    assert str(rules) == "f:1:1: error[Y001]: one\nf:2:1: error[Y001]: two"


DIAGS = [
    Diagnostic("S003", "unknown key 'x,y'", "r.yaml", 4, 3, "/a/x", hint="did you mean 'xy'?"),
    Diagnostic("W001", "odd:\nthing 100%", "r.yaml", 2, None, severity="warning"),
    Diagnostic("C001", "bad config"),
]


def test_format_text_with_source_excerpt() -> None:
    sources = {"r.yaml": "a:\n  b: 1\n  c: 2\n  x,y: 3\n"}
    out = format_text(DIAGS, sources=sources, summary=True)
    assert out.splitlines() == [
        "error[C001]: bad config",
        "r.yaml:2: warning[W001]: odd:",
        "thing 100%",
        "      b: 1",
        "r.yaml:4:3: error[S003]: unknown key 'x,y' (at /a/x; did you mean 'xy'?)",
        "      x,y: 3",
        "      ^",
        "2 errors, 1 warning",
    ]


def test_format_json() -> None:
    payload = json.loads(format_json(DIAGS, files_checked=3))
    assert payload["ok"] is False
    assert (payload["errors"], payload["warnings"], payload["files_checked"]) == (2, 1, 3)
    assert payload["diagnostics"][2]["line"] == 4
    assert set(payload["diagnostics"][0]) == {
        "code",
        "message",
        "file",
        "line",
        "column",
        "json_path",
        "expected",
        "hint",
        "severity",
    }
    assert json.loads(format_json([], files_checked=1))["ok"] is True


def test_format_github() -> None:
    assert format_github(DIAGS).splitlines() == [
        "::error title=C001::bad config",
        "::warning file=r.yaml,line=2,title=W001::odd:%0Athing 100%25",
        "::error file=r.yaml,line=4,col=3,title=S003::"
        "unknown key 'x,y' (at /a/x; did you mean 'xy'?)",
    ]


def test_a_very_long_source_line_is_shown_around_its_column():
    # a 27 KB line (an alias bomb's, a generated file's) must not be printed whole
    line = "x: [" + "a, " * 9000 + "BAD, " + "b, " * 100 + "]"
    col = line.index("BAD") + 1
    d = Diagnostic("Y007", "too big", file="big.yaml", line=1, column=col)
    out = format_text([d], sources={"big.yaml": line}).splitlines()
    shown, caret = out[1], out[2]
    assert len(shown) < 200 and shown.startswith("    ...") and shown.endswith("...")
    assert shown[caret.index("^") : caret.index("^") + 3] == "BAD"
    # a short line is shown as it is, the caret under its column
    short = format_text(
        [Diagnostic("Y001", "m", file="s.yaml", line=1, column=4)], sources={"s.yaml": "ab: cd"}
    )
    assert short.splitlines()[1:] == ["    ab: cd", "       ^"]
