"""Old save formats are read by one converter (interpreter/engine/save_upgrade.py), never by
settings the engine carries on every state: no other module names the per-format switches that
format 2 and format 3 saves were once replayed with."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONVERTER = "interpreter/engine/save_upgrade.py"
# the switches' names, spelled in parts so that this file does not name them itself
SWITCHES = re.compile(r"\bask_hidden_" + r"(forced|by_step)\b")


def test_no_module_but_the_converter_names_the_old_format_switches() -> None:
    found = []
    for folder in ("interpreter", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name == CONVERTER:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if SWITCHES.search(line):
                    found.append(f"{name}:{number}: {line.strip()}")
    assert not found, "old saves are converted (engine/save_upgrade.py):\n" + "\n".join(found)


def test_a_state_carries_no_old_format_switch() -> None:
    from interpreter import load_game

    state = load_game("san-juan", 2).new_state(1)
    assert not [name for name in dir(state) if SWITCHES.search(name)]
