"""`rulebook play ... | head`: the reader closing the pipe early is not an error."""

from __future__ import annotations

import subprocess
import sys


def test_play_into_a_closed_pipe_exits_0_quietly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter.cli.main", "play", "puerto-rico", "--players", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    # the reader goes away before anything is written (what `head` does once it has its
    # lines), so the first write the command makes meets a closed pipe
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0, err
    assert err == b""
