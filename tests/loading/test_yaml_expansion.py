"""Aliases are bounded in the data they copy out, not only in nodes.

A long text anchored once and aliased thousands of times is a small file of few nodes, but its
plain data (what schema checks and composition walk) holds the text once per alias. The loader
weighs that data on the node graph, where an alias is one shared node, and refuses a file whose
data would weigh more than ``expansion_limit(len(text))``, at the alias that crosses the limit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.bombs import alias_bomb
from interpreter.check import validate
from interpreter.diagnostics.errors import RulesError
from interpreter.load.schema import to_plain
from interpreter.load.yamlload import (
    EXPANSION_FACTOR,
    EXPANSION_FLOOR,
    expansion_limit,
    load_yaml_text,
)

ROOT = Path(__file__).resolve().parents[2]
TEXT = 20_000  # characters of the anchored text
USES = 2_000  # its aliases: 40 MB of copies out of a 26 kB file


def _bomb(text: int = TEXT, uses: int = USES) -> str:
    return alias_bomb(text, uses)


def _refusal(text: str) -> tuple[str, int, int, str]:
    with pytest.raises(RulesError) as exc:
        load_yaml_text(text, "bomb.yaml")
    (d,) = exc.value.diagnostics
    assert d.file == "bomb.yaml" and d.line is not None and d.column is not None
    return d.code, d.line, d.column, d.message


def test_a_long_text_aliased_thousands_of_times_is_refused_at_the_alias_that_crosses() -> None:
    text = _bomb()
    code, line, column, message = _refusal(text)
    assert code == "Y007" and "aliases copy more than" in message
    assert (line, text.splitlines()[line - 1][column - 1 : column + 1]) == (6, "*s")
    # the n-th alias use is the first to carry the data past the limit
    nth = (column - len("  tables/zz: [") + 2) // 3
    limit = expansion_limit(len(text))
    assert limit == EXPANSION_FLOOR
    assert (nth - 1) * (TEXT + 1) <= limit < (nth + 1) * (TEXT + 1) + len(text)


def test_aliases_inside_an_aliased_value_are_counted_in_every_copy() -> None:
    # 12 uses of b, each holding 10 copies of a 10 kB text: 1.2 MB from 13 alias lines
    text = "\n".join(
        [
            "a: &a " + "y" * 10_000,
            "b: &b [" + ",".join(["*a"] * 10) + "]",
            "c: [" + ",".join(["*b"] * 12) + "]",
            "",
        ]
    )
    code, line, column, _message = _refusal(text)
    assert (code, line) == ("Y007", 3)
    assert text.splitlines()[2][column - 1 : column + 1] == "*b"
    # one use fewer stays within the floor, and its plain data is what was written
    ok = text.replace(",".join(["*b"] * 12), ",".join(["*b"] * 8))
    data = to_plain(load_yaml_text(ok, "ok.yaml").data)
    assert len(data["c"]) == 8 and data["c"][7][9] == "y" * 10_000


def test_the_limit_grows_with_the_file() -> None:
    # a 300 kB file may copy 1.8 MB out of aliases: past the floor, within 10 times its size
    written = "w: " + "z" * 200_000
    text = "\n".join([written, "a: &a " + "v" * 100_000, "b: [" + ",".join(["*a"] * 15) + "]"])
    assert EXPANSION_FLOOR < 15 * 100_000 + 300_000 < EXPANSION_FACTOR * len(text)
    data = to_plain(load_yaml_text(text, "big.yaml").data)
    assert len(data["b"]) == 15
    # the same aliases out of a small file are refused
    small = "\n".join(["a: &a " + "v" * 100_000, "b: [" + ",".join(["*a"] * 15) + "]"])
    assert _refusal(small)[0] == "Y007"


def test_the_shipped_bomb_of_the_issue_is_refused_by_validate(tmp_path: Path) -> None:
    # the reported upload: a 200 kB text aliased 9,000 times in a 236 kB overlay
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(200_000, 9_000), encoding="utf-8")
    (d,) = validate([path], jobs=1).diagnostics
    assert (d.code, d.line) == ("Y007", 6), d


_MEASURE = """
import json, sys, tracemalloc
from interpreter.check import validate
tracemalloc.start()
report = validate([sys.argv[1]], jobs=1)
_now, peak = tracemalloc.get_traced_memory()
print(json.dumps({
    "codes": [d.code for d in report.diagnostics],
    "peak": peak,
}))
"""


def test_refusing_the_bomb_costs_a_fraction_of_what_its_copies_would(tmp_path: Path) -> None:
    """Measured in a fresh process under a 2 GB address-space limit: the refusal is made
    before any copy, so the memory it traces is far below the 40 MB the copies would take
    (unbounded, validating this file traced some 120 MB at its peak)."""
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(), encoding="utf-8")
    done = subprocess.run(
        ["bash", "-c", 'ulimit -v 2000000 && exec "$0" -c "$1" "$2"', sys.executable, _MEASURE]
        + [str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["codes"] == ["Y007"]
    copies = TEXT * USES
    assert seen["peak"] < copies / 4, seen
