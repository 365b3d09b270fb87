"""`rulebook train` asks numpy's linear algebra for one thread unless the user set a count,
and sets it early enough: loading the command line does not import numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from interpreter.cli.train_cmd import MATH_THREADS, one_math_thread

ROOT = Path(__file__).resolve().parents[2]


def test_one_thread_unless_the_user_chose_a_count() -> None:
    environ = {"OPENBLAS_NUM_THREADS": "4"}
    one_math_thread(environ)
    assert environ == {name: "1" for name in MATH_THREADS} | {"OPENBLAS_NUM_THREADS": "4"}


def test_the_command_line_loads_without_numpy() -> None:
    code = "import sys, interpreter.cli.main; print('numpy' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
