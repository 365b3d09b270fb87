"""The server's tables with their rules run in worker processes (``rule_workers.py``): the
event loop only checks a move against the position it holds, routes it to the table's worker
(its requests and answers: ``worker_protocol.py``), commits it to disk and shows the new
position.

:class:`WorkerHub` is a :class:`Hub` whose tables hold the position their worker sent back
(``snapshot.py``): a state that is read (views, the log, the legal options, the result) and
never played here, and the worded options of the person to move. A move whose rules pass the
CPU budget, or a game of uploaded rules that reaches the server's caps, stops its table: every
seat is told why (``Table.error``, shown above the board), the reason is kept in the database
(``stops.py``) and the table is neither replayed nor played on after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Future
from typing import cast

from interpreter.bots.registry import Bot
from interpreter.diagnostics.suggest import echo
from interpreter.engine.game import Game
from interpreter.engine.savefile import FORMAT, SaveGame, result_to_dict
from interpreter.engine.state import State
from interpreter.serve.caps import is_uploaded
from interpreter.serve.randoms import new_table_id
from interpreter.serve.replaying import NotCached
from interpreter.serve.rule_workers import WorkerPool
from interpreter.serve.snapshot import restore
from interpreter.serve.stops import clear_stop, mark_stopped, stop_reason
from interpreter.serve.store import MoveRefused, TableStore
from interpreter.serve.table import BuiltBoards
from interpreter.serve.tables import HUMAN, Hub, ServeError, Table
from interpreter.serve.turns import answered_choice, retrieved, stopped
from interpreter.serve.wire import Record, ReplayStep
from interpreter.serve.worker_protocol import (
    BotRequest,
    CompileRequest,
    Failure,
    FailureKind,
    Header,
    Moved,
    MoveRequest,
    Opened,
    OpenRequest,
    PlanRequest,
    RecordRequest,
    ReplayRequest,
    SavedHeader,
)
from interpreter.table.presenter import Presentation
from interpreter.table.seat_names import seat_names

__all__ = ["WorkerHub"]

# a failure the table cannot go on from (the rules passed the server's budget or caps, or
# the worker failed): the table stops, for good
STOPS: tuple[FailureKind, ...] = ("budget", "limit", "fault", "unknown")


def _header(save: SaveGame, overlays: Sequence[str]) -> Header:
    """The save's header for its worker (``overlays``: the save's, as the worker finds them)."""
    return {
        "game": save.game,
        "players": save.players,
        "overlays": list(overlays),
        "options": dict(save.options),
        "seed": save.seed,
        "seats": list(save.seats),
        "format": save.format,
    }


def _saved_header(save: SaveGame, overlays: Sequence[str]) -> SavedHeader:
    """:func:`_header` with the save's result, for a replay or a record."""
    return {**_header(save, overlays), "result": save.result}


def _stranger(table: Table) -> bool:
    return any(is_uploaded(o) for o in table.save.overlays)


