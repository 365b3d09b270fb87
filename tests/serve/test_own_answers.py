"""The answers uvicorn writes itself, without the application, carry the security headers too:
a request it cannot parse (400), a request whose head is past the limits (431), a websocket
handshake that is not a valid one (400), and a handshake the application refuses before
accepting it (403: past ``--max-sockets``). Each is asked of a real ``rulebook serve`` on
127.0.0.1 through a raw socket, and none of them writes a traceback to the server's log."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from helpers import raw_ws
from helpers.server import free_port, start_server

WANTED = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    port = free_port()
    db = tmp_path_factory.mktemp("own") / "tables.sqlite3"
    process = start_server(db, port, "--max-sockets", "1")
    made = httpx.post(
        f"http://127.0.0.1:{port}/api/tables",
        json={"game": "san-juan", "players": 2, "seats": ["human", "human"]},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    yield {"port": port, "table": made.json()["id"], "process": process}
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    log = process.stderr.read().decode()
    assert "Traceback" not in log, log


def _answer(port: int, raw: bytes) -> tuple[str, dict[str, str]]:
    """The status line and the headers of the server's answer to ``raw``."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                break
            head += chunk
    status, *lines = head.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


def _whole_answer(sock: socket.socket) -> bytes:
    """Everything the server sends on ``sock`` until it closes the connection."""
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    return answer


def _parsed(answer: bytes) -> tuple[str, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def _carries_the_headers(headers: dict[str, str]) -> None:
    for name, value in WANTED.items():
        assert headers.get(name) == value, (name, headers)
    assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), headers


def test_a_request_uvicorn_cannot_parse_is_a_400_with_the_headers(served):
    status, headers = _answer(served["port"], b"NOT HTTP AT ALL\r\n\r\n")
    assert status == "HTTP/1.1 400 Bad Request"
    _carries_the_headers(headers)


def test_a_handshake_that_is_not_valid_is_a_400_with_the_headers(served):
    raw = (
        f"GET /ws/tables/{served['table']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )  # no Sec-WebSocket-Key
    status, headers = _answer(served["port"], raw.encode())
    assert status == "HTTP/1.1 400 Bad Request"
    _carries_the_headers(headers)


def test_a_handshake_refused_before_it_is_accepted_is_a_403_with_the_headers(served):
    first = raw_ws.connect(served["port"], f"/ws/tables/{served['table']}")
    try:
        with pytest.raises(ConnectionRefusedError) as refused:
            raw_ws.connect(served["port"], f"/ws/tables/{served['table']}")
    finally:
        first.close()
    status, *lines = str(refused.value).split("\r\n")
    assert status == "HTTP/1.1 403 Forbidden"
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    _carries_the_headers(headers)


def _refused_head(port: int, raw: bytes) -> tuple[str, dict[str, str], bytes]:
    """The server's whole answer to a request head ``raw`` sent at once, to the connection's
    end (the server closes it: the test would wait for ever otherwise)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        return _parsed(_whole_answer(sock))


def _log_since(served: dict[str, Any]) -> str:
    """What the server has written to its log since last asked (a line is written whole
    before the answer it is about is sent)."""
    stderr = served["process"].stderr.fileno()
    os.set_blocking(stderr, False)
    try:
        return os.read(stderr, 1 << 20).decode()
    except BlockingIOError:
        return ""
    finally:
        os.set_blocking(stderr, True)


def test_a_request_head_of_200_kb_is_a_431_with_the_headers_and_the_connection_closed(served):
    _log_since(served)
    raw = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 200_000
    status, headers, body = _refused_head(served["port"], raw + b"\r\n\r\n")
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert headers["connection"] == "close"
    assert b"16 KB" in body, body
    _carries_the_headers(headers)
    # one warning line, saying who and why (no traceback: the module's server log, at its end)
    log = _log_since(served).splitlines()
    assert log == ["a request from 127.0.0.1 was refused (431): its head is over 16 KB"], log


def test_a_request_head_of_too_many_fields_is_a_431(served):
    fields = b"".join(b"X-%d: 1\r\n" % n for n in range(200))  # 1.6 KB in all
    raw = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields + b"\r\n"
    _log_since(served)
    status, headers, body = _refused_head(served["port"], raw)
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert b"100 fields" in body, body
    _carries_the_headers(headers)
    log = _log_since(served).splitlines()
    assert log == ["a request from 127.0.0.1 was refused (431): it has over 100 fields"], log


def test_a_head_that_never_ends_is_refused_once_past_the_limit(served):
    """The head is never finished: the server answers once it has read past the limit, and
    does not wait for the rest (nor keep reading it into memory)."""
    raw = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 20_000
    status, headers, _ = _refused_head(served["port"], raw)
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    _carries_the_headers(headers)


def test_a_head_within_the_limits_is_answered(served):
    cookie = b"Cookie: other_site=" + b"c" * 8_000 + b"\r\n"
    fields = b"".join(b"X-%d: 1\r\n" % n for n in range(80))
    raw = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    status, _, body = _refused_head(served["port"], raw + cookie + fields + b"\r\n")
    assert status == "HTTP/1.1 200 OK"
    assert b"puerto-rico" in body
