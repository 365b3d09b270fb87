"""A worker's CPU budget stops a stranger's rules in the interpreter's own code or the code it
wrote from rule texts, never inside an import or a library. An exception raised inside the
import system can leave a module half made in ``sys.modules`` (every later request of that
worker would fail on it); a library may swallow it (ruamel.yaml's ``CommentedMap.get``
answers its default for any exception, so the stop would be lost and a key read as missing).
So the budget waits for such a call to return and stops the work right after it."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from ruamel.yaml.comments import CommentedMap

from helpers.server import ROOT
from interpreter.serve.cpu_budget import OverBudget, cpu_budget


def _rule_code(source: str, name: str) -> Callable[..., object]:
    """``name`` defined by ``source`` compiled as the interpreter compiles a rule's text."""
    namespace: dict[str, object] = {}
    exec(compile(source, "<rule: 'a test's spin'>", "exec"), namespace)  # noqa: S102
    function = namespace[name]
    assert callable(function)
    return function


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
    spin = _rule_code("def spin():\n    while True:\n        pass\n", "spin")
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(OverBudget), cpu_budget(0.02):
            importlib.import_module("slow_to_import")  # a module written above, for its cost
            spin()
    finally:
        sys.path.remove(str(tmp_path))
    assert sys.modules["slow_to_import"].COMPLETE
    del sys.modules["slow_to_import"]


def test_a_library_that_swallows_exceptions_never_sees_the_stop() -> None:
    """A rule's loop that spends most of its time in ruamel.yaml's ``get``: stopped in the
    rule's own code every time, never by a ``get`` answering None for a key that is there."""
    node = CommentedMap({"k": 1})
    reads = _rule_code(
        "def reads(node):\n"
        "    while True:\n"
        "        if node.get('k') is None:\n"
        "            return 'the stop was swallowed'\n",
        "reads",
    )
    for _ in range(8):
        with pytest.raises(OverBudget), cpu_budget(0.01):
            reads(node)


def test_a_stop_due_in_a_finalizer_comes_after_it() -> None:
    """Python prints an exception raised in a ``__del__`` as ignored and goes on: a stop due
    while one runs is raised once it has returned."""
    made = _rule_code(
        "import time\n"
        "class Slow:\n"
        "    def __del__(self):\n"
        "        start = time.process_time()\n"
        "        while time.process_time() - start < 0.1:\n"
        "            pass\n"
        "def drop_then_spin():\n"
        "    slow = Slow()\n"
        "    del slow\n"
        "    start = time.process_time()\n"
        "    while time.process_time() - start < 1.0:\n"
        "        pass\n"
        "    return 'the stop was lost'\n",
        "drop_then_spin",
    )
    with pytest.raises(OverBudget), cpu_budget(0.02):
        made()


_FIRST_COMPILE = """
import sys
from interpreter.serve.caps import Caps, compile_game
from interpreter.serve.cpu_budget import OverBudget, cpu_budget
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
        for budget in ("0.006", "0.011", "0.019", "0.05", "0.1")
    ]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err[-2000:]
        assert int(out) > 0
