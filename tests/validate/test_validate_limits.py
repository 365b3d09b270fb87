"""Hostile input is refused quickly with a clear code, through the whole validate pipeline."""

from __future__ import annotations

import time
from pathlib import Path

from interpreter.check import validate
from interpreter.load.yamlload import MAX_BYTES, MAX_DEPTH


def _codes(path: Path) -> list[str]:
    # a guard against a hang or an exponential blow-up, in CPU time (wall time on a busy
    # machine says nothing); how fast validation is, is measured in benchmarks/
    start = time.process_time()
    report = validate([path])
    assert time.process_time() - start < 20.0, "refusing hostile input must not take this long"
    return [d.code for d in report.diagnostics]


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ["ruleset: bomb", 'a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 10):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    f = tmp_path / "bomb.yaml"
    f.write_text("\n".join(lines) + "\n")
    assert _codes(f) == ["Y007"]


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    depth = MAX_DEPTH + 50
    f = tmp_path / "deep.yaml"
    f.write_text("ruleset: deep\ntables:\n  t: " + "[" * depth + "]" * depth + "\n")
    assert _codes(f) == ["Y006"]


def test_very_deep_nesting_is_refused_without_recursion_error(tmp_path: Path) -> None:
    depth = 5000
    f = tmp_path / "deeper.yaml"
    f.write_text("ruleset: deep\nt: " + "[" * depth + "]" * depth + "\n")
    assert _codes(f) == ["Y006"]


def test_huge_file_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "huge.yaml"
    f.write_text("ruleset: huge\n" + "# padding\n" * (MAX_BYTES // 10 + 10))
    assert _codes(f) == ["Y005"]


def test_no_python_objects_are_built(tmp_path: Path) -> None:
    marker = tmp_path / "touched"
    f = tmp_path / "evil.yaml"
    f.write_text(f"ruleset: evil\ntitle: !!python/object/apply:os.system ['touch {marker}']\n")
    assert _codes(f) == ["Y004"]
    assert not marker.exists()


def test_unreadable_bytes_are_a_diagnostic(tmp_path: Path) -> None:
    f = tmp_path / "latin1.yaml"
    f.write_bytes(b"ruleset: x\ntitle: caf\xe9\n")
    assert _codes(f) == ["Y011"]
