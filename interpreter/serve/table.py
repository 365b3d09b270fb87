"""One live table as the server holds it (its save header, seats, tokens, bots, position
and listeners), and the refusal every request may end in (:class:`ServeError`). The tables
themselves, their moves and their store are :class:`tables.Hub`'s."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from interpreter.bots.registry import Bot
from interpreter.engine.game import Game
from interpreter.engine.savefile import SaveGame, result_to_dict
from interpreter.engine.state import State
from interpreter.serve.board_parts import BoardParts
from interpreter.serve.randoms import PRACTICE_SEEDS
from interpreter.serve.wire import Position
from interpreter.table.presenter import Presentation
from interpreter.table.seat_names import seat_names
from interpreter.table.shapes import Gesture, OptionEntry

__all__ = ["HUMAN", "BuiltBoards", "ServeError", "Table", "token_bytes"]

HUMAN = "human"
# what a seat's kept message is kept under (messages.seat_message): the seat (None: a
# spectator), whether every seat's hand is shown, the decision, the table's error, its undos
MessageKey = tuple[int | None, bool, int, str | None, int]

MAX_TOKEN = 200  # longer than any token this server makes: refused before any comparison


def token_bytes(token: object, name: str, kind: str) -> bytes:
    """A token as bytes for ``secrets.compare_digest`` (which raises TypeError on a non-ASCII
    str), or a 400 ServeError for anything that cannot be a token of this server."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN or not token.isascii():
        raise ServeError(f"{name!r} must be a {kind} (a string)")
    return token.encode()


