"""The terminal board of ``rulebook play --human``: the seat's view as compact rich tables (the
same zones, labels and hidden internal fields as the web table), and the options as numbered
lines with their human text (``interpreter/table/presenter.py``)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from rich import box
from rich.console import Console
from rich.table import Table

from interpreter.table.presenter import Presentation, Zone

__all__ = ["option_lines", "print_board"]


def _shared_table(zones: Sequence[Zone]) -> Table:
    """One table for the shared zones: the zone's title on its first row only."""
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column("zone", style="bold", no_wrap=True)
    table.add_column("field", style="dim", no_wrap=True)
    table.add_column("value", overflow="fold")
    for zone in zones:
        for i, field in enumerate(zone.fields):
            table.add_row(zone.title if i == 0 else "", field.label, _text(field.chips))
    return table


def _seats_table(seats: Sequence[Zone], viewer: Any, to_move: Any) -> Table:
    """The seats side by side: a column per seat (the viewer's first), a row per field."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column("", style="dim", no_wrap=True)
    labels: list[str] = []
    for zone in seats:
        heading = zone.title + (" (you)" if zone.seat == viewer else "")
        heading += " *" if zone.seat == to_move else ""
        table.add_column(heading, overflow="fold")
        labels.extend(f.label for f in zone.fields if f.label not in labels)
    for label in labels:
        cells = []
        for zone in seats:
            field = next((f for f in zone.fields if f.label == label), None)
            cells.append("" if field is None else _text(field.chips))
        table.add_row(label, *cells)
    return table


def _text(chips: Sequence[Any]) -> str:
    return ", ".join(c.text for c in chips) or "-"


def print_board(view: Mapping[str, Any], pres: Presentation, out: TextIO, width: int) -> None:
    """Print the shared zones, then the seats side by side (* marks the seat to move)."""
    console = Console(width=width, highlight=False, color_system=None)
    board = pres.board(view)
    viewer = view.get("seat")
    seats = sorted(board.seats, key=lambda z: z.seat != viewer)
    with console.capture() as captured:
        console.print(f"Round {board.round}")
        console.print(_shared_table(board.zones))
        console.print(_seats_table(seats, viewer, board.to_move))
    text = "\n".join(line.rstrip() for line in captured.get().splitlines())
    out.write(text + "\n")


def option_lines(options: Sequence[Mapping[str, Any]], width: int | None = None) -> list[str]:
    """Numbered options under their group headings: ``  3) Build X — 1 coin, you pay 0  [id]``.

    ``options`` are the seat's options as the web table sends them (serve/messages.py:
    ``id``, ``text``, ``group``), worked out by the driver, which holds the state. With a
    ``width`` that one of the lines would pass, the list leaves out the ``[id]`` parts (the
    name picks an option as well) and a text still too long wraps under itself.
    """
    lines: list[str] = []
    digits = len(str(len(options)))
    pad = " " * (digits + 4)
    with_ids = width is None or all(
        digits + 8 + len(o["text"]) + len(o["id"]) <= width for o in options
    )
    group = None
    for number, option in enumerate(options, 1):
        if option["group"] != group:
            group = option["group"]
            lines.append(f" {group}:")
        line = f"  {number:>{digits}}) {option['text']}"
        if with_ids:
            lines.append(f"{line}  [{option['id']}]")
        else:
            lines.extend(textwrap.wrap(line, width or len(line), subsequent_indent=pad) or [line])
    return lines
