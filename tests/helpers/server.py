"""A real `rulebook serve` process on a free port (the restart test and the browser tests)."""

from __future__ import annotations

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


def start_server(db: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """``rulebook serve`` on ``port`` (``extra``: more arguments, e.g. "--log-level", "info");
    its stderr is kept: read it once the process has ended. The tables' rules run in the
    server's own process (``--workers 0``: no worker process to start) unless ``extra`` names
    ``--workers``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if "--workers" not in extra:
        extra = ("--workers", "0", *extra)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "interpreter.cli.main",
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
