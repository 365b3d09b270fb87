"""Running one command imports only its module: the name -> module table must match them all."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_module_is_named_by_its_command():
    assert list(main.COMMAND_BY_NAME.values()) == main.COMMAND_MODULES
    for name, module in main.COMMAND_BY_NAME.items():
        assert importlib.import_module(module).COMMAND.name == name


def test_one_command_parses_as_in_the_full_parser():
    words = ["validate", "rulesets", "--format", "json"]
    alone = vars(main.build_parser("validate").parse_args(words))
    full = vars(main.build_parser().parse_args(words))
    assert alone == full


def test_validate_does_not_import_the_simulator():
    code = (
        "import sys; from interpreter.cli.main import main; main(['validate', 'tests/toy']); "
        "print(sorted(m for m in sys.modules if m.startswith('interpreter.simulate')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"
