"""The drivers read rule declarations from the typed `Ruleset` (interpreter/ruleset/), never
from the raw composed tree: no driver module calls the loaders that hand the tree out, except
the commands that show the tree itself (docs/architecture.md, "ruleset/")."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "interpreter"
DRIVERS = ("cli", "serve", "table", "scenario", "simulate", "agents", "learn", "bots")
# `rulebook show GAME PATH` prints the composed YAML at a path with its origins: the tree is
# what it shows
SHOWS_THE_TREE = {"cli/show_cmd.py"}
TREE_LOADERS = re.compile(r"\b(load_game_and_data|load_rules_data)\b|\.data\.get\(")


def test_no_driver_reads_the_raw_rule_tree() -> None:
    found = []
    for folder in DRIVERS:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            name = path.relative_to(PACKAGE).as_posix()
            if name in SHOWS_THE_TREE:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if TREE_LOADERS.search(line):
                    found.append(f"interpreter/{name}:{number}: {line.strip()}")
    assert not found, "read the game's typed rules (game.ruleset) instead:\n" + "\n".join(found)


# check/ modules that read the typed Ruleset: they report at a typed object's `pos`
# (diagnostic_on), never by walking the composed tree (`data.get(...)`, `ruleset.data`) or
# locating a path in it
TYPED_CHECKS = (
    "check/act_names.py",
    "check/drawing.py",
    "check/expressions.py",
    "check/gesture_names.py",
    "check/references.py",
)
RAW_READS = re.compile(
    r"\b(is_map|is_seq|locate|diagnostic_at|key_position|position_of|interpreter\.load)\b"
    r"|\bdata\s*:\s*Any\b|\b(data|ruleset|doc)\.(data\b|get\()"
)


def test_the_typed_checks_do_not_walk_the_raw_rule_tree() -> None:
    found = []
    for name in TYPED_CHECKS:
        text = (PACKAGE / name).read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if RAW_READS.search(line):
                found.append(f"interpreter/{name}:{number}: {line.strip()}")
    assert not found, "read the typed rules (interpreter/ruleset/) instead:\n" + "\n".join(found)
