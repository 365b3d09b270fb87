"""What a table whose game never ends costs the database: N bot-only tables of an uploaded
house rule that never ends (``limits:`` of 1e9 rounds and 1e12 decisions, an end condition
that never holds) played at speed 0 on a real ``rulebook serve`` until each stops at the
server's caps for uploaded rules, then the database's growth per table.

    python benchmarks/bench_storage.py                     # 3 tables, the default caps
    python benchmarks/bench_storage.py --tables 10 --server-args --max-decisions 500

Starts the server (``--workers 1``, a fresh database in a temporary folder), uploads the
overlay, makes the tables, waits until each says why it stopped, stops the server (SIGTERM:
the database is closed and its write-ahead log folded in), and prints the decisions each table
holds, the bytes of its move rows, and the database file's growth per table (the file after
the run, less the file before the first table; SQLite's pages included). The caps bound it:
a table holds no move past ``--max-decisions``.
"""

from __future__ import annotations

import argparse
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_serve import ROOT, start_server  # noqa: E402 - the benchmarks' folder, above

FOREVER = b"""overlay: forever
extends: puerto-rico
title: A game that never ends
add:
  limits: {rounds: 1000000000, decisions: 1000000000000}
replace:
  flow/end-after-round-if: round < 0
"""


def _on_disk(db: Path) -> int:
    """The database's bytes: its file and the write-ahead log beside it, if any."""
    return sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def _stopped(client: httpx.Client, tables: list[str], timeout_s: float) -> dict[str, str]:
    """Each table's reason for stopping, once every one has stopped."""
    why: dict[str, str] = {}
    deadline = time.monotonic() + timeout_s
    while len(why) < len(tables):
        if time.monotonic() > deadline:
            raise SystemExit(f"{len(tables) - len(why)} table(s) did not stop in {timeout_s} s")
        for table_id in tables:
            if table_id not in why:
                error = client.get(f"/api/tables/{table_id}/state").json()["error"]
                if error is not None:
                    why[table_id] = error
        time.sleep(0.5)
    return why


def _stop(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM: the server closes the database, its write-ahead log folded into the file."""
    server.send_signal(signal.SIGTERM)
    server.wait(60)


def measure(tables: int, port: int, server_args: list[str], timeout_s: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tables.sqlite3"
        extra = ("--workers", "1", *server_args)
        server = start_server(ROOT, db, port, extra=extra)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                upload = client.post("/api/overlays?name=forever.yaml", content=FOREVER)
                if upload.status_code != 201:
                    raise SystemExit(f"the overlay was refused: {upload.text}")
        finally:
            _stop(server)
        before = _on_disk(db)  # the database with no table, closed
        server = start_server(ROOT, db, port, extra=extra)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                made = []
                for _ in range(tables):
                    answer = client.post(
                        "/api/tables",
                        json={
                            "game": "puerto-rico",
                            "seats": ["random"] * 3,
                            "overlays": [upload.json()["overlay"]],
                            "speed": 0,
                        },
                    )
                    if answer.status_code != 201:
                        raise SystemExit(f"a table was refused: {answer.text}")
                    made.append(answer.json()["id"])
                start = time.monotonic()
                why = _stopped(client, made, timeout_s)
                played_s = time.monotonic() - start
        finally:
            _stop(server)
        after = _on_disk(db)
        with sqlite3.connect(db) as con:
            rows = con.execute(
                "SELECT table_id, count(*), sum(length(choice)) FROM moves GROUP BY table_id"
            ).fetchall()
        print(f"{tables} never-ending tables stopped in {played_s:.1f} s; the first said:")
        print(f"  {next(iter(why.values()))[:160]}...")
        for table_id, moves, choice_bytes in rows:
            print(f"  table {table_id}: {moves} decisions, {choice_bytes:,} bytes of choices")
        growth = (after - before) / tables
        print(f"database (closed): {before:,} bytes before the tables, {after:,} after")
        print(f"growth per table: {growth:,.0f} bytes ({growth / 2**20:.2f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=3, help="tables (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds the tables have to stop"
    )
    parser.add_argument(
        "--server-args",
        nargs="*",
        default=[],
        metavar="ARG",
        help="more arguments for `rulebook serve` (e.g. --max-decisions 500)",
    )
    args = parser.parse_args()
    measure(args.tables, args.port, args.server_args, args.timeout)


if __name__ == "__main__":
    main()
