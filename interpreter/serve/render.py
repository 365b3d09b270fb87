"""HTML for the table page: the board of one seat, the log, the score table.

Plain server-rendered HTML (every text escaped); the page's small script only swaps these
fragments in. The board's HTML is ASCII, its attributes in single quotes (a text is escaped with
both quotes, so no value ends one): a board travels as a JSON string, where each double quote
would cost an escape to write and to read, and one character past ASCII makes the whole string
a wider one, slower to pickle, to encode and to decode (docs/performance.md, "The web table").
The score rows are the ones ``rulebook play`` prints (table/endings.py's ``score_rows``, which
cli/logfmt.py uses too), so the web table and the terminal agree to the cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from interpreter.serve.render_draw import drawing_html, wide
from interpreter.table.endings import worded_end
from interpreter.table.presenter import Board, Chip, Field, Presentation, Zone
from interpreter.table.seat_names import seat_colour, with_names

__all__ = [
    "ascii_html",
    "board_frame",
    "board_html",
    "log_lines",
    "score_table_html",
    "seat_name",
    "seat_zone_html",
    "shared_zone_html",
]


def seat_name(seat: int | None) -> str:
    """How a log line names a seat (the terminal log's words)."""
    return "" if seat is None else f"seat {seat}"


def log_lines(
    log: Sequence[tuple[int, int | None, str]],
    names: Sequence[str] | None = None,
    pres: Presentation | None = None,
) -> list[list[Any]]:
    """``[round, text]`` per entry, each text as the terminal log prints it; with ``names``,
    every seat said by its name (table/seat_names.py), with ``pres`` the end in words."""
    out = []
    for round_no, seat, text in log:
        if pres is not None:
            text = worded_end(text, pres)
        named = seat_name(seat)
        if named and not (
            text.lower().startswith(named) and text[len(named) : len(named) + 1] in ("", " ", ":")
        ):
            text = f"{named}: {text}"
        out.append([round_no, text if names is None else with_names(text, names)])
    return out


def score_table_html(rows: Sequence[Sequence[str]]) -> str:
    head, *body = rows
    cells = "".join(f"<th>{escape(c)}</th>" for c in head)
    lines = [f"<tr>{cells}</tr>"]
    for row in body:
        cls = " class='winner'" if row[0] == "*" else ""
        lines.append(f"<tr{cls}>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>")
    return "<table class='scores'>" + "".join(lines) + "</table>"


def board_html(
    board: Board, pres: Presentation, viewer: int, names: Sequence[str] | None = None
) -> str:
    """The shared zones, then every seat (the viewer's own first, marked); with ``names``,
    each seat's area titled by its name, in its colour."""
    own = [z for z in board.seats if z.seat == viewer]
    others = [z for z in board.seats if z.seat != viewer]
    return board_frame(
        board.round,
        [shared_zone_html(zone, pres, names) for zone in board.zones],
        [seat_zone_html(zone, pres, viewer, board.to_move, names) for zone in own + others],
    )


def board_frame(round_no: int, zones: Sequence[str], seats: Sequence[str]) -> str:
    """The board from its parts: the shared zones' HTML, then the seats' (the viewer's first)."""
    return (
        f"<div class='round'>Round {round_no}</div><div class='zones'>{''.join(zones)}"
        f"</div><div class='seats'>{''.join(seats)}</div>"
    )


def shared_zone_html(zone: Zone, pres: Presentation, names: Sequence[str] | None = None) -> str:
    """One shared zone's section."""
    return _zone(zone, pres, "", names=names)


def seat_zone_html(
    zone: Zone,
    pres: Presentation,
    viewer: int,
    to_move: int | None,
    names: Sequence[str] | None = None,
) -> str:
    """One seat's section: marked as the viewer's own, as the seat to move."""
    classes = ["seat"]
    if zone.seat == viewer:
        classes.append("own")
    if zone.seat == to_move:
        classes.append("to-move")
    return _zone(zone, pres, " ".join(classes), you=zone.seat == viewer, names=names)


def _zone(
    zone: Zone,
    pres: Presentation,
    classes: str,
    you: bool = False,
    names: Sequence[str] | None = None,
) -> str:
    title = zone.title
    seat = ""
    if zone.seat is not None:
        if names is not None and 0 <= zone.seat < len(names):
            title = names[zone.seat]
        # the seat's colour, the same in the log and the scores (table/seat_names.py)
        seat = f" data-seat='{zone.seat}' style='--seat:{seat_colour(zone.seat)}'"
    title = escape(title) + (" (you)" if you else "")
    rows = []
    for field in zone.fields:
        if names is not None and _names_a_seat(field, pres):
            rows.append(_row(field, pres, names))  # a table's own names: never kept
            continue
        if field.html is None:
            field.html = _row(field, pres)
        rows.append(field.html)
    return ascii_html(
        f"<section class='zone {classes}'{seat}><h3>{title}</h3>"
        f"<table>{''.join(rows)}</table></section>"
    )


def ascii_html(html: str) -> str:
    """``html`` in ASCII: every other character as its numeric character reference (the same
    text to a browser, in or out of an attribute)."""
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _names_a_seat(field: Field, pres: Presentation) -> bool:
    """A field holding a seat (``draw: {as: seat}``): it reads as that seat's name."""
    spec = pres.draw.get(field.name)
    return spec is not None and spec.as_ == "seat"


def _row(field: Field, pres: Presentation, names: Sequence[str] | None = None) -> str:
    """One field's table row: it depends on the field alone, so it is kept on the field
    (a field holding a seat is rendered with the table's ``names``, and not kept)."""
    drawing = field.drawing
    if drawing is not None:
        # a drawn field: cards, spaces and slots under their label, the rest beside it
        cells = drawing_html(drawing)
        # (the class rides on the cell: a row is `<tr data-field=..><th>`, tests read it so)
        cls = f" class='drawn d-{drawing.kind}{' wide' if wide(drawing) else ''}'"
    else:
        chips = field.chips
        if names is not None:
            chips = [Chip(with_names(c.text, names), c.key, c.count) for c in chips]
        cells = "".join(_chip(c, pres) for c in chips) or "<span class='none'>&#8212;</span>"
        cls = ""
    return (
        f"<tr data-field='{escape(field.name)}'><th title='{escape(pres.doc(field.name))}'>"
        f"{escape(field.label)}</th><td{cls}>{cells}</td></tr>"
    )


def _chip(chip: Chip, pres: Presentation) -> str:
    icon, colour = pres.style_of(chip.key)
    style = f" style='--chip:{escape(colour)}'" if colour else ""
    tip = escape(pres.doc(chip.key) if chip.key else "")
    mark = f"<span class='icon'>{escape(icon)}</span>" if icon else ""
    # the id it stands for: a card of the same id shows the chip's words (static/table.js)
    key = f" data-key='{escape(chip.key)}'" if chip.key else ""
    return f"<span class='chip'{style}{key} title='{tip}'>{mark}{escape(chip.text)}</span>"
