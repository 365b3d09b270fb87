"""``extends:`` composes after the extended overlay: an overlay that extends another (directly
or through a chain) may change what that one set, and only overlays independent of each other
conflict (O008). docs/validate.md's O008 example runs here through the real command line, and
its hint ("make one overlay extend the other's result") is followed to a valid composition."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.compose.overlays import compose
from interpreter.compose.rulefiles import load_rules_data
from interpreter.diagnostics.errors import RulesError
from interpreter.load.yamlload import load_yaml_file

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "validate" / "fixtures"
PUERTO_RICO = ROOT / "rulesets" / "puerto-rico"


def _rulebook(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    """The real command line, in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **env},
        timeout=120,
    )


def _docs_example(code: str) -> tuple[str, str]:
    """The command and the output the ``#### CODE`` section of docs/validate.md shows."""
    doc = (ROOT / "docs" / "validate.md").read_text(encoding="utf-8")
    section = doc[doc.index(f"#### {code}:") :]
    section = section[: section.index("\n####", 1)]
    block = re.search(r"```console\n\$ (.*?)\n(.*?)\n```", section, re.S)
    assert block, f"no console example in the {code} section"
    return block.group(1), block.group(2)


def test_the_o008_example_of_validate_md_prints_what_the_doc_shows() -> None:
    command, shown = _docs_example("O008")
    words = command.split()
    assert words[:2] == ["rulebook", "validate"], command
    run = _rulebook(*words[1:], RULEBOOK_RULESETS="tests/validate/fixtures", RULEBOOK_JOBS="1")
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stdout.rstrip("\n") == shown
    # the two overlays of the example are independent: neither extends the other
    assert "error[O008]" in shown and "overlay-a.yaml" in shown and "overlay-c.yaml" in shown
    assert "give this one 'extends: overlay-a'" in shown


