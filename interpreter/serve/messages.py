"""What the server tells one seat about its table: built only from ``state.view(seat)`` (a
spectator gets the view of no seat: every hidden field hidden), the shared log as that seat
reads it (``dsl/runtime/loglines.py``: its own text of a line naming its hidden cards), and, for the
seat to move alone, its legal options with their human text.

The same message goes out over HTTP (``GET /api/tables/ID/state``) and the websocket.
"""

from __future__ import annotations

from interpreter.dsl.runtime.loglines import lines_for
from interpreter.engine.state import State
from interpreter.engine.undo import undoable
from interpreter.serve.boards_ahead import board_of, built_board
from interpreter.serve.render import log_lines
from interpreter.serve.table import Table
from interpreter.serve.wire import FinalResult, Position, SeatMessage
from interpreter.table.answers import standing_answer
from interpreter.table.endings import score_rows
from interpreter.table.gestures import gesture_message
from interpreter.table.offers import options_of
from interpreter.table.presenter import Presentation
from interpreter.table.seat_names import seat_colour, seat_names
from interpreter.table.shapes import OptionEntry

__all__ = ["SPECTATOR", "seat_message"]

SPECTATOR = -1  # the view of no seat: what everybody may see


def seat_message(
    table: Table, seat: int | None, log_from: int = 0, every_seat: bool = False
) -> SeatMessage:
    """The JSON message for ``seat`` (None: a spectator) at this moment of the table.

    ``log`` holds the log entries from number ``log_from`` on (a client that has the first
    entries asks only for the new ones; ``log_from`` is echoed so it knows where they go).
    ``every_seat``: every seat's hand is shown (only for a game that has ended: its replay).

    Everything but the log is built once per seat and position and kept by the table
    (``table.messages``), so the sockets of one seat, every spectator alike, share one build
    at each change; it is keyed by the seat, so no seat is ever sent another's.
    """
    key = (seat, every_seat, table.decision, table.error, table.undone)
    kept = table.messages
    base = kept.get(key)
    if base is None:
        if any(known[2:] != key[2:] for known in kept):  # the table moved: all are stale
            kept.clear()
        base = kept[key] = _position(table, seat, every_seat)
    # each line as this seat reads it: its own text of a line naming its hidden cards, the
    # public text of every other line (a spectator: all public)
    lines = (table.state.log or [])[log_from:]
    # a new dict, the caller's own: it may add fields (a replay does)
    return {
        **base,
        # the seat's own answer set in advance answers the question shown (publish.py): its
        # page waits for it instead of offering buttons (only this seat is told: its answers
        # are its own)
        "answered": (
            seat is not None
            and seat == base["to_move"]
            and standing_answer(table.state, table.answers.get(seat, {})) is not None
        ),
        "log_from": log_from,
        "log": log_lines(
            lines_for(lines, seat, keep_seat=False), base["names"], table.presentation
        ),
    }


def _position(table: Table, seat: int | None, every_seat: bool) -> Position:
    """The seat's message without its log (see :func:`seat_message`)."""
    state = table.state
    pres: Presentation = table.presentation
    viewer = SPECTATOR if seat is None else seat
    over = state.is_over
    to_move = None if over else state.to_move
    # every seat by its name and colour (public: the same for every seat and spectator)
    names = seat_names(table.save.seats, getattr(table, "names", None))
    # the board the table's worker drew for this seat (boards_ahead.py), else drawn here from
    # the state's own values, not copies: the board only reads them, and the message holds
    # only what is rendered from them (what is hidden from this seat stays hidden); the parts
    # no seat's view changed since they were rendered are not rendered again
    board = None if every_seat else built_board(table, viewer, names)
    if board is None:
        board = board_of(table.board_parts, pres, state, viewer, names, every_seat)
    message: Position = {
        "type": "state",
        "table": table.id,
        "title": table.game.title or table.game.name,
        "seat": seat,
        "seats": list(table.save.seats),
        "names": names,
        "colours": [seat_colour(n) for n in range(len(names))],
        # the table's creator chose its seed: whoever knows the seed knows every hidden value
        "practice": table.practice,
        "decision": table.decision,
        "round": state.round,
        "to_move": to_move,
        "over": over,
        "prompt": _prompt(state) if to_move is not None else "",
        "options": _options(table, viewer) if to_move == viewer else [],
        # how many of its last moves the seat to move may take back now (serve/undo_api.py)
        "undo": undoable(state, seat),
        # a run of decisions asked as one move (table/gestures.py), for the seat to move
        "gesture": gesture_message(table, viewer) if to_move == viewer else None,
        "board": board,
        # which board element each option family stands for (static/acts.js)
        "acts": pres.acts,
        "log_from": 0,
        "log": [],
        "result": None,
        # the table stopped before its end (a bot or a rule failed): why, located, no traceback
        "error": table.error,
    }
    if over:
        result = state.result()
        ended: FinalResult = {
            "winner": result.winner,
            "winners": list(result.winners),
            "rounds": result.rounds,
            "trigger": result.trigger,
            "ended": pres.end_text(result.trigger),  # the trigger in words
            "rows": score_rows(result, table.save.seats, names, pres),
        }
        message["result"] = ended
    return message


def _options(table: Table, seat: int) -> list[OptionEntry]:
    """The options of the seat to move: as the table's worker worded them (its rules run
    there: an option's preview plays it on a copy), else worded here."""
    if table.options is not None:
        return list(table.options)
    return options_of(table.state, table.presentation, seat)


def _prompt(state: State) -> str:
    """The label of the pending decision (``choose: label:`` in the rules), if any."""
    pending = getattr(state, "pending", None) or {}
    for spec, _opt, _values in pending.values():
        return str(getattr(spec, "label", "") or "")
    return ""
