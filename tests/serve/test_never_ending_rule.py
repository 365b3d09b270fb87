"""A house rule whose game never ends (``limits:`` of 1e9 rounds and 1e12 decisions, an end
condition that never holds) is held to the server's caps for uploaded rules: a bot-only table
at speed 0 stops at the cap, every socket at the table is told why, the database holds that
many moves and no more, and after a restart the table stays stopped (not replayed, not played
on). The replay of a live table at its end is its held position (no replay per request). A
real ``rulebook serve`` on 127.0.0.1."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx
from websockets.sync.client import connect

from helpers.server import free_port, start_server

FOREVER = b"""overlay: forever
extends: puerto-rico
title: A game that never ends
add:
  limits: {rounds: 1000000000, decisions: 1000000000000}
replace:
  flow/end-after-round-if: round < 0
"""
CAPS = ["--workers", "1", "--max-decisions", "40", "--max-rounds", "1000"]


def _moves(db: Path, table_id: str) -> tuple[int, int]:
    """The moves the database holds for a table, and their bytes (choice texts)."""
    with sqlite3.connect(db) as con:
        row = con.execute(
            "SELECT count(*), coalesce(sum(length(choice)), 0) FROM moves WHERE table_id = ?",
            (table_id,),
        ).fetchone()
    return int(row[0]), int(row[1])


def test_a_game_that_never_ends_stops_at_the_servers_cap(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    port = free_port()
    server = start_server(db, port, *CAPS)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as client:
            upload = client.post("/api/overlays?name=forever.yaml", content=FOREVER)
            assert upload.status_code == 201, upload.text
            made = client.post(
                "/api/tables",
                json={
                    "game": "puerto-rico",
                    "seats": ["random", "random", "random"],
                    "overlays": [upload.json()["overlay"]],
                    "speed": 0,
                },
            )
            assert made.status_code == 201, made.text
            table_id = made.json()["id"]
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as spectator:
                told = json.loads(spectator.recv(20))
                while told.get("error") is None:
                    told = json.loads(spectator.recv(20))
            error = told["error"]
            assert error.startswith("the table stopped at decision 40 (seat ")
            assert "this server's cap for uploaded rules (40 decisions, 1000 rounds)" in error
            assert "error[E003]" in error and "did not end within 40 decisions" in error
            state = client.get(f"/api/tables/{table_id}/state").json()
            assert (state["decision"], state["over"], state["error"]) == (40, False, error)
            # the replay at the end is the held position
            replay = client.post("/api/replay", json={"table": table_id, "step": "end"})
            assert replay.status_code == 200, replay.text
            assert (replay.json()["step"], replay.json()["steps"]) == (40, 40)
        moves, size = _moves(db, table_id)
        assert moves == 40 and size < 40 * 64  # the table's storage: bounded by the cap
    finally:
        server.terminate()
        server.wait(20)
    server = start_server(db, port, *CAPS)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as client:
            state = client.get(f"/api/tables/{table_id}/state").json()
            assert (state["decision"], state["error"]) == (40, error)
    finally:
        server.terminate()
        server.wait(20)
    assert _moves(db, table_id)[0] == 40
    assert b"Traceback" not in server.stderr.read()
