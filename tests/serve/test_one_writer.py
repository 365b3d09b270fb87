"""One writer per database: a second `rulebook serve` on the same file refuses to start with one
clear line, and a move is written only if its table still exists and it is the table's next
decision (checked in the same statement as the write), so a move whose body arrives after a
DELETE of its table is refused, never written."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time

import httpx
import pytest

from helpers.server import ROOT, free_port, start_server
from interpreter.serve.store import DatabaseInUse, TableStore
from interpreter.serve.tables import ServeError


def _moves_of(db, table_id: str) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[
            0
        ]


def _second_server(db, *, first_pid: int) -> None:
    """A second `rulebook serve` on ``db``, which must refuse to start while the first runs."""
    second = subprocess.run(
        [sys.executable, "-m", "interpreter.cli.main", "serve", "--db", str(db)]
        + ["--port", str(free_port())],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 1, second.stderr
    errors = [line for line in second.stderr.splitlines() if "error" in line]
    assert errors == [
        f"rulebook: error: the table database {db} is in use by another rulebook serve "
        f"(process {first_pid}); stop it first, or give this one its own database with "
        "--db FILE"
    ], second.stderr
    assert "Traceback" not in second.stderr


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path):
    db = tmp_path / "tables.sqlite3"
    first = start_server(db, free_port())
    try:
        _second_server(db, first_pid=first.pid)
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=30)
    # once the first has stopped, the database is free again
    again = start_server(db, free_port())
    again.send_signal(signal.SIGTERM)
    again.wait(timeout=30)


def test_the_same_database_by_a_symlink_or_a_hard_link_is_refused_too(tmp_path):
    """The lock is on the database file itself, not on the name it was reached by: a symlink
    or a hard link to a database a server holds is that database, and two writers on it would
    keep two diverging copies of every table (and two WAL files, under two names)."""
    db = tmp_path / "tables.sqlite3"
    first = start_server(db, free_port())
    try:
        symlink, hard_link = tmp_path / "a" / "by-symlink.sqlite3", tmp_path / "b" / "linked"
        symlink.parent.mkdir()
        hard_link.parent.mkdir()
        symlink.symlink_to(db)
        os.link(db, hard_link)
        for other in (symlink, hard_link):
            _second_server(other, first_pid=first.pid)
            with pytest.raises(DatabaseInUse, match="in use by another rulebook serve"):
                TableStore(other)
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=30)


def test_a_store_holds_its_database_until_closed(tmp_path):
    db = tmp_path / "tables.sqlite3"
    first = TableStore(db)
    symlink = tmp_path / "by-symlink.sqlite3"
    symlink.symlink_to(db)
    for other in (db, symlink):
        with pytest.raises(
            DatabaseInUse, match=f"in use by another rulebook serve .process {os.getpid()}"
        ):
            TableStore(other)
    first.close()
    TableStore(db).close()


def _read_response(sock: socket.socket) -> tuple[int, dict]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_move_whose_body_arrives_after_a_delete_is_not_written(tmp_path):
    db, port = tmp_path / "tables.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port)
    try:
        table = httpx.post(
            f"{base}/api/tables", json={"game": "san-juan", "players": 2, "seats": ["human"] * 2}
        ).json()
        tokens = [s["token"] for s in table["seats"]]
        public = httpx.get(f"{base}/api/tables/{table['id']}/state").json()
        seat = public["to_move"]
        mine = httpx.get(
            f"{base}/api/tables/{table['id']}/state", params={"token": tokens[seat]}
        ).json()
        body = json.dumps(
            {"token": tokens[seat], "option": mine["options"][0]["id"], "decision": 0}
        ).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(
                (
                    f"POST /api/tables/{table['id']}/move HTTP/1.1\r\nHost: x\r\n"
                    "Content-Type: application/json\r\nConnection: close\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n"
                ).encode()
                + body[:10]
            )
            time.sleep(0.5)  # the server has the request and waits for the rest of its body
            deleted = httpx.delete(
                f"{base}/api/tables/{table['id']}", headers={"X-Rulebook-Creator": table["creator"]}
            )
            assert deleted.status_code == 200, deleted.text
            sock.sendall(body[10:])
            status, answer = _read_response(sock)
        assert status == 404, answer
        assert "no table" in answer["error"] or "deleted" in answer["error"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert _moves_of(db, table["id"]) == 0


def _mover(hub, table):
    seat = table.state.to_move
    return table.tokens[seat], table.state.legal_options()[0]


def test_a_move_at_a_table_deleted_between_check_and_write_is_refused(hub):
    table = hub.create("san-juan", 2, ["human", "human"])
    token, option = _mover(hub, table)
    hub.store.delete(table.id)  # behind the hub's back, after its table was looked up
    with pytest.raises(ServeError) as refused:
        hub.move(table, token, option, 0)
    assert refused.value.status == 404
    assert refused.value.message == "this table was deleted; the move was not made"
    assert _moves_of(hub.store.path, table.id) == 0
    assert table.decision == 0  # the game did not move either
    with pytest.raises(ServeError, match="no table"):
        hub.get(table.id)


def test_a_move_for_a_decision_written_meanwhile_is_refused_and_the_table_reread(hub):
    table = hub.create("san-juan", 2, ["human", "human"])
    token, option = _mover(hub, table)
    hub.store.append_move(table.id, 0, option)  # another writer took decision 0 first
    with pytest.raises(ServeError) as refused:
        hub.move(table, token, option, 0)
    assert refused.value.status == 409
    assert "decision 0 was not the next one" in refused.value.message
    assert _moves_of(hub.store.path, table.id) == 1
    assert hub.get(table.id) is not table and hub.get(table.id).decision == 1
