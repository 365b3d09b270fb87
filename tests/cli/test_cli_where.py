"""`rulebook where FILE:LINE` prints the overlay path of the rule at a line, and that path
addresses the very entry written there (an overlay using it changes that line's rule)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.compose.paths import find_item
from interpreter.load.locate import is_map, is_seq, key_position, split_path
from interpreter.load.yamlload import load_yaml_file

ROOT = Path(__file__).resolve().parents[2]
SJ = ROOT / "rulesets" / "san-juan" / "ruleset.yaml"


def _where(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["where", *argv])
    return code, capsys.readouterr().out


def _line_of(path: Path, text: str) -> int:
    (n,) = [i + 1 for i, line in enumerate(path.read_text().splitlines()) if text in line]
    return n


def test_the_path_of_an_options_log_line(capsys):
    line = _line_of(SJ, 'log: "seat {chooser} takes the {r}"')
    code, out = _where(capsys, f"{SJ}:{line}")
    assert code == 0
    shown = out.splitlines()
    # named steps are spelt by their names, the path by position follows
    assert shown[0] == "flow/round/choose-roles/repeat/steps/pick-role/choose/options/role/log"
    assert shown[1] == "  (by position: flow/round/2/repeat/steps/1/choose/options/0/log)"
    assert "  flow/round/choose-roles/repeat/steps/pick-role: a `choose` step (choose a role)" in (
        shown
    )
    assert (
        "  flow/round/choose-roles/repeat/steps/pick-role/choose/options/role: "
        "the option `role:{r}`" in shown
    )


def _entries(node, path, out):
    """(path, line) of every entry of the tree, each the only entry starting on its line."""
    if not (is_map(node) or is_seq(node)):
        return
    keys = list(node) if is_map(node) else list(range(len(node)))
    lines = [key_position(node, k)[1] for k in keys]
    for k, line in zip(keys, lines, strict=True):
        if line is not None and lines.count(line) == 1:
            out.append(([*path, k], line))
            _entries(node[k], [*path, k], out)


def test_every_entry_of_a_ruleset_maps_back_to_its_path(capsys):
    doc = load_yaml_file(SJ)
    entries: list = []
    _entries(doc.data, [], entries)
    deepest = {}
    for path, line in entries:
        deepest[line] = path  # a deeper entry on the same line (`- choose:`) wins
    assert len(deepest) > 400
    for line, path in deepest.items():
        code, out = _where(capsys, f"{SJ}:{line}", "--json")
        report = json.loads(out.splitlines()[-1])
        assert code == 0 and split_path(report["by_position"]) == [str(p) for p in path], line
        # and the named spelling finds the same entry
        node = doc.data
        for segment in split_path(report["path"]):
            found = find_item(node, segment)
            assert found.found, (line, report["path"])
            node = node[found.key]


def test_a_line_inside_a_text_gives_the_text(capsys):
    start = _line_of(SJ, "role-taken[r] = 1")
    code, out = _where(capsys, f"{SJ}:{start}")
    assert (
        out.splitlines()[0]
        == "flow/round/choose-roles/repeat/steps/pick-role/choose/options/role/do"
    )


def test_bad_locations_are_usage_errors(capsys):
    assert main(["where", "no-line-number"]) == 2
    assert main(["where", f"{SJ}:0"]) == 2
    assert main(["where", f"{SJ}:999999"]) == 2
    err = capsys.readouterr().err
    assert "expected FILE:LINE" in err and "lines, not 999999" in err and "Traceback" not in err
    assert main(["where", "missing-file.yaml:3"]) == 1


def test_the_example_in_cli_md_is_what_the_command_prints(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = text.split("$ rulebook where ", 1)[1].split("```", 1)[0]
    command, *shown = block.rstrip("\n").split("\n")
    code, out = _where(capsys, command)
    assert code == 0 and out.rstrip("\n").split("\n") == shown


def test_a_line_of_an_expansion_gives_the_composed_path(capsys):
    """In an overlay file the path is the one the entry has in the composed game (what another
    overlay writes), not the file's own `replace/phases~1settler~1...` pointer."""
    nb = ROOT / "rulesets" / "puerto-rico" / "new-buildings.yaml"
    line = _line_of(nb, "if: chooser.quarry-choice > 0 and quarry-stack > 0")
    code, out = _where(capsys, f"{nb}:{line}")
    shown = out.splitlines()
    assert code == 0
    assert shown[0] == (
        "phases/settler/refill-row/then/library-tile/then/take-library-tile/choose/options/"
        "tile:quarry/if"
    )
    assert shown[1].startswith("  (in this overlay file: replace/phases~1settler~1refill-row/")
    code, out = _where(capsys, f"{nb}:{line}", "--json")
    doc = json.loads(out)
    assert doc["path"] == shown[0] and doc["in_file"].startswith("replace/")
    # the path finds that very option in the game composed with the expansion
    from interpreter.compose.rulefiles import load_rules_data

    node, *_ = load_rules_data("puerto-rico", ["new-buildings"])
    for segment in split_path(doc["path"]):
        node = node[find_item(node, segment).key]
    assert node == "chooser.quarry-choice > 0 and quarry-stack > 0 and quarry-allowed(chooser)"
