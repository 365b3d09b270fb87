"""A built wheel carries every data file the engine reads (pyproject's data-files), so
`pip install .` works as well as an editable install."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_data_files_cover_every_grammar_schema_and_ruleset_file():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data_files = config["tool"]["setuptools"]["data-files"]
    packed = {
        (target, p.relative_to(ROOT).as_posix())
        for target, patterns in data_files.items()
        for pattern in patterns
        for p in ROOT.glob(pattern)
    }
    wanted = [
        p
        for folder in ("grammar", "schemas", "rulesets")
        for p in (ROOT / folder).rglob("*")
        if p.is_file()
        and p.suffix in (".lark", ".parser", ".json", ".yaml", ".py")
        and "__pycache__" not in p.parts
    ]
    assert wanted, "nothing found to pack"
    for p in wanted:
        rel = p.relative_to(ROOT).as_posix()
        target = "share/rulebook/" + p.parent.relative_to(ROOT).as_posix()
        assert (target, rel) in packed, f"{rel} is not in [tool.setuptools.data-files] {target!r}"
