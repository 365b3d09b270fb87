"""Text the command line prints about a game: header, round-grouped log, score table, JSON.

``play`` and ``replay`` share these functions, so a replay prints exactly the text the original
game printed. Nothing here knows a game: names, log lines and score components all come from
the ruleset through the engine.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TextIO

from interpreter.dsl.runtime.loglines import LogEntry, Yours
from interpreter.engine.game import Game
from interpreter.engine.savefile import winners_of
from interpreter.engine.state import State

__all__ = [
    "LogPrinter",
    "Output",
    "unfinished_line",
    "format_header",
    "format_scores",
    "format_value",
    "summary",
    "summary_line",
    "winners_line",
]


def format_value(value: Any) -> str:
    """An option value as a user would type it after ``--option NAME=``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def format_header(game: Game, seed: int, seats: Sequence[str]) -> str:
    """The lines printed before a game: what is played, with what options, by whom, which seed."""
    overlays = ", ".join(game.overlays) if game.overlays else "none"
    options = ", ".join(f"{k}={format_value(v)}" for k, v in game.options.items()) or "none"
    who = ", ".join(f"{seat}={kind}" for seat, kind in enumerate(seats))
    return "\n".join(
        [
            f"{game.title} [{game.name}], {game.players} players, seed {seed}",
            f"overlays: {overlays}",
            f"options: {options}",
            f"seats: {who}",
        ]
    )


class Logged(Protocol):
    """What :meth:`LogPrinter.flush` reads: a state's log (or a list of entries as one)."""

    @property
    def log(self) -> Sequence[LogEntry] | None: ...


class LogPrinter:
    """Prints ``state.log`` incrementally, a header line per round, entries indented under it.

    Call :meth:`flush` after every decision (or once at the end): it prints only the entries
    added since the last call, so output is identical however often it is called.
    """

    def __init__(self, out: TextIO, enabled: bool = True) -> None:
        self.out = out
        self.enabled = enabled
        self._printed = 0
        self._round: int | None = None

    def flush(self, state: Logged) -> None:
        """Print the log entries the state gained since the previous flush."""
        log = state.log
        assert log is not None, "a state that keeps its log"
        if not self.enabled:
            self._printed = len(log)
            return
        for round_no, seat, text in log[self._printed :]:
            if round_no != self._round:
                self._round = round_no
                self.out.write(f"Round {round_no}\n" if round_no else "Setup\n")
            self.out.write(f"  {_with_seat(seat, text)}\n")
        self._printed = len(log)
        self.out.flush()

    def rewind(self, state: State) -> None:
        """The state's log lost its last entries (moves taken back): go on from its end."""
        self._printed = min(self._printed, len(state.log or ()))


def _with_seat(seat: int | None, text: str) -> str:
    """Prefix a log line with its seat, unless the rules' text already starts by naming it.

    A seat's own text (``Yours``: "you pay with ...", dsl/runtime/loglines.py) names its reader
    itself.

    >>> _with_seat(2, "pass"), _with_seat(2, "seat 2 passes"), _with_seat(None, "end")
    ('seat 2: pass', 'seat 2 passes', 'end')
    """
    if seat is None or type(text) is Yours:
        return text
    named = f"seat {seat}"
    if text.lower().startswith(named) and text[len(named) : len(named) + 1] in ("", " ", ":"):
        return text
    return f"{named}: {text}"


