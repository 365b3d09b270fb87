"""`rulebook new` starts each file with an editor's schema line that works on every machine the
file goes to: a path relative to the file, to the nearest `schemas/` folder above it that holds
this project's schema, never an absolute path of the machine that wrote it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def _first_line(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0]


def _no_machine_path(path: Path, *folders: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for folder in folders:
        assert str(folder) not in text and folder.as_posix() not in text


def test_the_schema_line_is_relative_to_the_file_and_points_at_the_schema(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / "schemas").mkdir(parents=True)
    for kind in ("ruleset", "overlay", "scenario"):
        shutil.copy(ROOT / "schemas" / f"{kind}.schema.json", project / "schemas")
    monkeypatch.chdir(project)
    assert main(["new", "game", "games/harbour"]) == 0
    assert main(["new", "overlay", "house", "--game", "games/harbour"]) == 0
    written = {
        "ruleset": project / "games" / "harbour" / "ruleset.yaml",
        "overlay": project / "games" / "harbour" / "house.yaml",
        "scenario": project / "games" / "harbour" / "scenarios" / "basics.yaml",
    }
    wanted = {
        "ruleset": "../../schemas/ruleset.schema.json",
        "overlay": "../../schemas/overlay.schema.json",
        "scenario": "../../../schemas/scenario.schema.json",
    }
    for kind, path in written.items():
        m = SCHEMA_LINE.match(_first_line(path))
        assert m and m.group(1) == wanted[kind]
        target = (path.parent / m.group(1)).resolve()
        assert target == (project / "schemas" / f"{kind}.schema.json").resolve()
        assert json.loads(target.read_text("utf-8"))["$id"] == f"{kind}.schema.json"
        _no_machine_path(path, tmp_path, ROOT)


def test_without_a_schemas_folder_it_says_how_to_make_one(tmp_path, monkeypatch, capsys):
    # another tool's file of the same name is not taken for the schema
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "overlay.schema.json").write_text('{"$id": "other.json"}\n')
    monkeypatch.chdir(tmp_path)
    assert main(["new", "game", "x"]) == 0
    assert main(["new", "overlay", "house", "--game", "x"]) == 0
    for path in (tmp_path / "x" / "ruleset.yaml", tmp_path / "x" / "house.yaml"):
        text = path.read_text(encoding="utf-8")
        assert "$schema=/" not in text and not SCHEMA_LINE.match(_first_line(path))
        kind = "ruleset" if path.name == "ruleset.yaml" else "overlay"
        assert f"rulebook schema {kind} >\n# schemas/{kind}.schema.json" in text
        _no_machine_path(path, tmp_path, ROOT)
    # what it wrote is still a game and an overlay that validate clean
    capsys.readouterr()
    assert main(["validate", "--json", "x"]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert report["diagnostics"] == [] and len(report["files"]) == 3


def test_inside_this_repository_it_points_at_the_repository_schemas(tmp_path, monkeypatch):
    from interpreter.cli.new_cmd import schema_line

    line = schema_line("overlay", ROOT / "examples" / "variants" / "new-house-rule.yaml")
    assert line == "# yaml-language-server: $schema=../../schemas/overlay.schema.json"
    # relative to the file, whatever the current folder and however the file is named
    monkeypatch.chdir(ROOT / "examples")
    assert schema_line("overlay", Path("variants/x.yaml")) == line
    monkeypatch.chdir(tmp_path)
    assert schema_line("ruleset", ROOT / "rulesets" / "new-game" / "ruleset.yaml") == (
        "# yaml-language-server: $schema=../../schemas/ruleset.schema.json"
    )
