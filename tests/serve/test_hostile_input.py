"""What a stranger's script sends a real `rulebook serve` on 127.0.0.1 is refused like any bad
request: JSON nested 100,000 deep (to every JSON endpoint and the websocket) is a 400 with the
security headers, told before it is parsed; a name of 900 KB is quoted back as a short prefix,
and finding what it might have meant costs nothing; no traceback reaches the log. A fault of the
server's own is a 500 with the security headers and one log line. Over HTTPS (a proxy's
X-Forwarded-Proto) the creator's cookie is Secure."""

from __future__ import annotations

import json
import logging
import signal
import warnings
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.responses import Response
from starlette.routing import Route

from helpers.raw_ws import connect, text_frame
from helpers.server import free_port, start_server
from interpreter.diagnostics import suggest
from interpreter.serve.app import create_app
from interpreter.table.answers import check_answer

with warnings.catch_warnings():  # starlette suggests httpx2; httpx is what it runs on today
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

DEEP = b"[" * 100_000
HUGE = "x" * 900_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server and a table at it (its first seat's token); once the module's tests are
    done, the server's log is checked for tracebacks."""
    port = free_port()
    process = start_server(tmp_path_factory.mktemp("hostile") / "tables.sqlite3", port)
    base = f"http://127.0.0.1:{port}"
    made = httpx.post(
        f"{base}/api/tables",
        json={"game": "puerto-rico", "players": 3, "seats": ["human"] * 3},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    info: dict[str, Any] = {
        "base": base,
        "port": port,
        "table": made.json()["id"],
        "token": made.json()["seats"][0]["token"],
    }
    yield info
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    # after every test of this module: nothing they sent left a traceback in the log
    log = process.stderr.read().decode()
    assert "Traceback" not in log and "RecursionError" not in log, log[-3000:]


def _refused(response: httpx.Response, status: int = 400) -> str:
    """The refusal's message, after checking it is a JSON refusal with the security headers."""
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    return response.json()["error"]


@pytest.mark.parametrize("path", ["/api/tables", "/api/replay", "answers", "move"])
def test_json_nested_100000_deep_is_a_400_with_the_headers(served, path):
    if not path.startswith("/"):
        path = f"/api/tables/{served['table']}/{path}"
    response = httpx.post(served["base"] + path, content=DEEP, timeout=30)
    assert "nested too deeply" in _refused(response)


def test_json_nested_too_deep_over_the_websocket_is_an_error_message(served):
    sock = connect(served["port"], f"/ws/tables/{served['table']}?token={served['token']}")
    sock.sendall(text_frame(b"[" * 60_000))
    sock.settimeout(10)
    seen = b""
    while b"nested too deeply" not in seen:
        chunk = sock.recv(1 << 16)
        assert chunk, "the server closed the socket instead of answering"
        seen += chunk
    sock.close()


def test_a_900_kb_name_is_quoted_back_as_a_short_prefix(served):
    url = f"{served['base']}/api/tables/{served['table']}/answers"
    body = {"token": served["token"], "question": HUGE, "answer": "take"}
    message = _refused(httpx.post(url, json=body, timeout=30))
    assert message.startswith("no optional question 'xxxx") and len(message) < 200
    assert "(900,000 characters)" in message
    for fields in ({"game": HUGE, "seats": ["human"]}, {"table": HUGE, "step": 0}):
        path = "/api/tables" if "game" in fields else "/api/replay"
        response = httpx.post(served["base"] + path, json=fields, timeout=30)
        assert len(response.text) < 5000, path


def test_difflib_never_sees_a_name_far_longer_than_every_candidate(monkeypatch):
    def refuse(*args: Any, **kwargs: Any) -> list[str]:
        raise AssertionError("difflib was asked about a 900 KB name")

    monkeypatch.setattr(suggest.difflib, "get_close_matches", refuse)
    assert suggest.did_you_mean(HUGE, ["governor", "trader", "captain"]) is None
    with pytest.raises(ValueError, match=r"^no optional question 'x{40}'… \(900,000 characters\)"):
        check_answer([], HUGE, "take")


def test_a_fault_of_the_server_is_a_500_with_the_headers_and_one_log_line(db, caplog):
    app = create_app(db)

    async def broken(request: Any) -> Response:
        raise RuntimeError("a bug token=abc")

    app.router.routes.insert(0, Route("/broken", broken))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as client, caplog.at_level(logging.INFO):
            response = client.get("/broken")
    assert response.status_code == 500
    assert response.headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert "internal server error" in json.loads(response.text)["error"]
    faults = [r for r in caplog.records if "internal error answering GET /broken" in r.message]
    assert len(faults) == 1 and "token=REDACTED" in faults[0].getMessage()
    assert all(r.exc_info is None for r in caplog.records if r.levelno >= logging.INFO)


def test_the_creator_cookie_is_secure_when_served_over_https(served):
    form = {"game": "san-juan", "players": "2", "seat0": "human", "seat1": "human"}
    for proto, secure in (("https", True), ("http", False)):
        made = httpx.post(
            f"{served['base']}/new",
            data=form,
            headers={"X-Forwarded-Proto": proto},
            timeout=30,
        )
        assert made.status_code == 201, made.text[:300]
        cookie = made.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert ("; secure" in cookie) is secure, cookie
