"""Live tables: a game, its seats (people with secret tokens, or bots), its action log on disk.

Every move goes through :meth:`Hub.move` (the server's own path: :meth:`Hub.move_async`): the
seat is named by its token, the decision number must be the current one, the option must be
legal and pass a trial on a copy; only then is it committed to the database (by the writer
thread, with other tables' moves: ``writer.py``), applied, and acknowledged. Anything else
raises :class:`ServeError` with a message for people and leaves the game as it was. Bots move
as soon as it is their turn (people's tables) or at the table's chosen speed (bot-only tables,
which a background task drives; see app.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import Future
from typing import Any

from interpreter.bots import UnknownBotError, make_bot
from interpreter.bots.registry import Bot, plays
from interpreter.diagnostics.errors import ReplayError, RulebookError
from interpreter.diagnostics.suggest import did_you_mean, echo
from interpreter.engine.game import Game
from interpreter.engine.savefile import FORMAT, SaveGame, result_to_dict
from interpreter.engine.undo import taken_back, watch_undo
from interpreter.infoset.worlds import SeatView
from interpreter.load.catalog import game_dirs
from interpreter.serve.caps import Caps, Composition, compile_game
from interpreter.serve.randoms import PRACTICE_SEEDS, draw_seed, new_table_id, new_token
from interpreter.serve.records import seat_record
from interpreter.serve.store import MoveRefused, TableStore
from interpreter.serve.table import HUMAN, ServeError, Table, check_turn
from interpreter.serve.turns import automatic_move, retrieved, stopped, trial
from interpreter.serve.wire import Record
from interpreter.table.gestures import GestureRefused, plan_moves
from interpreter.table.presenter import Presentation

__all__ = ["HUMAN", "Hub", "ServeError", "Table"]


class Hub:
    """Every table the server knows: live ones in memory, all of them in the store. A table
    nobody watches leaves memory once idle (:meth:`evict_idle`) and :meth:`get` rebuilds it
    from the store when it is asked for again."""

    def __init__(self, store: TableStore, caps: Caps | None = None) -> None:
        self.store = store
        self.caps = caps or Caps()  # what a move and a game of uploaded rules may cost
        self.tables: dict[str, Table] = {}
        self.touched: dict[str, float] = {}  # table id -> when last asked for (monotonic s)
        self._games: dict[Composition, tuple[Game, Presentation]] = {}
        self._compiling = threading.Lock()
        self.errors_in_memory = True  # why a table stopped is not in the database

    # -- loading games (compiled once per set-up and shared: a Game is immutable) ------------
    @staticmethod
    def known_game(game: str) -> None:
        """Refuse a game that is not in the catalog (a name only: never a path here)."""
        known = game_dirs()
        if game not in known:
            guess = did_you_mean(game, known)
            hint = f"; did you mean '{guess}'?" if guess else f"; known games: {', '.join(known)}"
            raise ServeError(f"unknown game {echo(game)}{hint}")

    @staticmethod
    def composition(
        game: str, players: int, overlays: Sequence[str], options: Mapping[str, object]
    ) -> Composition:
        """What a compiled game is kept by."""
        return (
            game,
            players,
            tuple(overlays),
            tuple(sorted((k, str(v)) for k, v in options.items())),
        )

    def compile(
        self, game: str, players: int, overlays: Sequence[str], options: Mapping[str, object]
    ) -> tuple[Game, Presentation]:
        self.known_game(game)
        key = self.composition(game, players, overlays, options)
        with self._compiling:  # one at a time: compiles run in threads, the parser is shared
            found = self._games.get(key)
            if found is None:
                try:
                    found = compile_game(game, players, overlays, options, self.caps)
                except RulebookError as exc:
                    raise ServeError(str(exc)) from None
                self._games[key] = found
        return found

    # -- tables ------------------------------------------------------------------------------
    def create(
        self,
        game: str,
        players: int,
        seats: Sequence[str],
        overlays: Sequence[str] = (),
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        speed: float = 2.0,
    ) -> Table:
        """Set up a new table (checked first: nothing is stored for a set-up that fails)."""
        self.check_setup(game, players, seats, seed)
        compiled, pres = self.compile(game, players, overlays, options or {})
        save = self.new_save(game, overlays, compiled, seats, seed)
        bots = self._bots(save)
        state = watch_undo(compiled.new_state(save.seed))
        return self.seat(Table("", save, [], float(speed), compiled, pres, state, bots))

    def check_setup(self, game: str, players: int, seats: Sequence[str], seed: int | None) -> None:
        """Refuse a set-up whose seats, seed or bots do not fit (before anything is compiled)."""
        if len(seats) != players:
            raise ServeError(f"{players} players need {players} seats, got {len(seats)}")
        if seed is not None and HUMAN in seats and not 0 <= seed < PRACTICE_SEEDS:
            raise ServeError(
                "a table with people takes a seed from 0 to 2**64 - 1 (a practice table, "
                "which tells every seat that its seed was chosen); leave 'seed' out for a "
                "secret one"
            )
        for seat, kind in enumerate(seats):
            if kind != HUMAN and not plays(kind, game):
                raise ServeError(f"seat {seat}: the bot {echo(kind)} plays another game only")

    def new_save(
        self,
        game: str,
        overlays: Sequence[str],
        compiled: Game,
        seats: Sequence[str],
        seed: int | None,
    ) -> SaveGame:
        """The save header of a new table (its seed drawn unless the creator chose one)."""
        return SaveGame(
            game=game,
            players=len(seats),
            overlays=list(overlays),
            options=dict(compiled.options),
            seed=draw_seed() if seed is None else int(seed),
            seats=list(seats),
        )

    def seat(self, table: Table) -> Table:
        """Give a new table its id, tokens and creator token, store it and keep it."""
        table.id = table.id or new_table_id()
        table.tokens = [new_token() for _ in table.save.seats]
        table.creator = new_token()
        self.store.create(table.id, table.save, table.tokens, table.speed, table.creator)
        self.tables[table.id] = table
        self.touched[table.id] = time.monotonic()
        return table

    async def create_async(self, *args: Any, **kwargs: Any) -> Table:
        """:meth:`create` (a server whose rules run in worker processes sets up there)."""
        return self.create(*args, **kwargs)

    async def record(self, table: Table, seat: int | None) -> Record:
        """The seat's record of the table (records.py; a server whose rules run in worker
        processes builds it there)."""
        return seat_record(table, seat)

    async def get_async(self, table_id: str) -> Table:
        """:meth:`get` (a server whose rules run in worker processes opens tables there)."""
        return self.get(table_id)

    def _bots(self, save: SaveGame) -> dict[int, Bot | str]:
        bots: dict[int, Bot | str] = {}
        for seat, kind in enumerate(save.seats):
            if kind == HUMAN:
                continue
            try:
                bots[seat] = make_bot(kind, seat, save.seed)
            except UnknownBotError as exc:
                raise ServeError(f"seat {seat}: {exc}") from None
        return bots

    def get(self, table_id: str) -> Table:
        """A table by id, rebuilt from the database (replaying its choices) when not in memory."""
        table = self.tables.get(table_id)
        if table is not None:
            self.touched[table_id] = time.monotonic()
            return table
        stored = self.store.load(table_id)
        if stored is None:
            raise ServeError(f"no table {echo(table_id)} here", 404)
        save = stored.save
        compiled, pres = self.compile(save.game, save.players, save.overlays, save.options)
        if save.format != FORMAT:  # a table of an older format goes on in this one
            try:
                save.upgrade(compiled)
            except ReplayError as exc:
                raise ServeError(f"table {table_id} could not be opened: {exc}", 500) from None
            self.store.rewrite_moves(table_id, save.choices)
        choices = list(save.choices)
        save.choices = []
        table = Table(
            table_id,
            save,
            stored.tokens,
            stored.speed,
            compiled,
            pres,
            watch_undo(save.new_state(compiled)),
            self._bots(save),
            creator=stored.creator,
            answers=self.store.answers(table_id),
            names=self.store.names(table_id),
        )
        state = table.state
        for choice in choices:
            # bots see each decision they made again, so their own generators are where they
            # were when the server stopped: the table resumes exactly
            bot = table.bots.get(state.to_move)
            if bot is not None and not isinstance(bot, str):
                bot.choose(SeatView(state, state.to_move), state.legal_options())
            state.apply(choice)
            save.choices.append(choice)
        self.tables[table_id] = table
        self.touched[table_id] = time.monotonic()
        return table

    def evict_idle(self, idle_s: float, keep: Collection[str] = ()) -> list[str]:
        """Let go of every table in memory that nobody watches and nobody asked for in the
        last ``idle_s`` seconds, except those in ``keep`` (the bot-only tables the server
        plays); returns their ids. Each is on disk to the last move: :meth:`get` rebuilds it
        exactly as it was."""
        now = time.monotonic()
        gone = [
            table_id
            for table_id, table in self.tables.items()
            if not table.listeners
            and table_id not in keep
            # why it stopped lives in memory only, unless kept in the database (offloop.py)
            and (table.error is None or not self.errors_in_memory)
            and now - self.touched.get(table_id, 0.0) >= idle_s
        ]
        for table_id in gone:
            del self.tables[table_id]
            self.touched.pop(table_id, None)
        return gone

    def move(self, table: Table, token: object, option: object, decision: object) -> None:
        """Apply a person's move after every check; committed to disk before this returns."""
        self.check_move(table, token, option, decision)
        self.commit(table, str(option))  # an option id: check_move refuses any other value

    def check_move(self, table: Table, token: object, option: object, decision: object) -> int:
        """The seat whose move this is, once every check has passed (else a ServeError)."""
        seat = table.seat_of(token)
        if seat is None:
            raise ServeError("a spectator cannot move: open your seat's link", 403)
        if not isinstance(option, str) or not option:
            raise ServeError("'option' must be an option id (a string)")
        check_turn(table, seat, decision)
        if option not in table.state.legal_options():
            raise ServeError(f"{echo(option)} is not a legal option now", 422)
        return seat

    def commit(self, table: Table, option: str) -> None:
        """Apply a legal option, then record it; the state moves only once both succeed."""
        _trial(table, option)
        try:
            self.store.append_move(table.id, table.decision, option)
        except MoveRefused as exc:
            raise self._refused(table, exc) from None
        self._apply(table, option)

    def _apply(self, table: Table, option: str) -> None:
        table.state.apply(option)
        table.save.choices.append(option)
        if table.state.is_over:
            self.store.finish(table.id, result_to_dict(table.state.result()))

    def _refused(self, table: Table, exc: MoveRefused) -> ServeError:
        """The database is the truth: this copy is gone or behind; the next get() reads it."""
        self._forget(table)
        if exc.gone:
            return ServeError("this table was deleted; the move was not made", 404)
        return ServeError(f"the move was not made ({exc}); load the table again", 409)

    def _forget(self, table: Table) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.touched.pop(table.id, None)

    def run_bots(self, table: Table) -> int:
        """Bots at a people's table move at once, and people's answers set in advance answer
        their questions, until a person decides; returns the count of moves. A move that
        fails stops the table there, its ``error`` saying why (nothing stored of that move)."""
        moves = 0
        while (step := automatic_move(table)) is not None:
            choice, failed = step
            try:
                self.commit(table, choice)
            except ServeError as exc:
                stopped(table, failed + exc.message)
                break
            moves += 1
        return moves

    # -- the server's path: moves committed by the writer thread (group commit) -----------
    async def settle(self, table: Table) -> None:
        """Wait until no move of this table is being written (a move is checked against the
        table only then, so two moves never race for one decision)."""
        while table.writing is not None:
            await asyncio.wait({table.writing})

    async def move_async(
        self, table: Table, token: object, option: object, decision: object
    ) -> int:
        """:meth:`move` with the commit done by the writer thread while the event loop serves
        others; returns the mover's seat once the move is on disk and applied."""
        await self.settle(table)
        seat = self.check_move(table, token, option, decision)
        await self.commit_async(table, str(option))  # an option id: checked above
        return seat

    async def plan_gesture(self, table: Table, seat: int, picks: list[str]) -> list[str]:
        """The moves that make a gesture's ``picks``, tried on a copy (table/gestures.py)."""
        try:
            return plan_moves(table.state, table.presentation, seat, picks)
        except GestureRefused as exc:
            raise ServeError(str(exc), 422) from None

    async def commit_async(self, table: Table, option: str) -> None:
        """:meth:`commit` through the writer thread. The move is applied (and the table
        changes for everybody) only once it is on disk, whether or not this caller still
        waits: a request cancelled meanwhile leaves table and database alike."""
        await self.settle(table)
        _trial(table, option)
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        done.add_done_callback(retrieved)
        table.writing = done
        written = self.store.submit_move(table.id, table.decision, option)

        def on_disk(future: Future[None]) -> None:  # in the writer thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server stopped
                loop.call_soon_threadsafe(self._written, table, option, future, done)

        written.add_done_callback(on_disk)
        await asyncio.shield(done)

    def _written(
        self, table: Table, option: str, written: Future[None], done: asyncio.Future[None]
    ) -> None:
        """The writer is done with a move (on the event loop): apply it, or refuse it."""
        table.writing = None
        exc = written.exception()
        if exc is None:
            try:
                self._apply(table, option)
            except Exception as failure:  # noqa: BLE001 - reported to the mover, not raised here
                self._forget(table)  # the disk has the move: the table is read back from it
                done.set_exception(ServeError(f"the move could not be applied: {failure}", 500))
                return
            done.set_result(None)
        elif isinstance(exc, MoveRefused):
            done.set_exception(self._refused(table, exc))
        else:  # the database failed: nothing of the move was written
            self._forget(table)
            done.set_exception(ServeError(f"the move could not be saved ({exc}); try again", 503))

    async def bot_move_async(self, table: Table) -> bool:
        """Let the bot to move choose and commit (through the writer thread); False when no
        bot is to move, or when the bot or a rule fails: then the table stops there, its
        ``error`` saying why (the game as it was before that move, nothing stored of it)."""
        await self.settle(table)
        if not table.bot_to_move():
            return False
        return await self._automatic_async(table)

    async def run_bots_async(self, table: Table) -> int:
        """:meth:`run_bots` through the writer thread."""
        moves = 0
        while await self._automatic_async(table):
            moves += 1
        return moves

    async def _automatic_async(self, table: Table) -> bool:
        await self.settle(table)
        step = automatic_move(table)
        if step is None:
            return False
        choice, failed = step
        try:
            await self.commit_async(table, choice)
        except ServeError as exc:
            return stopped(table, failed + exc.message)
        return True

    # -- moves taken back (serve/undo_api.py checks who may) ---------------------------------
    async def take_back_async(self, table: Table, seat: int, moves: int) -> None:
        """Take back ``seat``'s last ``moves`` decisions (checked by the caller, with no move
        of the table being written): the game replayed from the choices before them, then
        the database told, then the table changed (a refusal changes nothing)."""
        again = taken_back(table.state, seat, moves)
        keep = table.decision - moves
        self.forget_moves(table, keep)
        table.state = again
        del table.save.choices[keep:]
        table.undone += 1

    def forget_moves(self, table: Table, keep: int) -> None:
        """The database forgets the table's decisions from ``keep`` on."""
        try:
            self.store.take_back(table.id, keep, table.decision)
        except MoveRefused as exc:
            raise self._refused(table, exc) from None

    def delete(self, table: Table, creator: object) -> None:
        """Forget a table for good (its creator only); its sockets are closed by the caller."""
        table.check_creator(creator, "delete it")
        self.store.delete(table.id)
        self.tables.pop(table.id, None)
        self.touched.pop(table.id, None)

    def set_speed(self, table: Table, speed: object, creator: object) -> None:
        """A bot-only table's speed, changed by its creator only (it has no seats to ask)."""
        table.check_creator(creator, "change its speed")
        if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not 0 <= speed <= 100:
            raise ServeError("'speed' must be a number of moves per second from 0 to 100")
        table.speed = float(speed)
        self.store.set_speed(table.id, table.speed)


def _trial(table: Table, option: str) -> None:
    failure = trial(table, option)
    if failure is not None:  # a rule failed on this option: refuse it, keep the game
        raise ServeError(f"this move fails under the rules: {failure}", 422)
