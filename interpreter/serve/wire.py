"""The shapes of the JSON messages the web table sends a browser, beside those of the options
and the gesture the seat to move is offered (``table/shapes.py``): a seat's message
(``messages.seat_message``), a replay step (``replaying.py``) and a seat's record
(``records.seat_record``). They are plain dicts, as the JSON writer takes them
(``jsonbody.py``); a TypedDict says which keys each has. (No ``from __future__ import
annotations`` here: a TypedDict's ``NotRequired`` keys are read at run time only from
annotations that are not strings.)
"""

from typing import NotRequired, TypedDict

from interpreter.engine.view import View
from interpreter.table.shapes import GestureMessage, OptionEntry

__all__ = [
    "FinalResult",
    "LogLine",
    "Position",
    "Record",
    "RecordStep",
    "ReplayStep",
    "SeatMessage",
]

# a log entry as a seat reads it: [round, text]
LogLine = list[int | str]


class FinalResult(TypedDict):
    """How a game ended, as a seat's message tells it once the game is over."""

    winner: int
    winners: list[int]
    rounds: int
    trigger: str | None
    ended: str  # the end trigger in words
    rows: list[list[str]]  # the final score table, header first (table/endings.py)


class Position(TypedDict):
    """What one seat (``seat`` None: a spectator) is told of its table at one moment, but
    whether its answer set in advance answers the question shown (the table keeps this part
    for every seat at its present position)."""

    type: str  # "state" ("replay": a replay step)
    table: str
    title: str
    seat: int | None
    seats: list[str]  # each seat's kind: "human" or a bot's name
    names: list[str]
    colours: list[str]
    practice: bool
    decision: int
    round: int
    to_move: int | None
    over: bool
    prompt: str
    options: list[OptionEntry]
    undo: int
    gesture: GestureMessage | None
    board: str  # the seat's board, as HTML
    acts: dict[str, list[object]]  # option family -> the board element it stands for
    log_from: int
    log: list[LogLine]
    result: FinalResult | None
    error: str | None


class SeatMessage(Position):
    """A seat's message (``messages.seat_message``)."""

    answered: bool  # the seat's answer set in advance answers the question shown


class ReplayStep(SeatMessage):
    """The spectators' message after a chosen number of decisions of a game."""

    steps: int  # the decisions of the whole game
    step: int  # the decisions played to this one
    hands_shown: bool  # every seat's hand shown: the game has ended


class RecordStep(TypedDict):
    """One decision of a seat's record: what the seat was shown there, and at its own
    decisions the options it had and the one it chose (those two keys only there)."""

    decision: int
    round: int
    to_move: int | None
    view: View
    log: list[LogLine]
    options: NotRequired[list[str]]
    chose: NotRequired[str]


class Record(TypedDict):
    """A seat's record of a live table (``records.py``)."""

    format: str
    table: str
    game: str
    players: int
    overlays: list[str]
    options: dict[str, object]
    seats: list[str]
    seat: int | None
    practice: bool
    decisions: int
    steps: list[RecordStep]
    # each seat's name, as the table's pages show it: added where the record is downloaded
    names: NotRequired[list[str]]
