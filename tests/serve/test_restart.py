"""A real `rulebook serve` process killed with SIGKILL mid-game loses no acknowledged move: a
new process on the same database resumes every table at its last acknowledged decision."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
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


def test_a_killed_server_resumes_every_table_at_its_last_acknowledged_move(tmp_path):
    db, port = tmp_path / "tables.sqlite3", _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _start(db, port)
    try:
        table = httpx.post(
            f"{base}/api/tables",
            json={
                "game": "puerto-rico",
                "players": 3,
                "seats": ["human", "random", "human"],
                "seed": 5,
            },
        ).json()
        tokens = {s["seat"]: s["token"] for s in table["seats"] if "token" in s}
        rng = random.Random(8)
        acknowledged = None
        for _ in range(40):
            public = httpx.get(f"{base}/api/tables/{table['id']}/state").json()
            seat = public["to_move"]
            mine = httpx.get(
                f"{base}/api/tables/{table['id']}/state", params={"token": tokens[seat]}
            ).json()
            response = httpx.post(
                f"{base}/api/tables/{table['id']}/move",
                json={
                    "token": tokens[seat],
                    "decision": mine["decision"],
                    "option": rng.choice([o["id"] for o in mine["options"]]),
                },
            )
            assert response.status_code == 200
            acknowledged = response.json()
        save_before = httpx.get(f"{base}/api/tables/{table['id']}/save").json()
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = _start(db, port)
    try:
        after = httpx.get(
            f"{base}/api/tables/{table['id']}/state", params={"token": tokens[0]}
        ).json()
        assert after["decision"] == acknowledged["decision"]
        assert after["board"] == acknowledged["board"] and after["log"] == acknowledged["log"]
        assert httpx.get(f"{base}/api/tables/{table['id']}/save").json() == save_before
        # and play goes on
        seat = after["to_move"]
        mine = httpx.get(
            f"{base}/api/tables/{table['id']}/state", params={"token": tokens[seat]}
        ).json()
        response = httpx.post(
            f"{base}/api/tables/{table['id']}/move",
            json={
                "token": tokens[seat],
                "decision": mine["decision"],
                "option": mine["options"][0]["id"],
            },
        )
        assert response.status_code == 200 and response.json()["decision"] > after["decision"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
