"""Log lines with a second text that one seat reads instead of the public one.

A game's log (``state.log``) is a list of ``(round, seat, text)`` lines every seat is shown.
A rule that moves a seat's hidden cards writes a line whose public text says only what every
seat may know ("seat 1 gives 3 hats") and whose *own* text, read by that seat alone, names
the cards ("you give Top hat, Red cap and Bowler"). Such a line's text is an :class:`OwnLine`:
a ``str`` whose value is the public text, so every reader that does not ask for a seat's
version (a save, a replay, a spectator, ``json.dumps``) gets the public text and nothing else;
a reader that shows the log to one seat asks :func:`line_for` / :func:`lines_for`
(``State.log_for``).
"""

from __future__ import annotations

from collections.abc import Iterable

from interpreter.dsl.runtime.runtime_state import Fn, LogEntry, RunningState

__all__ = ["LogEntry", "OwnLine", "OwnText", "Yours", "line_for", "lines_for", "own_line"]


class OwnLine(str):
    """A log line's public text (the string itself) and the text its seat reads instead."""

    seat: int
    own: str

    def __new__(cls, public: str, seat: int, own: str) -> OwnLine:
        line = super().__new__(cls, public)
        line.seat = seat
        line.own = own
        return line

    def __reduce__(self) -> tuple[type[OwnLine], tuple[str, int, str]]:
        # pickled and deep-copied with both texts (a subclass of str would lose its fields)
        return (OwnLine, (str(self), self.seat, self.own))

    def __repr__(self) -> str:
        return f"OwnLine({str(self)!r}, seat={self.seat}, own={self.own!r})"

    def joined(self, public: str, own: str) -> OwnLine:
        """The same line with other texts for the same seat (a forced move's suffix)."""
        return OwnLine(public, self.seat, own)


def own_line(public: str, seat: int | None, own: str) -> str:
    """A line whose text `seat` reads as `own` and every other reader as `public`; a `seat`
    that is no seat number (none) gives the public text alone."""
    if type(seat) is not int or seat < 0:
        return str(public)
    return OwnLine(str(public), seat, str(own))


class OwnText:
    """The text of a log step with an own text (`text`, `own`, `seat`): called on a state it
    writes the line (an OwnLine). `public` is the public text's function: the leak check finds
    the line's rule text by it (check/secrets_trace.py)."""

    __slots__ = ("own", "public", "seat")

    def __init__(self, public: Fn, seat: Fn, own: Fn) -> None:
        self.public = public
        self.seat = seat
        self.own = own

    def __call__(self, s: RunningState) -> str:
        return own_line(self.public(s), self.seat(s), self.own(s))


class Yours(str):
    """A seat's own text as :func:`line_for` gives it to that seat: it names its reader
    ("you pay with ..."), so a reader does not put "seat N:" before it."""

    __slots__ = ()


def line_for(text: str, seat: int | None) -> str:
    """What `seat` reads of a log line's text (None: a spectator, the public text): its own
    text as :class:`Yours`, any other as a plain ``str``.

    >>> line = OwnLine("seat 1 gives 2 hats", 1, "you give Top hat and Red cap")
    >>> line_for(line, 1), line_for(line, 0), line_for(line, None)
    ('you give Top hat and Red cap', 'seat 1 gives 2 hats', 'seat 1 gives 2 hats')
    """
    if type(text) is OwnLine and seat is not None and text.seat == seat:
        return Yours(text.own)
    return str(text)


def lines_for(
    entries: Iterable[LogEntry], seat: int | None, *, keep_seat: bool = True
) -> list[LogEntry]:
    """Log entries ``(round, seat, text)`` as `seat` reads them (None: the public texts).
    An own line keeps its entry's seat (a driver tells whose move a line was by it) unless
    ``keep_seat`` is False: then its seat is None, for a reader that would write "seat N:"
    before a text that names no seat."""
    out: list[LogEntry] = []
    for r, who, text in entries:
        shown = line_for(text, seat)
        out.append((r, who if keep_seat or type(shown) is not Yours else None, shown))
    return out
