"""docs/agents.md's space sizes are what ``python -m interpreter.agents`` prints."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from interpreter.agents.__main__ import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def test_the_documented_sizes_are_printed(capsys):
    lines = DOC.read_text().splitlines()
    runs = [
        (line[2:], lines[i + 1])
        for i, line in enumerate(lines)
        if line.startswith("$ python -m interpreter.agents ")
    ]
    assert len(runs) >= 4
    for command, expected in runs:
        assert main(shlex.split(command)[3:]) == 0
        assert capsys.readouterr().out.strip() == expected, command


def test_the_order_of_the_overlays_does_not_change_the_sizes(capsys):
    main(["puerto-rico", "-p", "3", "--with", "nobles,new-buildings"])
    main(["puerto-rico", "-p", "3", "--with", "new-buildings", "--with", "nobles"])
    a, b = capsys.readouterr().out.strip().splitlines()
    assert a == b and re.search(r"\d+ actions, \d+ features", a)
