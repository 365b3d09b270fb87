"""The captain phase's extension points: a house rule changes the harbor's VP (the knob
`harbor-vp`) or the loading step's `pass` (the function `can-stop-loading`) in a few lines,
without copying the base's code, and stacks with both expansions (`validate --strict` judges
the stacks); tests/scenarios/puerto-rico/captain-house-rules.yaml plays each."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "tests" / "overlays" / "house-rules"


@pytest.mark.parametrize("name", ["pr-harbor-2vp.yaml", "pr-optional-loading.yaml"])
def test_each_house_rule_is_a_few_lines_and_stacks_with_the_expansions(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = HOUSE / name
    assert main(["validate", "--strict", str(path)]) == 0, capsys.readouterr().out
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line in ("replace:", "patch:"))
    changed = [
        line for line in lines[start + 1 :] if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(changed) <= 2, changed


def test_the_scenarios_play_each_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "tests" / "scenarios" / "puerto-rico" / "captain-house-rules.yaml"
    assert main(["test", str(path)]) == 0, capsys.readouterr().out


def test_loading_reads_like_the_rulebook(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "puerto-rico", "functions/can-load"]) == 0
    out = capsys.readouterr().out
    assert "s.cargo == k" in out and "not ship-holds(k) and takes-most(p, k, s)" in out
    # the harbor's card text cites its knob, so a house rule's value is what a reader sees
    assert (
        main(
            [
                "show",
                "--with",
                str(HOUSE / "pr-harbor-2vp.yaml"),
                "puerto-rico",
                "catalogs/buildings/entries/harbor",
            ]
        )
        == 0
    )
    assert "he may take 2 VP more" in capsys.readouterr().out
