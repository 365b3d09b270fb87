"""Tables on disk: an embedded SQLite database holding each table's save header, seats and
action log, so every table (live or finished) survives a restart or a crash.

A move is committed (``synchronous=FULL``: on disk, not just in a buffer) before the server
acknowledges it, so a server killed at any moment loses no acknowledged move. The server hands
its moves to a writer thread (``writer.py``) that commits the moves of many tables in one
transaction, off the event loop. The database
holds exactly what a save file holds (``interpreter/engine/savefile.py``) plus the seat tokens;
a table is rebuilt by replaying its choices.

One server writes one database: :class:`TableStore` holds an exclusive lock on the database
file itself (not on its name) for as long as it is open, so a second server on the same file,
by whatever path (a symlink, a hard link), refuses to start instead of serving stale copies of
the first one's tables. Every move is written only if its
table still exists and it is the next decision of that table, checked in the same statement.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.diagnostics.errors import RulebookError
from interpreter.engine.savefile import FORMAT, SaveGame, format_read
from interpreter.serve.writer import INSERT_MOVE, GroupWriter, MoveRefused, refusal

try:
    import fcntl
except ImportError:  # not a POSIX system: no lock (one server per database is then up to you)
    fcntl = None  # type: ignore[assignment]

__all__ = ["DatabaseInUse", "MoveRefused", "StoredTable", "TableStore", "default_db_path"]

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
CREATE TABLE IF NOT EXISTS answers (  -- a seat's answers set in advance (table/answers.py)
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    question TEXT NOT NULL,    -- the question's key
    answer TEXT NOT NULL,      -- take or decline (ask: no row)
    PRIMARY KEY (table_id, seat, question)
);
CREATE TABLE IF NOT EXISTS names (  -- the name a person gave their seat (table/seat_names.py)
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/rulebook/tables.sqlite3`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulebook" / "tables.sqlite3"


class DatabaseInUse(RulebookError):
    """Another server (another process, or another store in this one) has the database open."""


# the (device, inode) of each database file a store of this process holds (see _lock)
_HELD: set[tuple[int, int]] = set()


def _lock_file(path: Path) -> Path:
    """The file whose lock stands for the database's. On Linux the database file itself: its
    ``flock`` is apart from the POSIX byte-range locks SQLite takes on it, and belongs to the
    file, not to the name it was opened by (a symlink or a hard link is the same file). Where
    the kernel mixes the two kinds (the BSDs, macOS), a lock file beside the database's real
    path (symlinks resolved; not hard links)."""
    if sys.platform.startswith("linux"):
        return path
    real = path.resolve()
    return real.with_name(real.name + ".lock")


def _lock(path: Path) -> tuple[int, tuple[int, int]] | None:
    """Hold an exclusive ``flock`` on :func:`_lock_file` (released when the returned descriptor
    is closed, or when this process ends however it ends), with the file's (device, inode);
    DatabaseInUse if another holder has it. The descriptor stays open until the database is
    closed: closing another descriptor of the database file would drop SQLite's own POSIX
    locks of this process, which is why a second store of this same process is refused
    before it opens the file."""
    if fcntl is None:
        return None
    target = _lock_file(path)
    with contextlib.suppress(OSError):
        info = os.stat(target)
        if (info.st_dev, info.st_ino) in _HELD:
            raise _in_use(path, os.getpid())
    handle = os.open(target, os.O_RDWR | os.O_CREAT, 0o666)  # SQLite's own mode (less umask)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = _lock_holder(handle)
        os.close(handle)
        raise _in_use(path, holder) from None
    info = os.fstat(handle)
    _HELD.add((info.st_dev, info.st_ino))
    return handle, (info.st_dev, info.st_ino)


def _in_use(path: Path, holder: int | None) -> DatabaseInUse:
    who = f" (process {holder})" if holder is not None else ""
    return DatabaseInUse(
        f"the table database {path} is in use by another rulebook serve{who}; "
        "stop it first, or give this one its own database with --db FILE"
    )


def _lock_holder(handle: int) -> int | None:
    """The process holding the ``flock`` on the file open as ``handle``, from ``/proc/locks``
    (Linux); None where that cannot be told."""
    info = os.fstat(handle)
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii") as locks:
            for line in locks:
                fields = line.split()
                # "1: FLOCK  ADVISORY  WRITE 26389 fe:00:2146320 0 EOF"
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == where:
                    return int(fields[4]) if fields[4].isdigit() else None
    except OSError:
        pass
    return None


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
    """The SQLite database of tables (one connection; the server runs on one event loop), held
    exclusively while open (:class:`DatabaseInUse` when another store holds it)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = _lock(self.path)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a commit is on disk before we acknowledge
        # the writer thread's connection may hold the write lock for one group commit
        self.db.execute("PRAGMA busy_timeout=10000")
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "creator" not in columns:  # a database of an earlier version: tables keep playing
            self.db.execute("ALTER TABLE tables ADD COLUMN creator TEXT")
        self._writer: GroupWriter | None = None  # started by the first submitted move

    def close(self) -> None:
        """Write the moves still queued, close the database and let another server have it."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.db.close()
        if self._lock is not None:
            handle, key = self._lock
            os.close(handle)  # closing the descriptor releases the lock
            _HELD.discard(key)
            self._lock = None

    def create(
        self, table_id: str, save: SaveGame, tokens: list[str], speed: float, creator: str = ""
    ) -> StoredTable:
        header = save.to_json()
        header.pop("choices")
        header.pop("result")
        created = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
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
        """Record decision ``n``; returns once it is committed to disk. One statement (one
        transaction) writes it only if the table exists and ``n`` follows its last decision;
        otherwise nothing is written and :class:`MoveRefused` says why."""
        with self.db:
            written = self.db.execute(
                INSERT_MOVE, (table_id, n, choice, table_id, table_id, n - 1)
            ).rowcount
        if written != 1:
            raise refusal(self.db, table_id, n)

    def submit_move(self, table_id: str, n: int, choice: str) -> Future[None]:
        """Record decision ``n`` without waiting: the writer thread commits it with whatever
        other moves arrive meanwhile (``writer.py``); the future is resolved once it is on
        disk, or raises :class:`MoveRefused` (nothing written) as :meth:`append_move` would."""
        if self._writer is None:
            self._writer = GroupWriter(self.path)
        return self._writer.submit(table_id, n, choice)

    def take_back(self, table_id: str, keep: int, held: int) -> None:
        """Forget every decision of a table from number ``keep`` on (moves taken back: the
        table replays from its first ``keep`` choices); returns once it is on disk. One
        transaction, written only if the table exists and holds exactly ``held`` decisions;
        otherwise nothing changes and :class:`MoveRefused` says why."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            (count,) = self.db.execute(
                "SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)
            ).fetchone()
            if count != held or not 0 <= keep <= held:
                raise refusal(self.db, table_id, held)
            self.db.execute("DELETE FROM moves WHERE table_id = ? AND n >= ?", (table_id, keep))

    def rewrite_moves(self, table_id: str, choices: list[str]) -> None:
        """Replace a table's moves with ``choices`` and mark its header of this save format:
        the moves of a table of an older format, converted (engine/save_upgrade.py). One
        transaction: all or nothing."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT header FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return
            header = {**json.loads(row[0]), "format": FORMAT}
            self.db.execute(
                "UPDATE tables SET header = ? WHERE id = ?", (json.dumps(header), table_id)
            )
            self.db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
            self.db.executemany(
                "INSERT INTO moves (table_id, n, choice) VALUES (?, ?, ?)",
                [(table_id, n, choice) for n, choice in enumerate(choices)],
            )

    def set_answer(self, table_id: str, seat: int, question: str, answer: str) -> bool:
        """Keep a seat's standing answer to a question (``ask`` too: a question the ruleset
        answers for a new seat, ``presentation: answers:``, stays asked once the seat says
        so); False, and nothing written, when the table is gone."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if self.db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                return False
            self.db.execute(
                "INSERT OR REPLACE INTO answers (table_id, seat, question, answer) "
                "VALUES (?, ?, ?, ?)",
                (table_id, seat, question, answer),
            )
        return True

    def answers(self, table_id: str) -> dict[int, dict[str, str]]:
        """Each seat's standing answers at a table: seat -> question key -> answer."""
        out: dict[int, dict[str, str]] = {}
        for seat, question, answer in self.db.execute(
            "SELECT seat, question, answer FROM answers WHERE table_id = ?", (table_id,)
        ):
            out.setdefault(seat, {})[question] = answer
        return out

    def set_name(self, table_id: str, seat: int, name: str) -> bool:
        """Keep the name a person gave their seat; False, and nothing written, when the
        table is gone."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if self.db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                return False
            self.db.execute(
                "INSERT OR REPLACE INTO names (table_id, seat, name) VALUES (?, ?, ?)",
                (table_id, seat, name),
            )
        return True

    def names(self, table_id: str) -> dict[int, str]:
        """The names people gave their seats at a table: seat -> name."""
        return dict(self.db.execute("SELECT seat, name FROM names WHERE table_id = ?", (table_id,)))

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
            # a table started under an older format: its moves are converted once it is
            # opened (rewrite_moves)
            format=format_read(data.get("format")),
            source=f"table {table_id}",
        )
        return StoredTable(table_id, created, save, tokens, speed, creator or "")

    def delete(self, table_id: str) -> None:
        """Remove a table, its seats and its log (one transaction: all or nothing)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for name in ("moves", "seats", "answers", "names"):
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
