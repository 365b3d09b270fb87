"""Two overlays may both append to one list (the expansions both add setup steps and options)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.compose.overlays import compose
from interpreter.diagnostics.errors import RulesError
from interpreter.load.schema import to_plain
from interpreter.load.yamlload import load_yaml_file


def _doc(tmp_path: Path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text)
    return load_yaml_file(p)


def test_two_appends_to_one_list_both_apply_in_order(tmp_path):
    base = _doc(tmp_path, "base.yaml", "ruleset: toy\nsteps: [one]\n")
    a = _doc(tmp_path, "a.yaml", "overlay: a\nextends: toy\nadd: {steps/-: two}\n")
    b = _doc(tmp_path, "b.yaml", "overlay: b\nextends: toy\nadd: {steps/-: three}\n")
    assert to_plain(compose(base, [a, b]).data)["steps"] == ["one", "two", "three"]
    assert to_plain(compose(base, [b, a]).data)["steps"] == ["one", "three", "two"]


def test_two_adds_of_one_named_entry_still_conflict(tmp_path):
    base = _doc(tmp_path, "base.yaml", "ruleset: toy\nentries: {}\n")
    a = _doc(tmp_path, "a.yaml", "overlay: a\nextends: toy\nadd: {entries/x: 1}\n")
    b = _doc(tmp_path, "b.yaml", "overlay: b\nextends: toy\nadd: {entries/x: 2}\n")
    with pytest.raises(RulesError):
        compose(base, [a, b])