class ServeError(Exception):
    """A request the server refuses, with the HTTP status and a message for people."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class BuiltBoards:
    """The boards a table's worker drew of one position (``state``, the table's own object
    for it), with the seat names they were drawn with (boards_ahead.py)."""

    state: State | None = None
    names: tuple[str, ...] = ()
    boards: dict[int, str] = field(default_factory=dict)


@dataclass
class Table:
    id: str
    save: SaveGame  # header; ``choices`` grows with every move
    tokens: list[str]
    speed: float
    game: Game
    presentation: Presentation
    state: State
    # each bot's seat and its bot; where the table's rules run in a worker process
    # (offloop.py), the worker holds the bots and this the specs they were made from
    bots: dict[int, Bot | str] = field(default_factory=dict)
    # open sockets at this table and the seat each one sees (None: a spectator)
    listeners: dict[WebSocket, int | None] = field(default_factory=dict)
    creator: str = ""  # the creator's token ("": nobody's, a table of an earlier version)
    # why the table stopped before its end (a bot failed, a rule failed): shown, no traceback
    error: str | None = None
    # each person's answers set in advance (seat -> question key -> take / decline), applied
    # at that seat's own decisions only (serve/answers_api.py)
    answers: dict[int, dict[str, str]] = field(default_factory=dict)
    # the names people gave their seats (seat -> name; table/seat_names.py), public
    names: dict[int, str] = field(default_factory=dict)
    # the decision whose position was last sent to everybody at the table (publish.py): an
    # answer set in advance is applied only there, so it reads to the others as an asked one
    shown: int = -1
    # each seat's message at the present position, without its log (messages.seat_message)
    messages: dict[MessageKey, Position] = field(default_factory=dict, repr=False)
    # the parts of the seats' boards, kept between seats and between moves (board_parts.py)
    board_parts: BoardParts = field(default_factory=BoardParts, repr=False)
    # the boards the table's worker drew of the present position (boards_ahead.py)
    built_boards: BuiltBoards | None = field(default=None, repr=False)
    # the worded options of the seat to move, as the table's worker sent them (offloop.py);
    # None: worded here from the state (a table whose rules run in the server's process)
    options: list[OptionEntry] | None = field(default=None, repr=False)
    # the gesture the seat to move is asked, as the table's worker sent it with the options
    # (table/gestures.py), and each seat's last run at each gesture's step (seat, step) -> ids:
    # an assignment starts from it (kept in memory only: after a restart it starts afresh)
    gesture: Gesture | None = field(default=None, repr=False)
    last_gestures: dict[tuple[int, str], list[str]] = field(default_factory=dict, repr=False)
    # the move being written by the writer thread (Hub.commit_async), None when none is
    writing: asyncio.Future[None] | None = None
    # how many times a seat took moves back (serve/undo_api.py): the log a socket was sent before
    # the latest undo may hold lines since taken back, so it is sent whole again
    undone: int = 0

    def log_sent(self, scope: MutableMapping[str, Any]) -> int:
        """How many log entries the socket of ``scope`` has been sent (0 again after an undo
        it has not been told of: its page starts its log anew)."""
        if scope.get("rulebook_undone", 0) != self.undone:
            scope["rulebook_undone"] = self.undone
            scope["rulebook_log_sent"] = 0
        return int(scope.setdefault("rulebook_log_sent", 0))

    def listen(self, socket: WebSocket, seat: int | None) -> None:
        self.listeners[socket] = seat

    def forget(self, socket: WebSocket) -> None:
        self.listeners.pop(socket, None)

    def listeners_items(self) -> list[tuple[WebSocket, int | None]]:
        return list(self.listeners.items())

    @property
    def decision(self) -> int:
        """The number of decisions taken so far (the next one's number)."""
        return len(self.save.choices)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.save.seats) if kind == HUMAN]

    @property
    def bot_only(self) -> bool:
        return not self.humans

    def bot_to_move(self) -> bool:
        return not self.state.is_over and self.state.to_move in self.bots

    @property
    def practice(self) -> bool:
        """A table with people whose seed its creator chose: every seat is told so (whoever
        knows the seed knows every hidden card). Drawn seeds are never below
        ``PRACTICE_SEEDS``; chosen ones always are, so the seed alone tells, in a save too."""
        return bool(self.humans) and self.save.seed < PRACTICE_SEEDS

    def seat_of(self, token: object) -> int | None:
        """The seat a token opens; None for no token (a spectator); a wrong one is refused."""
        if token is None or token == "":
            return None
        offered = token_bytes(token, "token", "seat token")
        for seat, known in enumerate(self.tokens):
            if secrets.compare_digest(known.encode(), offered):
                return seat
        raise ServeError("this seat link is not valid for this table", 403)

    def is_creator(self, token: object) -> bool:
        """Whether ``token`` is this table's creator token (compared in constant time); a token
        of the wrong type is refused with a 400, never a TypeError."""
        if token is None or token == "":
            return False
        offered = token_bytes(token, "creator", "creator token")
        return bool(self.creator) and secrets.compare_digest(self.creator.encode(), offered)

    def check_creator(self, token: object, what: str) -> None:
        if not self.is_creator(token):
            raise ServeError(
                f"only the table's creator may {what} (from the browser that made the table, "
                "or with the creator token it was given)",
                403,
            )

    def to_save(self) -> SaveGame:
        result = result_to_dict(self.state.result()) if self.state.is_over else None
        return SaveGame(
            game=self.save.game,
            players=self.save.players,
            overlays=list(self.save.overlays),
            options=dict(self.save.options),
            seed=self.save.seed,
            seats=list(self.save.seats),
            choices=list(self.save.choices),
            result=result,
            format=self.save.format,
        )


def check_turn(table: Table, seat: int, decision: object) -> None:
    """Refuse (changing nothing) a seat's request that is not at its own turn of the decision
    the table is at: a move, a gesture, an undo."""
    if isinstance(decision, bool) or not isinstance(decision, int):
        raise ServeError("'decision' must be the decision number (an integer)")
    state = table.state
    if state.is_over:
        raise ServeError("the game is over", 409)
    if decision != table.decision:
        raise ServeError(
            f"stale decision {decision}: the table is at decision {table.decision}; "
            "the page shows the new position",
            409,
        )
    if state.to_move != seat:
        who = seat_names(table.save.seats, table.names)[state.to_move]
        raise ServeError(f"it is not your turn ({who} decides)", 409)
