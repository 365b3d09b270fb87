"""Group commit: one thread writes the moves of every table, many moves to one transaction.

A commit waits for the disk (``synchronous=FULL``: an ``fsync``), a few milliseconds in which
the event loop would serve nobody. The writer thread takes that wait instead: each move is
handed to it (:meth:`GroupWriter.submit`) and everything that arrived while the previous
transaction was being committed goes into the next one, so under load one ``fsync`` carries
the moves of many tables. Each move's future is resolved only once its transaction is on disk
(or the move was refused), and the server acknowledges a move only then: nothing acknowledged
is ever lost, whatever kills the process.

Each move is written by one statement that checks, in the same transaction, that its table
exists and that it is that table's next decision (as :meth:`TableStore.append_move` does);
a refused move writes nothing and its future raises :class:`MoveRefused`.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from concurrent.futures import Future
from pathlib import Path

__all__ = ["INSERT_MOVE", "MAX_BATCH", "GroupWriter", "MoveRefused", "refusal"]

# written only if the table exists and n follows its last decision (one statement: atomic)
INSERT_MOVE = (
    "INSERT INTO moves (table_id, n, choice) SELECT ?, ?, ? "
    "WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) "
    "AND COALESCE((SELECT MAX(n) FROM moves WHERE table_id = ?), -1) = ?"
)
MAX_BATCH = 1000  # moves in one transaction at most (the rest wait for the next one)
BUSY_TIMEOUT_MS = 10_000  # the event loop's own connection may hold the write lock briefly

Move = tuple[str, int, str, "Future[None]"]


class MoveRefused(Exception):
    """A move the database did not take: its table is gone, or another decision was written
    first. ``gone`` tells which."""

    def __init__(self, message: str, gone: bool) -> None:
        super().__init__(message)
        self.gone = gone


def refusal(db: sqlite3.Connection, table_id: str, n: int) -> Exception:
    """Why decision ``n`` of a table was not written: the table is gone, or another decision
    was written first (a :class:`MoveRefused` saying which)."""
    if db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
        return MoveRefused("the table was deleted", gone=True)
    (last,) = db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()
    return MoveRefused(
        f"decision {n} was not the next one: the database holds {last} decisions", gone=False
    )


class GroupWriter:
    """The writer thread and its own connection to the database (opened by the
    :class:`~interpreter.serve.store.TableStore` that owns it, closed with it)."""

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA synchronous=FULL")  # on disk before a future is resolved
        self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        self._queue: queue.SimpleQueue[Move | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="rulebook-writer", daemon=True)
        self._closed = False
        self.transactions = 0  # committed so far (a test reads how many moves shared one)
        self._thread.start()

    def submit(self, table_id: str, n: int, choice: str) -> Future[None]:
        """Queue decision ``n`` of a table; the future is resolved once it is on disk, or
        raises MoveRefused (not written) or the database's error (not written either)."""
        future: Future[None] = Future()
        if self._closed:
            future.set_exception(RuntimeError("the table database is closed"))
            return future
        self._queue.put((table_id, n, choice, future))
        return future

    def close(self) -> None:
        """Write what was queued, then stop the thread and close the connection."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join()
            self._db.close()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            try:
                self._write(batch)
            except Exception as exc:  # noqa: BLE001 - the thread must outlive any one batch
                for *_move, future in batch:
                    if not future.done():
                        future.set_exception(exc)
            if stop:
                return

    def _write(self, batch: list[Move]) -> None:
        """One transaction for the whole batch; each move's future resolved after COMMIT."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            written = [
                self._db.execute(INSERT_MOVE, (t, n, c, t, t, n - 1)).rowcount == 1
                for t, n, c, _future in batch
            ]
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:  # the disk failed: nothing of the batch is written
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            for *_move, future in batch:
                future.set_exception(exc)
            return
        self.transactions += 1
        for (table_id, n, _choice, future), ok in zip(batch, written, strict=True):
            if ok:
                future.set_result(None)
            else:
                future.set_exception(refusal(self._db, table_id, n))
