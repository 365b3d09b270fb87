"""Tokens like a careful site, through a real ``rulebook serve --log-level info``: a token of the
wrong type is a 400 that says what a token is (never a 500), nothing of it is logged as a
traceback, and no seat or creator token reaches the log, HTTP or websocket."""

from __future__ import annotations

import json
import signal
from typing import Any

import httpx
from websockets.sync.client import connect

from helpers.server import free_port, start_server

BAD_TOKENS: list[Any] = [5, 0.5, True, ["x"], {"a": 1}, "é", "x" * 500]


def test_bad_tokens_are_400s_and_no_token_nor_traceback_reaches_the_log(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(tmp_path / "tables.sqlite3", port, "--log-level", "info")
    try:
        table = httpx.post(
            f"{base}/api/tables",
            json={"game": "san-juan", "players": 2, "seats": ["human", "human"]},
            timeout=30,
        ).json()
        tid, creator = table["id"], table["creator"]
        secrets = [creator, *(s["token"] for s in table["seats"])]
        token = table["seats"][0]["token"]
        # a seat's ordinary traffic, every token in an address
        assert httpx.get(f"{base}/t/{tid}", params={"token": token}).status_code == 200
        mine = httpx.get(f"{base}/api/tables/{tid}/state", params={"token": token}).json()
        assert httpx.get(f"{base}/api/tables/{tid}/save", params={"token": token}).is_success
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}?token={token}") as ws:
            assert json.loads(ws.recv(timeout=30))["seat"] == 0
        links = httpx.get(f"{base}/api/tables/{tid}/links", params={"creator": creator})
        assert links.status_code == 403  # the creator token goes in a header, not an address

        # tokens of every wrong type, in each place a token is read
        for bad in BAD_TOKENS:
            move = {"token": bad, "option": mine["options"][0]["id"], "decision": 0}
            response = httpx.post(f"{base}/api/tables/{tid}/move", json=move)
            assert response.status_code == 400, (bad, response.text)
            assert "'token' must be a seat token (a string)" in response.json()["error"]
            response = httpx.request("DELETE", f"{base}/api/tables/{tid}", json={"creator": bad})
            assert response.status_code == 400, (bad, response.text)
            assert "'creator' must be a creator token (a string)" in response.json()["error"]
        for bad in ("é", "x" * 500):
            for path in ("state", "save"):
                response = httpx.get(f"{base}/api/tables/{tid}/{path}", params={"token": bad})
                assert response.status_code == 400, response.text
            assert httpx.get(f"{base}/t/{tid}", params={"token": bad}).status_code == 400
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}?token=%C3%A9") as ws:
                refusal = json.loads(ws.recv(timeout=30))
                assert "must be a seat token (a string)" in refusal["error"]
        response = httpx.get(
            f"{base}/api/tables/{tid}/links",
            headers={"X-Rulebook-Creator": "\u00e9".encode("latin-1")},
        )
        assert response.status_code == 400
        assert httpx.get(f"{base}/api/tables/{tid}/state").status_code == 200  # all still well
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    log = server.stderr.read().decode()
    assert f"/t/{tid}?token=REDACTED" in log  # the access log is on, and redacted
    assert "WebSocket /ws/tables/" in log and "?token=REDACTED" in log
    assert f"/api/tables/{tid}/links?creator=REDACTED" in log  # a creator token in an address
    for secret in secrets:
        assert secret not in log
    assert "Traceback" not in log and "Exception in ASGI application" not in log
