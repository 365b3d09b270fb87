"""The messages between the server's event loop and a rule worker (``rule_workers.py``): the
requests it writes to a worker's pipe (``channel.py``) and the answers of
:meth:`~interpreter.serve.player.Player.handle`.

Each request names its ``op`` and the table it is about (``""``: none); each answer is a
:class:`Failure` (``failed``: which kind, ``message``: why, worded for the table's seats) or
the answer of its op. They are plain dicts, pickled as they are: a TypedDict costs the pipe
nothing. Every answer but a failure is ``@final``, so that ``"failed" in answer`` tells a
type checker which one it holds. A replay step, a record, the options and the gesture go on
to a browser as they are (their shapes: ``wire.py``, ``table/shapes.py``). (No ``from
__future__ import annotations`` here: the TypedDicts' ``NotRequired`` keys are read at run
time, as ``__optional_keys__``, only from annotations that are not strings.)
"""

from typing import Any, Literal, NotRequired, TypedDict, final

from interpreter.serve.snapshot import Snapshot
from interpreter.serve.wire import Record, ReplayStep
from interpreter.table.shapes import Gesture, OptionEntry

__all__ = [
    "Answer",
    "BotRequest",
    "Compiled",
    "CompileRequest",
    "Composed",
    "DropRequest",
    "Failure",
    "FailureKind",
    "Header",
    "Moved",
    "MoveRequest",
    "Opened",
    "OpenRequest",
    "PlanRequest",
    "Planned",
    "RecordRequest",
    "RecordMade",
    "Replayed",
    "ReplayRequest",
    "Request",
    "SavedHeader",
]

# why a request failed: the rules refused it (rule, illegal), the server's CPU budget or caps
# stopped it (budget, limit), a bot could not be made or failed (bot), the table is not open in
# that worker (unknown), the worker itself failed (fault), the server is stopping (stopping),
# a replay step too far from a kept position (uncached)
FailureKind = Literal[
    "rule", "illegal", "budget", "limit", "bot", "unknown", "fault", "stopping", "uncached"
]


class Failure(TypedDict):
    """A request that did not do its work; the table is left as it was."""

    failed: FailureKind
    message: str


class Composed(TypedDict):
    """A composition: what a worker compiles (``Player._compiled`` keeps it)."""

    game: str
    players: int
    overlays: list[str]
    options: dict[str, object]  # each option's value, as the save holds it


class Header(Composed):
    """A table's save without its choices: what a worker needs to play it from the start."""

    seed: int
    seats: list[str]  # each seat's kind: "human" or a bot's name
    format: str  # the save format its choices are in


class SavedHeader(Header):
    """A save's header for a replay or a record (its result, where the game is over)."""

    result: dict[str, Any] | None


class DropRequest(TypedDict):
    """Let the table go (answered with an empty dict)."""

    op: Literal["drop"]
    table: str


class CompileRequest(TypedDict):
    """Compile a composition within the compile budget (answered :class:`Compiled`)."""

    op: Literal["compile"]
    table: str
    header: Composed


class OpenRequest(TypedDict):
    """Set the table up, its ``choices`` played again (answered :class:`Opened`)."""

    op: Literal["open"]
    table: str
    header: Header
    choices: list[str]


class MoveRequest(TypedDict):
    """Play ``option`` at an open table (answered :class:`Moved`). ``log_from`` and
    ``history_from``: the log and history entries the server holds already; ``names``: the
    seats' names, for the boards the worker draws after the move (``boards_ahead.py``)."""

    op: Literal["move"]
    table: str
    option: str
    log_from: int
    history_from: int
    names: NotRequired[list[str]]


class BotRequest(TypedDict):
    """The bot to move at an open table moves (answered :class:`Moved`), as :class:`MoveRequest`
    without the option."""

    op: Literal["bot"]
    table: str
    log_from: int
    history_from: int
    names: NotRequired[list[str]]


class PlanRequest(TypedDict):
    """The moves that make a gesture's ``picks`` for ``seat``, tried on a copy (answered
    :class:`Planned`)."""

    op: Literal["plan"]
    table: str
    seat: int
    picks: list[str]


class ReplayRequest(TypedDict):
    """The spectator's message after ``step`` decisions of a save (None: its end), from the
    positions the worker keeps by ``key``; :class:`Failure` ``uncached`` when that plays more
    than ``most`` decisions (answered :class:`Replayed`)."""

    op: Literal["replay"]
    table: str
    header: SavedHeader
    choices: list[str]
    step: int | None
    key: str
    most: int | None


class RecordRequest(TypedDict):
    """A seat's record (``records.py``; ``seat`` None: a spectator's) of a live table
    (answered :class:`RecordMade`)."""

    op: Literal["record"]
    table: str
    header: SavedHeader
    choices: list[str]
    seat: int | None
    practice: bool


Request = (
    DropRequest
    | CompileRequest
    | OpenRequest
    | MoveRequest
    | BotRequest
    | PlanRequest
    | ReplayRequest
    | RecordRequest
)


@final
class Compiled(TypedDict):
    """The composition compiled within the budget (nothing to tell); also a drop's answer."""


@final
class Opened(TypedDict):
    """The table's position (``snapshot.py``) and the worded options and gesture of the person
    to move (none for a bot); ``choices``: the table's moves converted from an older format."""

    snap: Snapshot
    options: list[OptionEntry]
    gesture: Gesture | None
    choices: NotRequired[list[str]]


@final
class Moved(TypedDict):
    """The position after a move, as :class:`Opened` (only what changed in it), the choice
    played, and the boards the worker drew (by seat) when the request named the seats.
    ``names``: the names those boards were drawn with, added by the server on receipt."""

    snap: Snapshot
    options: list[OptionEntry]
    gesture: Gesture | None
    choice: str
    boards: NotRequired[dict[int, str]]
    names: NotRequired[list[str]]


@final
class Planned(TypedDict):
    """The moves that make a gesture."""

    moves: list[str]


@final
class Replayed(TypedDict):
    """The spectator's message at the step and the decisions played again for it."""

    replayed: ReplayStep
    played: int


@final
class RecordMade(TypedDict):
    """A seat's record (``records.seat_record``)."""

    record: Record


Answer = Failure | Compiled | Opened | Moved | Planned | Replayed | RecordMade
