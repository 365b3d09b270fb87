"""Tables on disk: an embedded SQLite database holding each table's save header, seats and
action log, so every table (live or finished) survives a restart or a crash.

A move is committed (``synchronous=FULL``: on disk, not just in a buffer) before the server
acknowledges it, so a server killed at any moment loses no acknowledged move. The database
holds exactly what a save file holds (``interpreter/engine/savefile.py``) plus the seat tokens;
a table is rebuilt by replaying its choices.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.engine.savefile import FORMAT_ASKED, SaveGame

__all__ = ["StoredTable", "TableStore", "default_db_path"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    header TEXT NOT NULL,      -- the save file without choices and result (JSON)
    speed REAL NOT NULL,       -- bot moves per second for watched bot-only tables (0: at once)
    result TEXT,               -- the final result (JSON) once the game is over
    creator TEXT               -- the creator's token: deletes the table, sees its seat links
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,        -- 0-based decision number
    choice TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/rulebook/tables.sqlite3`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulebook" / "tables.sqlite3"


@dataclass
class StoredTable:
    """One table as the database holds it."""

    id: str
    created: float
    save: SaveGame
    tokens: list[str]
    speed: float
    creator: str = ""  # "" for a table made before creators had tokens: nobody manages it


class TableStore:
    """The SQLite database of tables (one connection; the server runs on one event loop)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a commit is on disk before we acknowledge
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "creator" not in columns:  # a database of an earlier version: tables keep playing
            self.db.execute("ALTER TABLE tables ADD COLUMN creator TEXT")

    def close(self) -> None:
        self.db.close()

    def create(
        self, table_id: str, save: SaveGame, tokens: list[str], speed: float, creator: str = ""
    ) -> StoredTable:
        header = save.to_json()
        header.pop("choices")
        header.pop("result")
        created = time.time()
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO tables (id, created, header, speed, creator) VALUES (?, ?, ?, ?, ?)",
                (table_id, created, json.dumps(header), speed, creator),
            )
            self.db.executemany(
                "INSERT INTO seats (table_id, seat, token) VALUES (?, ?, ?)",
                [(table_id, seat, token) for seat, token in enumerate(tokens)],
            )
        return StoredTable(table_id, created, save, list(tokens), speed, creator)

    def append_move(self, table_id: str, n: int, choice: str) -> None:
        """Record decision ``n``; returns once it is committed to disk."""
        with self.db:
            self.db.execute(
                "INSERT INTO moves (table_id, n, choice) VALUES (?, ?, ?)", (table_id, n, choice)
            )

    def finish(self, table_id: str, result: dict[str, Any]) -> None:
        with self.db:
            self.db.execute(
                "UPDATE tables SET result = ? WHERE id = ?", (json.dumps(result), table_id)
            )

    def set_speed(self, table_id: str, speed: float) -> None:
        with self.db:
            self.db.execute("UPDATE tables SET speed = ? WHERE id = ?", (speed, table_id))

    def load(self, table_id: str) -> StoredTable | None:
        row = self.db.execute(
            "SELECT created, header, speed, result, creator FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            return None
        created, header, speed, result, creator = row
        data = json.loads(header)
        tokens = [
            token
            for (token,) in self.db.execute(
                "SELECT token FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
            )
        ]
        choices = [
            choice
            for (choice,) in self.db.execute(
                "SELECT choice FROM moves WHERE table_id = ? ORDER BY n", (table_id,)
            )
        ]
        save = SaveGame(
            game=data["game"],
            players=data["players"],
            overlays=list(data["overlays"]),
            options=dict(data["options"]),
            seed=data["seed"],
            seats=list(data["seats"]),
            choices=choices,
            result=json.loads(result) if result else None,
            # a table started before format 2 goes on asking every decision, as it was played
            take_forced=data.get("format") != FORMAT_ASKED,
        )
        return StoredTable(table_id, created, save, tokens, speed, creator or "")

    def delete(self, table_id: str) -> None:
        """Remove a table, its seats and its log (one transaction: all or nothing)."""
        with self.db:
            self.db.execute("BEGIN")
            for name in ("moves", "seats"):
                self.db.execute(f"DELETE FROM {name} WHERE table_id = ?", (table_id,))
            self.db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest tables, for the lobby: id, game, players, seats, finished, decisions."""
        rows = self.db.execute(
            "SELECT t.id, t.created, t.header, t.result IS NOT NULL, "
            "(SELECT COUNT(*) FROM moves m WHERE m.table_id = t.id) "
            "FROM tables t ORDER BY t.created DESC LIMIT ?",
            (limit,),
        ).fetchall()
        out = []
        for table_id, created, header, finished, decisions in rows:
            data = json.loads(header)
            out.append(
                {
                    "id": table_id,
                    "created": created,
                    "game": data["game"],
                    "overlays": data["overlays"],
                    "seats": data["seats"],
                    "finished": bool(finished),
                    "decisions": decisions,
                }
            )
        return out

    def unfinished_ids(self) -> list[str]:
        return [i for (i,) in self.db.execute("SELECT id FROM tables WHERE result IS NULL")]
