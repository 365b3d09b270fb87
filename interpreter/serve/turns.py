"""What a table does without a person clicking, and the trial of a move: the option the bot to
move chooses, the move a person's answer set in advance gives, and how a table that cannot go
on says why (shared by the two ways a move is committed, ``tables.py``)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from interpreter.diagnostics.errors import RulebookError
from interpreter.diagnostics.suggest import echo
from interpreter.infoset.worlds import SeatView
from interpreter.serve.table import Table
from interpreter.table.answers import standing_answer

__all__ = ["answered_choice", "automatic_move", "bot_choice", "retrieved", "stopped", "trial"]

_log = logging.getLogger("rulebook.serve")


def trial(table: Table, option: str) -> str | None:
    """Try ``option`` on a copy of the table's state: why a rule fails on it (the move is then
    refused, the game left as it was), or None."""
    try:
        table.state.copy().apply(option)
    except RulebookError as exc:
        return str(exc)
    return None


def automatic_move(table: Table) -> tuple[str, str] | None:
    """The move made now without a person clicking, and how its failure is told: the bot's
    choice if a bot is to move, else the person's answer set in advance; None when neither
    (or when the bot failed: the table has then stopped)."""
    if table.bot_to_move():
        choice = bot_choice(table)
        return None if choice is None else (choice, "could not move: ")
    choice = answered_choice(table)
    return None if choice is None else (choice, f"answer set in advance ({choice}) failed: ")


def bot_choice(table: Table) -> str | None:
    """The legal option the bot to move chooses; None when no bot is to move, or when the bot
    or a rule fails (the table then stops, its ``error`` saying why)."""
    if table.error is not None or not table.bot_to_move():
        return None
    state = table.state
    seat = state.to_move
    kind = table.save.seats[seat]
    try:
        bot = table.bots[seat]
        assert not isinstance(bot, str), "a worker process moves its own bots (offloop.py)"
        choice = bot.choose(SeatView(state, seat), state.legal_options())
    except RulebookError as exc:  # a rule failed while the bot looked ahead
        stopped(table, f"could not move: {exc}")
        return None
    except Exception as exc:  # noqa: BLE001 - a bot's own fault, named without a traceback
        _stop(table, f"seat {seat}'s bot ({kind}) failed: {type(exc).__name__}: {exc}")
        return None
    if choice not in state.legal_options():
        stopped(table, f"could not move: it chose {echo(choice)}, which is not a legal option now")
        return None
    return choice


def answered_choice(table: Table) -> str | None:
    """The move a person's answer set in advance gives the decision asked now, if any; none
    until the position asking it has been shown to everybody at the table (publish.py)."""
    state = table.state
    if table.error is not None or state.is_over or state.to_move in table.bots:
        return None
    if table.shown != table.decision:
        return None
    return standing_answer(state, table.answers.get(state.to_move, {}))


def stopped(table: Table, why: str) -> bool:
    """Stop the table at the seat to move, saying ``why`` (False: no move was made)."""
    seat = table.state.to_move
    if seat in table.bots:
        _stop(table, f"seat {seat} ({table.save.seats[seat]}) {why}")
    else:
        _stop(table, f"seat {seat}'s {why}")
    return False


def _stop(table: Table, error: str) -> None:
    """Stop the table with ``error`` (shown to everybody at it), and say so in the server's
    log in one line (at the default level: the one thing a table's failure writes there)."""
    table.error = error
    _log.warning("table %s stopped: %s", table.id, " ".join(error.split()))


def retrieved(future: asyncio.Future[Any]) -> None:
    """Mark a move's outcome as seen when nobody waits for it any more (a cancelled request):
    the table has it either way."""
    if not future.cancelled():
        future.exception()