def test_following_the_o008_hint_gives_a_valid_composition(tmp_path: Path) -> None:
    """overlay-c, written to extend overlay-a as the hint says, replaces what overlay-a set."""
    text = (FIXTURES / "configs" / "base" / "overlay-c.yaml").read_text(encoding="utf-8")
    assert "extends: vbase" in text
    (tmp_path / "overlay-c.yaml").write_text(text.replace("extends: vbase", "extends: overlay-a"))
    config = tmp_path / "game.yaml"
    config.write_text("game: base\nplayers: 2\nwith: [overlay-a, overlay-c.yaml]\n")
    fixtures = str(FIXTURES)
    run = _rulebook(
        "validate", str(config), str(tmp_path / "overlay-c.yaml"), RULEBOOK_RULESETS=fixtures
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no problems found" in run.stdout.lower()
    data = load_rules_data(
        str(FIXTURES / "base" / "ruleset.yaml"),
        [str(FIXTURES / "base" / "overlay-a.yaml"), str(tmp_path / "overlay-c.yaml")],
    )[0]
    assert dict(data["tables"]["start-points"]) == {2: 5, 3: 5}  # overlay-c's, not overlay-a's


def test_the_variants_md_example_composes_once_it_extends_the_other(tmp_path: Path) -> None:
    """docs/variants.md: poor-start conflicts with pr-rich-start; with 'extends: pr-rich-start'
    (the hint) it plays, and 4 players start with its 1 doubloon."""
    rich = ROOT / "examples" / "variants" / "pr-rich-start.yaml"
    poor = tmp_path / "poor-start.yaml"
    poor.write_text(
        "overlay: poor-start\nextends: puerto-rico\npatch:\n  tables/start-doubloons: {4: 1}\n"
    )
    args = ["play", "puerto-rico", "-p", "4", "--with", f"{rich},{poor}", "--seed", "1", "-q"]
    refused = _rulebook(*args)
    assert refused.returncode == 1 and "error[O008]" in refused.stderr
    assert "give this one 'extends: pr-rich-start'" in refused.stderr
    poor.write_text(poor.read_text().replace("extends: puerto-rico", "extends: pr-rich-start"))
    played = _rulebook(*args)
    assert played.returncode == 0, played.stdout + played.stderr
    data = load_rules_data(str(PUERTO_RICO / "ruleset.yaml"), [str(rich), str(poor)])[0]
    assert data["tables"]["start-doubloons"][4] == 1


RICHER_NOBLES = """\
overlay: richer-nobles
extends: nobles
title: Richer nobles
replace:
  tables/nobles-total: 25          # set by nobles (an add)
patch:
  catalogs/buildings/entries/villa: {cost: 6}   # a building nobles adds
"""


def test_an_overlay_extending_nobles_changes_what_nobles_set(tmp_path: Path) -> None:
    house = tmp_path / "richer-nobles.yaml"
    house.write_text(RICHER_NOBLES)
    run = _rulebook("validate", str(house))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "O008" not in run.stdout
    data = load_rules_data(str(PUERTO_RICO / "ruleset.yaml"), ["nobles", str(house)])[0]
    assert data["tables"]["nobles-total"] == 25
    assert data["catalogs"]["buildings"]["entries"]["villa"]["cost"] == 6
    played = _rulebook(
        "play", "puerto-rico", "--with", "nobles", "--with", str(house),
        "--players", "3", "--seed", "1", "--quiet",
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr


def test_a_chain_of_extends_composes_in_order(tmp_path: Path) -> None:
    """C extends B extends nobles: C may change what nobles set, two links down."""
    middle = tmp_path / "middle.yaml"
    middle.write_text(
        "overlay: middle\nextends: nobles\npatch:\n  tables/vp-chips-start: {3: 70}\n"
    )
    top = tmp_path / "top.yaml"
    top.write_text("overlay: top\nextends: middle\nreplace:\n  tables/nobles-total: 12\n")
    run = _rulebook("validate", str(top))
    assert run.returncode == 0, run.stdout + run.stderr
    data = load_rules_data(str(PUERTO_RICO / "ruleset.yaml"), ["nobles", str(middle), str(top)])[0]
    assert data["tables"]["nobles-total"] == 12
    assert data["tables"]["vp-chips-start"][3] == 70


def test_independent_overlays_still_conflict(tmp_path: Path) -> None:
    """Two house rules of the base, neither extending the other, changing one entry: O008."""
    one = tmp_path / "one.yaml"
    one.write_text("overlay: one\nextends: nobles\nreplace:\n  tables/nobles-total: 25\n")
    two = tmp_path / "two.yaml"
    two.write_text("overlay: two\nextends: nobles\nreplace:\n  tables/nobles-total: 30\n")
    docs = [load_yaml_file(p) for p in (PUERTO_RICO / "nobles.yaml", one, two)]
    with pytest.raises(RulesError) as exc:
        compose(load_yaml_file(PUERTO_RICO / "ruleset.yaml"), docs)
    (d,) = exc.value.diagnostics
    assert (d.code, Path(d.file or "").name, d.line) == ("O008", "two.yaml", 4)
    assert "one.yaml:4:3" in d.message
    assert d.hint and "'extends: one'" in d.hint


def test_an_index_counted_before_an_independent_insert_conflicts(tmp_path: Path) -> None:
    """An overlay's list index counts the items its author saw: after an independent overlay
    inserted an item before it, the index would name another item, so it is O008; an overlay
    that extends the inserting one counts the items after the insert and is fine."""
    base = load_yaml_file(PUERTO_RICO / "ruleset.yaml")
    first = tmp_path / "first.yaml"
    # a list of words some of which it holds twice (no word finds its item alone: a
    # position is the way to name one)
    first.write_text(
        "overlay: first\nextends: puerto-rico\nadd:\n  tables/start-tiles/3/0: corn-plantation\n"
    )
    later = (
        "overlay: later\nextends: {ext}\nreplace:\n  tables/start-tiles/3/1: coffee-plantation\n"
    )
    independent = tmp_path / "independent.yaml"
    independent.write_text(later.format(ext="puerto-rico"))
    with pytest.raises(RulesError) as exc:
        compose(base, [load_yaml_file(first), load_yaml_file(independent)])
    (d,) = exc.value.diagnostics
    assert (d.code, Path(d.file or "").name) == ("O008", "independent.yaml")
    assert "inserted item 0" in d.message and "first.yaml:4:3" in d.message
    extending = tmp_path / "extending.yaml"
    extending.write_text(later.format(ext="first"))
    data = compose(base, [load_yaml_file(first), load_yaml_file(extending)]).data
    # item 1 after the insert is the base's first tile: the one replaced
    assert list(data["tables"]["start-tiles"][3]) == [
        "corn-plantation",
        "coffee-plantation",
        "indigo-plantation",
        "corn-plantation",
    ]
