"""A real `rulebook serve` process on a free port (the restart test and the browser tests)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# `rulebook serve` with some of its Limits set to what no flag offers (a send deadline of a
# fraction of a second): the real command, its limits replaced as it reads them
_WITH_LIMITS = """
import dataclasses, json, sys
from interpreter.serve import quotas
wanted, read = json.loads(sys.argv[1]), quotas.limits_from
quotas.limits_from = lambda args: dataclasses.replace(read(args), **wanted)
from interpreter.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def start_server(
    db: Path, port: int, *extra: str, limits: dict[str, float] | None = None
) -> subprocess.Popen[bytes]:
    """``rulebook serve`` on ``port`` (``extra``: more arguments, e.g. "--log-level", "info";
    ``limits``: fields of ``Limits`` to set); its stderr is kept: read it once the process has
    ended. The tables' rules run in the server's own process (``--workers 0``: no worker
    process to start) unless ``extra`` names ``--workers``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if "--workers" not in extra:
        extra = ("--workers", "0", *extra)
    start = ["-m", "interpreter.cli.main"]
    if limits:
        start = ["-c", _WITH_LIMITS, json.dumps(limits)]
    process = subprocess.Popen(
        [
            sys.executable,
            *start,
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            *extra,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
        if process.poll() is not None:
            raise AssertionError(f"the server stopped: {process.stderr.read().decode()}")
    process.kill()
    raise AssertionError("the server did not answer within 60 s")