def format_scores(
    result: Mapping[str, Any],
    seats: Sequence[str],
    names: Sequence[str] | None = None,
    pres: Any = None,
) -> str:
    """The final score table: a row per seat, a column per score component, total, tiebreak.

    ``result`` is the plain dict from :func:`interpreter.engine.savefile.result_to_dict`.
    With ``names`` and ``pres`` (a person played: table/seat_names.py, table/presenter.py) it
    is a person's table: each seat by its name, each component and the end by the ruleset's
    words, as the web table shows it.
    """
    from interpreter.table.endings import score_rows

    worded = names is not None and pres is not None
    rows = score_rows(result, seats, names, pres)
    # marker, seat and player (a person's table: marker and name) read better left-aligned;
    # numbers right
    left = 2 if worded else 3
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(widths[i]) if i < left else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
    ended = f"Game over after {result['rounds']} rounds, {result['decisions']} decisions"
    if result.get("trigger"):
        ended += (
            f": {pres.end_text(result['trigger'])}" if worded else f" (end: {result['trigger']})"
        )
    return "\n".join(
        [ended, *lines, winners_line(winners_of(result), seats, names if worded else None)]
    )


def winners_line(
    winners: Sequence[int], seats: Sequence[str], names: Sequence[str] | None = None
) -> str:
    """The line under the score table: ``Winner: seat 1 (random)``, or every seat of a full
    tie (equal total and tiebreak): ``Winners (tied): seat 0 (random), seat 2 (random)``;
    with ``names``, each seat by its name (``Winner: Ana``).

    >>> winners_line([0, 2], ["random", "first", "human"])
    'Winners (tied): seat 0 (random), seat 2 (human)'
    >>> winners_line([1], ["human", "random"], ["Ana", "Random bot"])
    'Winner: Random bot'
    """
    if names is not None:
        named = ", ".join(names[seat] if 0 <= seat < len(names) else "?" for seat in winners)
    else:
        named = ", ".join(
            f"seat {seat} ({seats[seat] if 0 <= seat < len(seats) else '?'})" for seat in winners
        )
    return f"Winners (tied): {named}" if len(winners) > 1 else f"Winner: {named}"


def summary(
    game: Game, seed: int, seats: Sequence[str], state: State, result: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The machine-readable outcome printed by ``--json`` (same for play and replay)."""
    return {
        "game": game.name,
        "players": game.players,
        "overlays": list(game.overlays),
        "options": dict(game.options),
        "seed": seed,
        "seats": list(seats),
        "finished": result is not None,
        "rounds": result["rounds"] if result else state.round,
        "decisions": result["decisions"] if result else state.decisions,
        "scores": result["scores"] if result else [],
        "winner": result["winner"] if result else None,
        "winners": winners_of(result) if result else [],
        "trigger": result["trigger"] if result else None,
    }


def summary_line(data: Mapping[str, Any]) -> str:
    """One line of JSON (stable key order, no trailing spaces) for the last line of stdout."""
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "), default=str)


class Output:
    """Which parts of the report to print, from ``--json`` / ``--quiet``.

    ``--quiet`` drops the round-by-round log; with ``--json`` as well only the JSON line is left.
    """

    def __init__(self, as_json: bool, quiet: bool, out: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.as_json = as_json
        self.log = not quiet
        self.table = not (quiet and as_json)
        # where a person plays: every seat's name and the game's words (set by the caller)
        self.names: list[str] | None = None
        self.pres: Any = None

    def header(self, game: Game, seed: int, seats: Sequence[str]) -> None:
        if self.table:
            self.out.write(format_header(game, seed, seats) + "\n")

    def outcome(
        self, game: Game, seed: int, seats: Sequence[str], state: State, result: Any
    ) -> None:
        """Print the score table (or why there is none) and the JSON line."""
        if self.table:
            if result is not None:
                self.out.write(format_scores(result, seats, self.names, self.pres) + "\n")
            else:
                self.out.write(unfinished_line(state, self.names) + "\n")
        if self.as_json:
            self.out.write(summary_line(summary(game, seed, seats, state, result)) + "\n")
        self.out.flush()


def unfinished_line(state: State, names: Sequence[str] | None = None) -> str:
    """What to say about a game that stopped before its end."""
    seat = state.to_move
    named = f"seat {seat}" if names is None or seat is None else names[seat]
    who = "" if seat is None else f", {named} to decide"
    done = f"stopped after {state.decisions} decisions in round {state.round}"
    return f"Game not finished: {done}{who}"
