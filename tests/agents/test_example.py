"""The training example runs end to end and its policy learns to beat random bots."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_training_example_beats_random():
    out = subprocess.run(
        [sys.executable, "examples/agents/train_policy.py", "--episodes", "250", "--eval", "40"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    before = float(re.search(r"before training: ([\d.]+)", out).group(1))
    after = float(re.search(r"after 250 episodes: ([\d.]+)", out).group(1))
    assert after > max(0.6, before + 0.1), out
