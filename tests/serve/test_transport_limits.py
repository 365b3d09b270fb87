"""Limits kept where the bytes arrive, through a real `rulebook serve` on 127.0.0.1: a websocket
message over 64 KB is refused from its frame header (never read whole), a reader too slow to
take its messages is disconnected at once (TCP included) and counts against --max-sockets
until then, SIGTERM stops the server even with a client that reads nothing (the connection is reset
once it has had a second to close), and a text frame
that is not UTF-8 closes the socket with 1007 and no traceback in the log."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from helpers.raw_ws import close_code, connect, ended_within, frame_header, still_open, text_frame
from helpers.server import free_port, start_server

FRAME = 15 * 1024 * 1024  # what a client may announce; the server takes 64 KB


@contextlib.contextmanager
def server(tmp_path: Path, **limits: float) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    process = start_server(tmp_path / "tables.sqlite3", port, limits=limits or None)
    try:
        yield port, process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def stopped_log(process: subprocess.Popen[bytes], within: float = 15.0) -> str:
    """SIGTERM, then the server's whole log (the test fails if it does not stop ``within``)."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=within)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"SIGTERM did not stop the server in {within:g} s") from None
    return process.stderr.read().decode()


def big_table(port: int) -> str:
    """A five-seat table (a spectator's message is some 30 KB of board): its id."""
    response = httpx.post(
        f"http://127.0.0.1:{port}/api/tables",
        json={"game": "puerto-rico", "players": 5, "seats": ["human"] * 5},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def bot_table(port: int) -> str:
    """Five bots playing as fast as they can: a new position every few milliseconds, far more
    than a socket that reads nothing can hold (the kernel's buffers fill within a second)."""
    response = httpx.post(
        f"http://127.0.0.1:{port}/api/tables",
        json={"game": "puerto-rico", "players": 5, "seats": ["random"] * 5, "speed": 0},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_message_over_64_kb_is_refused_from_its_header(tmp_path):
    with server(tmp_path) as (port, process):
        table = big_table(port)
        # only the header of a 15 MB frame: the server closes with 1009 (too big) without
        # waiting for a payload that never comes
        sock = connect(port, f"/ws/tables/{table}")
        sock.sendall(frame_header(0x1, FRAME) + b"x" * 1000)
        assert close_code(sock) == 1009
        sock.close()
        # three clients that do send their 15 MB: the server's memory does not grow by them
        before = rss_kb(process.pid)
        for _ in range(3):
            sock = connect(port, f"/ws/tables/{table}")
            with contextlib.suppress(OSError):  # the server cuts the upload short
                sock.sendall(frame_header(0x1, FRAME) + b"x" * FRAME)
            sock.close()
        httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=10)  # it has read all of it
        assert rss_kb(process.pid) - before < FRAME // 1024
        assert "Traceback" not in stopped_log(process)


def test_a_reader_too_slow_is_disconnected_at_once_and_counted_until_then(tmp_path):
    limits = {"sockets_per_client": 3, "send_deadline_s": 0.3, "send_queue": 4}
    with server(tmp_path, **limits) as (port, process):
        path = f"/ws/tables/{bot_table(port)}"
        stuck = [connect(port, path, small_window=True) for _ in range(3)]
        with pytest.raises(ConnectionRefusedError):  # one address holds 3 at most
            connect(port, path)
        # each is dropped (its sends wait past the deadline) and its connection ended: asked
        # of the kernel, never by reading, which would let the stuck sends through
        assert all(ended_within(sock, 5.0) for sock in stuck)
        # the count went with them: three more come in, and a fourth is refused again
        again = [connect(port, path) for _ in range(3)]
        with pytest.raises(ConnectionRefusedError):
            connect(port, path)
        assert all(still_open(sock) for sock in again)
        for sock in stuck + again:
            sock.close()
        assert "Traceback" not in stopped_log(process)


def test_sigterm_stops_the_server_while_a_client_reads_nothing(tmp_path):
    with server(tmp_path, send_deadline_s=60.0, send_queue=1000) as (port, process):
        sock = connect(port, f"/ws/tables/{bot_table(port)}", small_window=True)
        time.sleep(1.0)  # the server has megabytes it cannot send (never dropped: 60 s)
        log = stopped_log(process)
        sock.close()
        assert "Traceback" not in log


def test_a_text_frame_that_is_not_utf8_closes_the_socket_without_a_traceback(tmp_path):
    with server(tmp_path) as (port, process):
        table = big_table(port)
        sock = connect(port, f"/ws/tables/{table}")
        sock.sendall(text_frame(b'{"type": "move", "option": "\xff\xfe"}'))
        assert close_code(sock) == 1007
        sock.close()
        log = stopped_log(process)
        assert "Traceback" not in log and "ERROR" not in log
        # one warning line, saying who
        said = "a websocket from 127.0.0.1 sent a text frame that is not UTF-8: closed (1007)"
        assert [line for line in log.splitlines() if "UTF-8" in line] == [said], log
