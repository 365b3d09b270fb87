"""Uploaded overlays are checked in a worker process with a memory and a time limit: a hostile
upload answers a clear 4xx, the server's own memory stays put, and the other requests are
answered while an upload is being checked.

The first tests drive the app in-process (Starlette's TestClient; the worker is a real
process all the same); the last ones a real ``rulebook serve`` (uvicorn, SQLite).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest

from helpers.bombs import alias_bomb
from helpers.server import free_port, start_server

GOOD = b"overlay: mine\nextends: puerto-rico\npatch:\n  tables/vp-chips-start: {3: 50}\n"


def _bomb(text: int = 20_000, uses: int = 2_000) -> bytes:
    return alias_bomb(text, uses).encode()


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob(".upload-*")) if folder.is_dir() else []


def _workers_of(parent: int) -> list[int]:
    """Check workers still running under ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"interpreter.serve.sandbox" in command:
            found.append(int(entry.name))
    return found


def test_the_alias_bomb_is_refused_at_its_alias(client):
    response = client.post("/api/overlays?name=bomb.yaml", content=_bomb())
    assert response.status_code == 422
    error = response.json()["error"]
    assert error.startswith("bomb.yaml does not validate:\nbomb.yaml:6:"), error
    assert "error[Y007]: aliases copy more than 1,000,000 characters" in error


def test_a_check_past_its_time_limit_is_killed_and_answered(client, db, monkeypatch):
    monkeypatch.setenv("RULEBOOK_UPLOAD_SECONDS", "0.05")  # less than a worker takes to start
    response = client.post("/api/overlays?name=mine.yaml", content=GOOD)
    assert response.status_code == 413
    error = response.json()["error"]
    assert error == (
        "mine.yaml is too costly to check: its check passed the time limit (0.05 s) and was stopped"
    )
    assert _workers_of(os.getpid()) == []
    overlays = db.parent / "overlays"
    assert _leftovers(overlays) == [] and list(overlays.glob("*.yaml")) == []
    monkeypatch.delenv("RULEBOOK_UPLOAD_SECONDS")
    assert client.post("/api/overlays?name=mine.yaml", content=GOOD).status_code == 201


def test_a_check_past_its_memory_limit_is_answered(client, db, monkeypatch):
    monkeypatch.setenv("RULEBOOK_UPLOAD_MEMORY_MB", "16")  # less than the validator's imports
    response = client.post("/api/overlays?name=mine.yaml", content=GOOD)
    assert response.status_code == 413
    assert response.json()["error"] == (
        "mine.yaml is too costly to check: its check passed the memory limit (16 MB)"
    )
    assert _leftovers(db.parent / "overlays") == []


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A real server; the environment set by the test before it asks is the server's."""
    started: list = []

    def start() -> tuple[str, Path, int]:
        db, port = tmp_path / "tables.sqlite3", free_port()
        started.append(start_server(db, port))
        return f"http://127.0.0.1:{port}", db, started[-1].pid

    yield start
    for server in started:
        server.send_signal(signal.SIGKILL)
        server.wait()


def _peak_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_the_bomb_of_the_issue_leaves_the_servers_memory_as_it_was(served):
    base, _db, pid = served()
    assert httpx.get(f"{base}/api/games").status_code == 200
    before = _peak_rss_kb(pid)
    # the reported upload: 200 kB of text aliased 9,000 times, 227 kB in all
    response = httpx.post(
        f"{base}/api/overlays?name=bomb.yaml", content=_bomb(200_000, 9_000), timeout=60
    )
    assert response.status_code == 422
    assert "bomb.yaml:6:45: error[Y007]" in response.json()["error"]
    assert httpx.get(f"{base}/api/games").status_code == 200
    # the server read 227 kB; its checking, copies and all, happened elsewhere
    assert _peak_rss_kb(pid) - before < 20 * 1024


def test_the_real_server_kills_a_check_past_its_time_limit(served, monkeypatch):
    monkeypatch.setenv("RULEBOOK_UPLOAD_SECONDS", "0.05")
    base, db, pid = served()
    response = httpx.post(f"{base}/api/overlays?name=mine.yaml", content=GOOD, timeout=60)
    assert response.status_code == 413
    assert "passed the time limit (0.05 s)" in response.json()["error"]
    assert _workers_of(pid) == [] and _leftovers(db.parent / "overlays") == []
    assert httpx.get(f"{base}/api/games").status_code == 200


def test_other_requests_are_answered_while_an_upload_is_checked(served):
    base, db, _pid = served()
    overlays = db.parent / "overlays"
    answers: dict[str, httpx.Response] = {}

    def upload() -> None:
        answers["upload"] = httpx.post(
            f"{base}/api/overlays?name=mine.yaml", content=GOOD, timeout=60
        )

    uploading = threading.Thread(target=upload)
    uploading.start()
    deadline = time.monotonic() + 30
    while not _leftovers(overlays) and uploading.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)  # until the server writes the file its worker checks
    assert _leftovers(overlays), "the upload's check never started"
    games = httpx.get(f"{base}/api/games", timeout=30)
    checking = uploading.is_alive()  # the check takes a worker's start, far over a listing
    uploading.join()
    assert games.status_code == 200
    assert checking, "GET /api/games waited for the upload's check to end"
    assert answers["upload"].status_code == 201
