"""`rulebook validate` as a user runs it (a process of its own), and a house rule the overlay
stack tests share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A Puerto Rico house rule, valid alone; The Nobles replaces the same function, so the two
# cannot be stacked.
WINDROSE = """\
overlay: windrose
extends: puerto-rico
title: Every colonist on the windrose counts
replace:
  functions/windrose-colonists:
    params: [p]
    expr: p.san-juan
"""


def validate_cli(
    *args: str | os.PathLike[str], jobs: int | None = None
) -> subprocess.CompletedProcess[str]:
    """``rulebook validate ARGS`` in a new process from the project root (``jobs``: its
    RULEBOOK_JOBS, where a test wants the stacks checked one at a time)."""
    env = dict(os.environ)
    if jobs is not None:
        env["RULEBOOK_JOBS"] = str(jobs)
    return subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "validate", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