class WorkerHub(Hub):
    """A :class:`Hub` whose tables' rules run in a :class:`WorkerPool`."""

    def __init__(self, store: TableStore, pool: WorkerPool) -> None:
        super().__init__(store, pool.caps)
        self.pool = pool
        self._loading: dict[str, asyncio.Future[Table]] = {}  # tables being opened
        self.errors_in_memory = False  # a stopped table's reason is kept (stops.py)
        # called when a table stops (the app tells its sockets): set by create_app
        self.on_stop: Callable[[Table], None] = lambda table: None

    # -- tables in memory --------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        """A table in memory (:meth:`get_async` brings one from the database first: the
        server does that before a request that names a table reaches its handler)."""
        table = self.tables.get(table_id)
        if table is None:
            if self.store.load(table_id) is None:
                raise ServeError(f"no table {echo(table_id)} here", 404)
            raise ServeError("the table is being opened; try again in a moment", 503)
        self.touched[table_id] = time.monotonic()
        return table

    async def get_async(self, table_id: str) -> Table:
        """A table by id, opened in its worker from the database when not in memory (its
        choices replayed there, never on the event loop)."""
        table = self.tables.get(table_id)
        if table is not None:
            self.touched[table_id] = time.monotonic()
            return table
        loading = self._loading.get(table_id)
        if loading is None:  # one opening per table, whoever asks meanwhile waits for it
            loading = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(retrieved)
            loading.add_done_callback(lambda _done: self._loading.pop(table_id, None))
            self._loading[table_id] = loading
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> Table:
        stored = self.store.load(table_id)
        if stored is None:
            raise ServeError(f"no table {echo(table_id)} here", 404)
        save = stored.save
        game, pres = await self.compile_async(save.game, save.players, save.overlays, save.options)
        choices = list(save.choices)
        save.choices = []
        table = Table(
            table_id,
            save,
            stored.tokens,
            stored.speed,
            game,
            pres,
            _UNOPENED,
            {seat: kind for seat, kind in enumerate(save.seats) if kind != HUMAN},
            creator=stored.creator,
            answers=self.store.answers(table_id),
            names=self.store.names(table_id),
        )
        table.error = stop_reason(self.store, table_id)
        answer = await self._open(table, choices)
        if "failed" in answer:
            raise ServeError(f"table {table_id} could not be opened: {answer['message']}", 500)
        if "choices" in answer:  # an older format's moves, converted by the worker
            save.choices, save.format = list(answer["choices"]), FORMAT
            self.store.rewrite_moves(table_id, save.choices)
        else:
            save.choices = choices
        self.tables[table_id] = table
        self.touched[table_id] = time.monotonic()
        return table

    async def _open(self, table: Table, choices: Sequence[str]) -> Failure | Opened:
        """Open the table in its worker (its choices replayed there) and take its position."""
        request: OpenRequest = {
            "op": "open",
            "table": table.id,
            "header": _header(table.save, table.save.overlays),
            "choices": list(choices),
        }
        self.pool.fresh(table.id, _stranger(table))
        answer = await self.pool.call(table.id, _stranger(table), request, len(choices) + 1)
        if "failed" not in answer:
            table.state = restore(table.game, answer["snap"])
            table.options = answer["options"]
            table.gesture = answer["gesture"]
        return answer

    def evict_idle(self, idle_s: float, keep: Collection[str] = ()) -> list[str]:
        gone = super().evict_idle(idle_s, keep)
        for table_id in gone:
            self.pool.forget(table_id)
        return gone

    def _forget(self, table: Table) -> None:
        super()._forget(table)
        self.pool.forget(table.id)

    # -- compiling ---------------------------------------------------------------------------
    async def compile_async(
        self, game: str, players: int, overlays: Sequence[str], options: Mapping[str, object]
    ) -> tuple[Game, Presentation]:
        """The compiled game, for reading the positions its worker sends. Compiling a
        stranger's rules is work of the uploader's choosing (a 250 KB overlay can take a
        minute of CPU), so a worker compiles the composition first, within the server's compile
        budget; only one that fitted is compiled here, in a thread, once."""
        self.known_game(game)
        key = self.composition(game, players, overlays, options)
        if key not in self._games and any(is_uploaded(o) for o in overlays):
            request: CompileRequest = {
                "op": "compile",
                "table": "",
                "header": {
                    "game": game,
                    "players": players,
                    "overlays": list(overlays),
                    "options": dict(options),
                },
            }
            answer = await self.pool.call_any(True, request)
            if "failed" in answer:
                status = 413 if answer["failed"] == "budget" else 422
                raise ServeError(f"the game could not be set up: {answer['message']}", status)
        return await asyncio.to_thread(self.compile, game, players, overlays, options)

    # -- new tables --------------------------------------------------------------------------
    async def create_async(
        self,
        game: str,
        players: int,
        seats: Sequence[str],
        overlays: Sequence[str] = (),
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        speed: float = 2.0,
    ) -> Table:
        """Set a new table up in its worker (checked first: nothing is stored for a set-up
        that fails, or passes the budget)."""
        self.check_setup(game, players, seats, seed)
        compiled, pres = await self.compile_async(game, players, overlays, options or {})
        save = self.new_save(game, overlays, compiled, seats, seed)
        bots: dict[int, Bot | str] = {
            seat: kind for seat, kind in enumerate(seats) if kind != HUMAN
        }
        table = Table(new_table_id(), save, [], float(speed), compiled, pres, _UNOPENED, bots)
        answer = await self._open(table, [])
        if "failed" in answer:
            self.pool.forget(table.id)
            raise ServeError(f"the game could not be set up: {answer['message']}", 422)
        return self.seat(table)

    # -- moves -------------------------------------------------------------------------------
    async def move_async(
        self, table: Table, token: object, option: object, decision: object
    ) -> int:
        """A person's move: checked here against the position held, played by the worker,
        committed to disk, then shown; returns the mover's seat."""
        await self.settle(table)
        if table.error is not None:
            raise ServeError(f"this table has stopped: {table.error}", 409)
        seat = self.check_move(table, token, option, decision)
        answer = await self._play(table, str(option))
        if "failed" in answer:
            if answer["failed"] in ("rule", "illegal"):
                raise ServeError(f"this move fails under the rules: {answer['message']}", 422)
            raise ServeError(f"this table has stopped: {table.error}", 409)
        return seat

    async def take_back_async(self, table: Table, seat: int, moves: int) -> None:
        """Take moves back: the database forgets them, then the table's worker opens it again
        from the choices before them (its bots seeing their decisions again), as after a
        restart. A request cancelled meanwhile does not stop it."""
        task = asyncio.ensure_future(self._take_back(table, table.decision - moves))
        task.add_done_callback(retrieved)
        await asyncio.shield(task)

    async def _take_back(self, table: Table, keep: int) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.add_done_callback(retrieved)
        table.writing = done  # no move of this table starts until the table is open again
        try:
            self.forget_moves(table, keep)
            # the table keeps its position until the worker's is in: a message built meanwhile
            # is of the position it holds, and its decision number
            answer = await self._open(table, table.save.choices[:keep])
            if "failed" in answer:  # the disk has the choices kept: read back from there
                self._forget(table)
                raise ServeError(f"the table could not be opened again: {answer['message']}", 500)
            del table.save.choices[keep:]
            table.undone += 1
        finally:
            table.writing = None
            done.set_result(None)

    async def plan_gesture(self, table: Table, seat: int, picks: list[str]) -> list[str]:
        """The moves that make a gesture's ``picks``, tried on a copy in the table's worker."""
        stranger = _stranger(table)
        failed = await self._opened(table, stranger)
        request: PlanRequest = {"op": "plan", "table": table.id, "seat": seat, "picks": picks}
        answer = failed or await self.pool.call(table.id, stranger, request)
        if "failed" in answer:
            if answer["failed"] in ("rule", "illegal"):
                raise ServeError(answer["message"], 422)
            raise ServeError(f"the gesture could not be tried: {answer['message']}", 409)
        return list(answer["moves"])

    async def _automatic_async(self, table: Table) -> bool:
        """The bot to move, or a person's answer set in advance, moves (False: none did, or
        the move failed and the table stopped)."""
        await self.settle(table)
        if table.error is not None or table.state.is_over:
            return False
        if table.bot_to_move():
            answer = await self._play(table, None)
            prefix = "could not move: "
        else:
            choice = answered_choice(table)
            if choice is None:
                return False
            answer = await self._play(table, choice)
            prefix = f"answer set in advance ({choice}) failed: "
        if "failed" not in answer:
            return True
        if table.error is None:  # a rule failed on this move: the table stops here
            if answer["failed"] == "bot":
                table.error = answer["message"]
            else:
                stopped(table, prefix + answer["message"])
            self._stop(table)
        return False

    async def _play(self, table: Table, option: str | None) -> Failure | Moved:
        """Play ``option`` (None: the bot to move plays) in the table's worker and, once it is
        on disk, take the new position.
        A request cancelled meanwhile (a socket dropped) does not stop it: the worker has
        played the move, so the table takes it all the same. A move past the budget or the
        caps stops the table."""
        task = asyncio.ensure_future(self._play_through(table, option))
        task.add_done_callback(retrieved)
        return await asyncio.shield(task)

    async def _play_through(self, table: Table, option: str | None) -> Failure | Moved:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        done.add_done_callback(retrieved)
        table.writing = done  # no other move of this table starts until this one is done
        try:
            answer = await self._played(table, option)
        except BaseException:
            table.writing = None
            done.set_result(None)
            raise
        if "failed" in answer:
            table.writing = None
            done.set_result(None)
            if answer["failed"] in STOPS:
                table.error = self._stop_message(table, answer["failed"], answer["message"])
                self._stop(table)
            return answer
        choice = answer["choice"]
        written = self.store.submit_move(table.id, table.decision, choice)

        def on_disk(future: Future[None]) -> None:  # in the writer thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server stopped
                loop.call_soon_threadsafe(self._taken, table, answer, future, done)

        written.add_done_callback(on_disk)
        await asyncio.shield(done)
        return answer

    async def _opened(self, table: Table, stranger: bool) -> Failure | None:
        """Open the table again where its worker is new (a first request there, or a worker
        started again): None, or why it could not be opened."""
        if self.pool.fresh(table.id, stranger):
            opened = await self._open(table, list(table.save.choices))
            if "failed" in opened:
                return opened
        return None

    async def _played(self, table: Table, option: str | None) -> Failure | Moved:
        stranger = _stranger(table)
        failed = await self._opened(table, stranger)
        if failed is not None:
            return failed
        # the seats' names, for the boards the worker draws after a move (boards_ahead.py)
        names = seat_names(table.save.seats, table.names)
        log_from, history_from = len(table.state.log or ()), len(table.state.history)
        request: MoveRequest | BotRequest
        if option is None:
            request = {
                "op": "bot",
                "table": table.id,
                "log_from": log_from,
                "history_from": history_from,
                "names": names,
            }
        else:
            request = {
                "op": "move",
                "table": table.id,
                "option": option,
                "log_from": log_from,
                "history_from": history_from,
                "names": names,
            }
        answer = await self.pool.call(table.id, stranger, request)
        if "failed" not in answer and "boards" in answer:
            answer["names"] = names
        return answer

    def _taken(
        self, table: Table, answer: Moved, written: Future[None], done: asyncio.Future[None]
    ) -> None:
        """The writer is done with a move (on the event loop): show it, or refuse it."""
        table.writing = None
        exc = written.exception()
        if exc is None:
            table.state = restore(table.game, answer["snap"], table.state)
            if "names" in answer and "boards" in answer:
                names = tuple(answer["names"])
                table.built_boards = BuiltBoards(table.state, names, answer["boards"])
            table.options = answer["options"]
            table.gesture = answer["gesture"]
            table.save.choices.append(answer["choice"])
            if table.state.is_over:
                self.store.finish(table.id, result_to_dict(table.state.result()))
            done.set_result(None)
        elif isinstance(exc, MoveRefused):
            done.set_exception(self._refused(table, exc))
        else:  # the database failed: nothing of the move was written
            self._forget(table)
            done.set_exception(ServeError(f"the move could not be saved ({exc}); try again", 503))

    def _stop_message(self, table: Table, failed: FailureKind, message: str) -> str:
        """Why the table stopped, for every seat: where, and which of the server's limits."""
        seat = table.state.to_move
        where = f"the table stopped at decision {table.decision} (seat {seat} to move)"
        if failed == "limit" and _stranger(table):
            caps = self.caps
            return (
                f"{where}: the game reached this server's cap for uploaded rules "
                f"({caps.decisions} decisions, {caps.rounds} rounds): {message}"
            )
        return f"{where}: {message}"

    def _stop(self, table: Table) -> None:
        """The table has stopped (``table.error`` says why): kept so, its worker's copy let
        go, and everybody at the table told."""
        mark_stopped(self.store, table.id, table.error or "stopped")
        self.pool.forget(table.id)
        self.on_stop(table)

    async def record(self, table: Table, seat: int | None) -> Record:
        """The seat's record of the table (``records.py``), built in a worker."""
        save = table.to_save()
        request: RecordRequest = {
            "op": "record",
            "table": table.id,
            "header": _saved_header(save, save.overlays),
            "choices": list(save.choices),
            "seat": seat,
            "practice": table.practice,
        }
        stranger = _stranger(table)
        answer = await self.pool.call_any(stranger, request, len(save.choices) + 1)
        if "failed" in answer:
            raise ServeError(f"the replay could not be made: {answer['message']}", 422)
        return answer["record"]

    async def replay(
        self, save: SaveGame, overlays: Sequence[str], step: int | None, key: str, most: int | None
    ) -> tuple[ReplayStep, int]:
        """The replay step's message and the decisions played again for it, built in the
        worker of the save's lane that ``key`` names (the one that keeps its positions:
        ``replaying.ReplayCache``), within the budget of one move per decision. Raises
        NotCached when that would be more than ``most``."""
        request: ReplayRequest = {
            "op": "replay",
            "table": "",
            "header": _saved_header(save, overlays),
            "choices": list(save.choices),
            "step": step,
            "key": key,
            "most": most,
        }
        stranger = any(is_uploaded(o) for o in overlays)
        moves = len(save.choices) if step is None else min(step, len(save.choices))
        answer = await self.pool.call_any(stranger, request, moves + 1, key)
        if "failed" in answer:
            if answer["failed"] == "uncached":
                raise NotCached(answer["message"])
            raise ServeError(f"the replay could not be made: {answer['message']}", 422)
        return answer["replayed"], answer["played"]

    def delete(self, table: Table, creator: object) -> None:
        super().delete(table, creator)
        clear_stop(self.store, table.id)
        self.pool.forget(table.id)


# the state of a table before its worker opened it (_open sets it before anyone reads it)
_UNOPENED = cast(State, None)
