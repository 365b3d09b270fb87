"""`rulebook show GAME [--with ...] PATH`: the composed rule at a path and where each part of
it was written, through the real loader and the shipped overlays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RICH = str(ROOT / "examples" / "variants" / "pr-rich-start.yaml")


def _show(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["show", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_patched_table_shows_the_overlays_lines(capsys):
    code, out, _ = _show(capsys, "puerto-rico", "--with", RICH, "tables/start-doubloons")
    assert code == 0
    doc, *lines = out.splitlines()
    assert doc.startswith("# ") and "doubloons" in doc.lower()  # what the table is for, first
    assert lines[:5] == ["tables/start-doubloons:", "  2: 3", "  3: 4", "  4: 5", "  5: 6"]
    assert "changed by 1 overlay file(s):" in lines[5]
    assert (
        lines[6].startswith("#   tables/start-doubloons/3: ") and "pr-rich-start.yaml:" in lines[6]
    )


def test_the_base_alone_names_no_overlay(capsys):
    code, out, _ = _show(capsys, "puerto-rico", "tables/start-doubloons")
    assert code == 0
    # the base's own flow style is kept
    assert out.splitlines()[1] == "tables/start-doubloons: {2: 3, 3: 2, 4: 3, 5: 4}"
    assert "changed by" not in out


def test_json_gives_the_value_and_every_origin(capsys):
    code, out, _ = _show(capsys, "puerto-rico", "--with", "nobles", "tables", "--json")
    doc = json.loads(out.splitlines()[-1])
    assert code == 0 and doc["path"] == "tables"
    assert doc["value"]["start-doubloons"] == {"2": 3, "3": 2, "4": 3, "5": 4}
    files = {o["file"] for o in doc["origins"]}
    assert any(f.endswith("nobles.yaml") for f in files)
    assert any(f.endswith("ruleset.yaml") for f in files)


def test_a_path_that_does_not_exist_is_a_usage_error_with_a_guess(capsys):
    code, _, err = _show(capsys, "puerto-rico", "tables/start-dublons")
    assert code == 2
    assert "tables has no entry 'start-dublons' (did you mean 'start-doubloons'?)" in err
    assert "Traceback" not in err


def test_the_example_in_cli_md_is_what_the_command_prints(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = text.split("$ rulebook show ", 1)[1].split("```", 1)[0]
    command, *shown = block.rstrip("\n").split("\n")
    code, out, _ = _show(capsys, *command.split())
    assert code == 0 and out.rstrip("\n").split("\n") == shown
