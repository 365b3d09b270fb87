"""Boards drawn where a table's rules run: the worker that plays a move also draws the boards
of the seats that are sure to be sent the new position, so the server's event loop (one core
for every table) does not.

A board is most of a seat's message and most of what building one costs (the HTML of every
zone, ``board_parts.py``). After a person's move two seats are sure to be sent the new
position: the seat that moved (the answer to its move) and the person to move now (asked for
its options). The worker draws those two boards after the move, from each seat's own view
(``seat_view``, as the server does: a seat is never sent another's hidden fields), with the
seat names the server sent with the move, and sends them back with the position. The server
takes a board from there only for that position (the very state the worker sent) and those
names; any other seat (a spectator, a seat that reloads) is drawn on the event loop as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.engine.state import State
from interpreter.engine.view import seat_view
from interpreter.serve.board_parts import BoardParts, kept_board_html
from interpreter.serve.table import HUMAN, BuiltBoards, Table
from interpreter.table.presenter import Presentation

__all__ = ["BuiltBoards", "board_of", "boards_ahead", "built_board"]


def board_of(
    parts: BoardParts,
    pres: Presentation,
    state: State,
    viewer: int,
    names: Sequence[str],
    every_seat: bool = False,
) -> str:
    """The board ``viewer`` (a seat, or -1: a spectator) is shown of ``state`` (``every_seat``:
    every seat's fields shown, as a finished game's replay shows them)."""
    view = seat_view(state.game.rules, state, viewer, shared=True, every_seat=every_seat)
    return kept_board_html(parts, pres, view, names)


def boards_ahead(
    parts: BoardParts,
    pres: Presentation,
    state: State,
    seats: Sequence[str],
    mover: int | None,
    names: Sequence[str],
) -> dict[int, str]:
    """The boards of the people sure to be sent ``state`` next: ``mover``, the seat whose move
    made it (not when a bot moves next: the position goes on at once), and the person to move
    now; by seat."""
    to_move = None if state.is_over else state.to_move
    people_next = to_move is None or seats[to_move] == HUMAN
    wanted = [
        seat
        for seat in (mover, to_move)
        if seat is not None and seats[seat] == HUMAN and people_next
    ]
    return {seat: board_of(parts, pres, state, seat, names) for seat in dict.fromkeys(wanted)}


def built_board(table: Table, viewer: int, names: Sequence[str]) -> str | None:
    """The board the table's worker drew for ``viewer`` at the position the table holds now,
    with these ``names``; None where it drew none (the caller draws it)."""
    built = table.built_boards

    if built is None or built.state is not table.state or built.names != tuple(names):
        return None
    return built.boards.get(viewer)
