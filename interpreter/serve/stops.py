"""Tables stopped before their end, kept in the table database: why each stopped (its rules
passed the server's CPU budget for one move, or its caps on a game's length), so a restart
shows the reason again and neither replays nor plays such a table on."""

from __future__ import annotations

import sqlite3

from interpreter.serve.store import TableStore

__all__ = ["clear_stop", "mark_stopped", "stop_reason", "stopped_ids"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS stopped (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    why TEXT NOT NULL          -- the message every seat was sent
)
"""


def _db(store: TableStore) -> sqlite3.Connection:
    db = store.db
    db.execute(SCHEMA)
    return db


def mark_stopped(store: TableStore, table_id: str, why: str) -> None:
    with _db(store) as db:
        db.execute("INSERT OR REPLACE INTO stopped (table_id, why) VALUES (?, ?)", (table_id, why))


def stop_reason(store: TableStore, table_id: str) -> str | None:
    row = _db(store).execute("SELECT why FROM stopped WHERE table_id = ?", (table_id,)).fetchone()
    return None if row is None else str(row[0])


def stopped_ids(store: TableStore) -> set[str]:
    return {table_id for (table_id,) in _db(store).execute("SELECT table_id FROM stopped")}


def clear_stop(store: TableStore, table_id: str) -> None:
    with _db(store) as db:
        db.execute("DELETE FROM stopped WHERE table_id = ?", (table_id,))
