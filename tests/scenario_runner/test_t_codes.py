"""The T codes of scenario files: each trigger docs/errors.md lists gives its code with a
position, and every T code the loader can raise is documented there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.diagnostics.errors import RulesError
from interpreter.scenario import load_scenarios

ROOT = Path(__file__).resolve().parents[2]
HEAD = "game: puerto-rico\nplayers: 4\n"


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("", 1, "the scenario file is empty"),
        ("# only a comment\n", 1, "the scenario file is empty"),
        ("players: 4\nscenarios:\n  - name: a\n", 3, "scenario 'a' names no game"),
        ("game: puerto-rico\nscenarios:\n  - name: a\n", 3, "names no player count"),
        (HEAD + "steps: [pass]\nscenarios:\n  - name: a\n", 3, "`steps:` belongs inside"),
        (HEAD + "expect: [over]\nscenarios:\n  - name: a\n", 3, "`expect:` belongs inside"),
        (HEAD + "name: x\nscenarios:\n  - name: a\n", 3, "`name:` belongs inside"),
        (HEAD + "scenarios:\n  - name: a\n  - name: a\n", 5, "a second scenario named 'a'"),
    ],
)
def test_each_trigger_gives_t001_with_its_line(tmp_path, text, line, needle):
    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_scenarios(f)
    (d,) = info.value.diagnostics
    assert (d.code, d.line, d.file) == ("T001", line, str(f))
    assert needle in d.message


def test_every_t_code_is_documented():
    source = "\n".join(p.read_text() for p in (ROOT / "interpreter" / "scenario").glob("*.py"))
    codes = set(re.findall(r"\bT\d{3}\b", source))
    assert codes, "the loader raises T codes"
    documented = set(
        re.findall(r"^\| (T\d{3}) \|", (ROOT / "docs" / "errors.md").read_text(), re.M)
    )
    assert codes <= documented


def test_a_broken_file_is_reported_with_its_position_once(tmp_path):
    from interpreter.scenario import collect, text_report

    f = tmp_path / "s.yaml"
    f.write_text(HEAD + "scenarios:\n  - name: a\n  - name: a\n", encoding="utf-8")
    scenarios, (broken,) = collect([f])
    assert scenarios == [] and broken.status == "error"
    text = text_report.details(broken)
    assert text.count(f"{f}:5:5") == 1
    assert f"{f}:5:5: error[T001]: a second scenario named 'a'" in text
