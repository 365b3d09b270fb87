"""The running state is typed where rule code and the flow take it: no function of dsl/, of the
flow compiler or of the model's texts takes its state argument `s` as Any, but as the
``RunningState`` protocol (dsl/runtime/runtime_state.py) or one that extends it, so that mypy
checks the engine's ``State`` wherever one is handed to a compiled text; and the flow compiler
takes its host as a protocol, not Any."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "interpreter"
# where compiled texts and the functions the engine runs like them are written
STATE_TAKERS = [PACKAGE / "dsl", PACKAGE / "model", PACKAGE / "engine"]
HOST_TAKERS = [PACKAGE / "model" / "flow.py", PACKAGE / "model" / "end_triggers.py"]


def _files(paths: list[Path]) -> list[Path]:
    return sorted(f for p in paths for f in ([p] if p.is_file() else p.rglob("*.py")))


def _params_as_any(files: list[Path], name: str) -> list[str]:
    found = []
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            for arg in node.args.args + node.args.kwonlyargs:
                ann = arg.annotation
                if arg.arg == name and isinstance(ann, ast.Name) and ann.id == "Any":
                    where = file.relative_to(ROOT).as_posix()
                    found.append(f"{where}:{node.lineno} {getattr(node, 'name', 'lambda')}")
    return found


def test_no_function_takes_the_running_state_as_any():
    loose = _params_as_any(_files(STATE_TAKERS), "s")
    assert not loose, f"these take the state `s` as Any, not a RunningState: {loose}"


def test_the_flow_compiler_takes_its_host_as_a_protocol():
    loose = _params_as_any(_files(HOST_TAKERS), "dsl")
    assert not loose, f"these take the host `dsl` as Any, not StepHost/TriggerHost: {loose}"
