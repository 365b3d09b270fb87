"""``add`` with a list index inserts before the item at that index (0: at the front); ``-`` or
the list's length appends, and an index past the end is still O010. Every index of one overlay
counts the list as it was before that overlay, whatever else the overlay inserts or removes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from interpreter.compose.overlays import compose
from interpreter.diagnostics.errors import RulesError
from interpreter.load.locate import locate
from interpreter.load.schema import to_plain
from interpreter.load.yamlload import Document, load_yaml_file

ROOT = Path(__file__).resolve().parents[2]


def _docs_example() -> str:
    """The overlay docs/variants.md shows under "Inserting into a list"."""
    doc = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Inserting into a list") :]
    return section[section.index("```yaml\n") + 8 : section.index("```\n", 10)]


def test_a_step_inserted_at_the_front_of_the_round_runs_first(tmp_path: Path) -> None:
    house = tmp_path / "round-start.yaml"
    text = _docs_example()
    assert "first: true" in text  # placed by name: a numeric path is O011, an error
    house.write_text(text)
    valid = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", "--strict", str(house)],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), timeout=120,
    )  # fmt: skip
    assert valid.returncode == 0, valid.stdout + valid.stderr
    played = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "play", "puerto-rico", "--with", str(house),
         "--players", "3", "--seed", "1"],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), timeout=120,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    lines = played.stdout.splitlines()
    rounds = [i for i, line in enumerate(lines) if line.startswith("Round ")]
    assert len(rounds) > 5
    for i in rounds:  # every round: the new line first, then the base's first step
        assert lines[i + 1].strip() == "a new round begins", lines[i : i + 3]
        assert lines[i + 2].strip().startswith("governor: seat"), lines[i : i + 3]


# words each held twice: no word finds its item alone, so a position is the way to name one
# (a position where a name would do is O011, tests/overlays/test_value_paths.py)
BASE = """\
ruleset: toy
steps: [tick, tock, tick, tock]
nested:
  - name: a
    items: [x, x]
"""


def _doc(tmp_path: Path, name: str, text: str) -> Document:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return load_yaml_file(path)


def test_indexes_of_one_overlay_count_the_list_before_it(tmp_path: Path) -> None:
    base = _doc(tmp_path, "base.yaml", BASE)
    ov = _doc(
        tmp_path,
        "ov.yaml",
        """\
        overlay: ov
        extends: toy
        add:
          steps/0: zero          # before the first tick
          steps/2: before-the-second-tick
          steps/-: five
          nested/a/items/1: between
        replace:
          steps/3: FOUR
        remove: [steps/1]
        """,
    )
    result = compose(base, [ov])
    assert to_plain(result.data["steps"]) == [
        "zero", "tick", "before-the-second-tick", "tick", "FOUR", "five",
    ]  # fmt: skip
    assert to_plain(result.data["nested"][0]["items"]) == ["x", "between", "x"]
    # positions follow the items: the inserted ones point into the overlay, the moved ones
    # still into the base at the line they were written
    assert locate(result.data, ["steps", 0]) == (ov.path, 4, 12)
    assert locate(result.data, ["steps", 3])[0] == base.path
    assert locate(result.data, ["nested", 0, "items", 2])[0] == base.path
    assert base.data["steps"] == ["tick", "tock", "tick", "tock"]  # inputs untouched


def test_an_index_past_the_end_is_still_o010(tmp_path: Path) -> None:
    base = _doc(tmp_path, "base.yaml", BASE)
    ov = _doc(tmp_path, "ov.yaml", "overlay: ov\nextends: toy\nadd:\n  steps/5: six\n")
    with pytest.raises(RulesError) as exc:
        compose(base, [ov])
    (d,) = exc.value.diagnostics
    assert (d.code, d.line, d.column) == ("O010", 4, 3)
    assert "from 0 to 3" in (d.hint or "")
    ov = _doc(tmp_path, "ok.yaml", "overlay: ok\nextends: toy\nadd:\n  steps/4: five\n")
    assert to_plain(compose(base, [ov]).data["steps"])[-1] == "five"  # the length appends


def test_two_independent_inserts_at_one_place_conflict(tmp_path: Path) -> None:
    """Which would come first is not said by either: O008; extending one says it."""
    base = _doc(tmp_path, "base.yaml", BASE)
    a = _doc(tmp_path, "a.yaml", "overlay: a\nextends: toy\nadd:\n  steps/0: from-a\n")
    b = _doc(tmp_path, "b.yaml", "overlay: b\nextends: toy\nadd:\n  steps/0: from-b\n")
    with pytest.raises(RulesError) as exc:
        compose(base, [a, b])
    assert [d.code for d in exc.value.diagnostics] == ["O008"]
    b = _doc(tmp_path, "b2.yaml", "overlay: b\nextends: a\nadd:\n  steps/0: from-b\n")
    assert to_plain(compose(base, [a, b]).data["steps"])[:3] == ["from-b", "from-a", "tick"]
