"""The San Juan house rules of examples/variants/ (sj-*.yaml) say only what they change: each
addresses the ruleset by names, copies no line of it, and is proved by a scenario of the same
name in examples/variants/scenarios/, which passes through the real engine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "examples" / "variants"
OPERATIONS = ("add", "replace", "patch", "remove")
EXAMPLES = sorted(VARIANTS.glob("sj-*.yaml"))


def test_the_house_rule_kinds_are_all_there():
    names = {p.stem for p in EXAMPLES}
    assert {
        "sj-start-cards-by-seat",
        "sj-start-building",
        "sj-builder-privilege",
        "sj-monument-points",
        "sj-one-of-each",
        "sj-short-city",
        "sj-hand-limit-8",
    } <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_names_its_paths_copies_nothing_and_has_a_proof(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    paths = [p for op in OPERATIONS for p in (data.get(op) or {})]
    assert paths, f"{path.name} changes nothing"
    for p in paths:
        assert not any(seg.isdigit() for seg in str(p).split("/")), f"{path.name}: {p} counts items"
    base = {
        line.strip()
        for line in (ROOT / "rulesets/san-juan/ruleset.yaml").read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    }
    body = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(body) if line.rstrip(":") in OPERATIONS)
    copied = [line.strip() for line in body[start + 1 :] if line.strip() in base]
    assert copied == [], f"{path.name} copies {copied}"
    assert (VARIANTS / "scenarios" / path.name).is_file(), f"no proof scenario for {path.name}"


def test_the_proof_scenarios_pass():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    files = [str(VARIANTS / "scenarios" / p.name) for p in EXAMPLES]
    done = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "test", *files],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "failed" not in done.stdout and "could not run" not in done.stdout
