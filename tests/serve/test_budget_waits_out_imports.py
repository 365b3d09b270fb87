"""A worker's CPU budget stops a stranger's rules, never an import: an exception raised inside
the import system can leave a module half made in ``sys.modules``, and every later request of
that worker would fail on it. The modules a request imports on first use are the
interpreter's own and import in bounded time, so the budget waits for the import to finish
and stops the work right after it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from helpers.server import ROOT
from interpreter.serve.player import OverBudget, cpu_budget


def test_the_budget_stops_the_work_after_an_import_it_fell_in(tmp_path: Path) -> None:
    (tmp_path / "slow_to_import.py").write_text(
        textwrap.dedent(
            """
            import time
            start = time.process_time()
            while time.process_time() - start < 0.2:  # CPU spent at import
                pass
            COMPLETE = True
            """
        )
    )
    sys.path.insert(0, str(tmp_path))
    stopped_at = None
    try:
        with cpu_budget(0.02):
            import slow_to_import  # noqa: F401 - imported for its cost

            stopped_at = "after the import"
            while True:  # the work that follows: stopped
                pass
    except OverBudget:
        pass
    finally:
        sys.path.remove(str(tmp_path))
    assert stopped_at == "after the import"
    assert sys.modules["slow_to_import"].COMPLETE
    del sys.modules["slow_to_import"]


_FIRST_COMPILE = """
import sys
from interpreter.serve.caps import Caps, compile_game
from interpreter.serve.player import OverBudget, cpu_budget
try:
    with cpu_budget(float(sys.argv[1])):
        compile_game("puerto-rico", 3, [], {}, Caps())
except OverBudget:
    pass
game, _ = compile_game("puerto-rico", 3, [], {}, Caps())
print(len(game.new_state(1).legal_options()))
"""


def test_a_worker_stopped_in_its_first_compile_compiles_the_next_one() -> None:
    """A fresh worker's first compile imports the compiler as it goes: stopped a few
    milliseconds in, the same process compiles the rules whole the next time."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", _FIRST_COMPILE, budget],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for budget in ("0.006", "0.011", "0.019")
    ]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err[-2000:]
        assert int(out) > 0
