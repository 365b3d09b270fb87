"""``rulebook validate --smoke N`` on an overlay file: the overlay is played over its base and in
every stack with its game's own overlays (Puerto Rico: alone, with nobles, with new-buildings,
with both), each player count, N games each; a stack that does not load is refused, said at the
overlay's line and at the line of the other file it clashes with."""

from __future__ import annotations

from pathlib import Path

from helpers.validate_runs import WINDROSE, validate_cli

ROOT = Path(__file__).resolve().parents[2]
PUERTO_RICO = ROOT / "rulesets" / "puerto-rico"

ROUND_START = """\
overlay: round-start
extends: puerto-rico
title: A line at the start of every round
add:
  flow/round/round-begins: {first: true, log: "a new round begins"}
"""


def test_a_house_rule_is_played_in_every_stack_with_the_expansions(tmp_path: Path) -> None:
    house = tmp_path / "round-start.yaml"
    house.write_text(ROUND_START)
    run = validate_cli(str(house), "--smoke", "1")
    assert run.returncode == 0, run.stdout + run.stderr
    # 4 stacks (alone, + new-buildings, + nobles, + both) x 4 player counts (2-5) x 1 game
    assert "smoke: 16 random game(s) played, 0 failed or did not end" in run.stdout, run.stdout
    assert "smoke: 4 overlay stack(s), 0 refused" in run.stdout


def test_a_stack_that_does_not_load_is_refused_at_both_files(tmp_path: Path) -> None:
    house = tmp_path / "windrose.yaml"
    house.write_text(WINDROSE)
    nobles = PUERTO_RICO / "nobles.yaml"
    theirs = next(
        i
        for i, line in enumerate(nobles.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("  functions/windrose-colonists:")
    )
    run = validate_cli(str(house), "--smoke", "1")
    assert run.returncode == 0, run.stdout + run.stderr  # the overlay itself is valid
    out = run.stdout
    assert "smoke: 8 random game(s) played" in out  # alone and with new-buildings
    assert "smoke: 4 overlay stack(s), 2 refused" in out
    for stack in (
        "puerto-rico + nobles + windrose",
        "puerto-rico + new-buildings + nobles + windrose",
    ):
        mine = f"{house}:5:3: warning[O008]: stack {stack} refused: conflicting overlays:"
        assert mine in out, out
        other = f"rulesets/puerto-rico/nobles.yaml:{theirs}:3: warning[O008]: stack {stack} "
        assert f"{other}refused: clashes with {house}:5:3" in out, out
    assert "give this one 'extends: nobles'" in out


def test_an_overlay_extending_an_expansion_is_stacked_after_it(tmp_path: Path) -> None:
    house = tmp_path / "windrose-nobles.yaml"
    from interpreter.simulate.smoke import smoke_overlays

    house.write_text(WINDROSE.replace("extends: puerto-rico", "extends: nobles"))
    report = smoke_overlays([str(house)], 1)
    assert report.refused == [] and report.diagnostics == []
    assert report.stacks == 2  # nobles + it, nobles + new-buildings + it
    assert report.played == 8


def test_an_overlay_of_a_base_being_smoked_is_left_to_the_base() -> None:
    """Given a game's folder, its overlays are played by the base's own smoke games."""
    from interpreter.simulate.smoke import smoke_overlays

    report = smoke_overlays(
        [str(PUERTO_RICO / "nobles.yaml")], 1, [str(PUERTO_RICO / "ruleset.yaml")]
    )
    assert report.stacks == 0 and report.played == 0
