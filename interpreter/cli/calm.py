"""The calm screen of ``rulebook play --human``: a few lines a person reads at each turn.

At a seat's turn the terminal prints what happened since that seat's last turn (the last few
log lines, with how many were left out), a compact summary of the board (the round and the
shared essentials on one or two lines, then a line or two per seat: numbers as they are, piles
as counts, the seat's own piles by name and its numbers at zero too), then the options;
everything fits the terminal's height when it can, the seat's own entry kept whole first.
The full board (``board.py``) is one command away. ``? NAME`` describes a catalog entry (its
``doc:`` text and attributes), found by id or name.

Nothing here knows a game: labels, internal fields and zones come from the ruleset's
``presentation:`` section through :class:`~interpreter.table.presenter.Presentation`, and
everything shown comes from the seat's own view and the shared log.
"""

from __future__ import annotations

import difflib
import io
import textwrap
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from interpreter.cli.logfmt import LogPrinter
from interpreter.dsl.runtime.loglines import LogEntry
from interpreter.table.field_drawing import is_hidden, pile_size

if TYPE_CHECKING:
    from interpreter.table.presenter import Board, Field, Presentation

__all__ = ["describe", "find_entry", "log_lines", "option_grid", "recent_lines", "summary_lines"]

SEP = " · "
SHARED_NAMES = 44  # a shared pile likewise; longer ones are counted


def log_lines(entries: Sequence[LogEntry], width: int | None = None) -> list[str]:
    """Log entries as ``play`` prints them: ``Round N`` headers, indented lines under them
    (wrapped at ``width`` if given, so that a line is a row of the terminal)."""
    buffer = io.StringIO()
    LogPrinter(buffer).flush(SimpleNamespace(log=list(entries)))
    lines = buffer.getvalue().splitlines()
    return lines if width is None else fit(lines, width)


def fit(lines: Sequence[str], width: int, indent: str = "      ") -> list[str]:
    """Lines wrapped at ``width``, continuations indented: one terminal row a line."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        out.extend(
            textwrap.wrap(line, width, initial_indent="", subsequent_indent=lead + indent)
            or [line[:width]]
        )
    return out


def recent_lines(entries: Sequence[LogEntry], budget: int, width: int | None = None) -> list[str]:
    """The most recent entries that fit ``budget`` lines, and a note on those left out.

    >>> log = [(1, 0, "a"), (1, 1, "b"), (2, 2, "c")]
    >>> recent_lines(log, 9)
    ['Round 1', '  seat 0: a', '  seat 1: b', 'Round 2', '  seat 2: c']
    >>> recent_lines(log, 3)
    ["  (2 earlier lines not shown; 'log' shows them all)", 'Round 2', '  seat 2: c']
    """
    entries = list(entries)
    lines = log_lines(entries, width)
    if len(lines) <= budget:
        return lines
    for keep in range(len(entries) - 1, 0, -1):
        lines = log_lines(entries[-keep:], width)
        if len(lines) + 1 <= budget:
            break
    else:
        keep, lines = 0, []
    skipped = len(entries) - keep
    word = "line" if skipped == 1 else "lines"
    return [f"  ({skipped} earlier {word} not shown; 'log' shows them all)", *lines]


def _part(field: Field, value: Any, names_up_to: int, own: bool = False) -> str | None:
    """One field in a few words (None: nothing worth a word, an empty pile or a zero; the
    seat's own numbers are said at zero too: "Coins 0" is worth reading)."""
    if own and isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return f"{field.label} 0"
    if value is None or value is False or value == 0 or value in ("", "none"):
        return None
    if value is True:
        return field.label
    count = pile_size(value)
    if count is None and isinstance(value, (Mapping, list, tuple)):
        return None if not value or value.get("hidden") else field.label  # type: ignore[union-attr]
    if count is None:
        return f"{field.label} {', '.join(c.text for c in field.chips)}"
    if count == 0:
        return None
    hidden = is_hidden(value)
    # the same name once, with how many ("Top hat ×2"), so that more piles read
    shown: dict[str, int] = {}
    for chip in field.chips:
        shown[chip.text] = shown.get(chip.text, 0) + 1
    names = ", ".join(t if n == 1 else f"{t} ×{n}" for t, n in shown.items())
    if not hidden and len(names) <= names_up_to:
        return f"{field.label}: {names}"
    return f"{field.label} {count}"


def _wrap(head: str, parts: Sequence[str], width: int) -> list[str]:
    """``head`` then the parts joined by `` · ``, wrapped at ``width``, never inside a part."""
    lines: list[str] = []
    line = head
    for part in parts:
        joint = "" if line == head else SEP
        if line != head and len(line) + len(joint) + len(part) > width:
            lines.append(line.rstrip(" ·"))
            line, joint = "    ", ""
        line += joint + part
    lines.append(line)
    return fit(lines, width, "    ")


def _names_up_to(own: bool) -> int:
    """The seat's own piles are listed by name, however long (its island, its hand); the
    others' counted."""
    return 10**6 if own else 0


def summary_lines(
    board: Board, view: Mapping[str, Any], viewer: Any, width: int, rows: int | None = None
) -> list[str]:
    """The board in a few lines: the round and shared essentials, then one entry per seat
    (the viewer's first, ``*`` on the seat to move); empty piles and zeros left out.

    ``rows``: the lines there is room for. When the whole summary does not fit, the viewer's
    own entry comes first and stays whole (the seat's own coins and piles are what it
    decides by); the round's line and the others follow as far as they fit, then a line
    saying the whole board is one key away."""
    shared_values = dict(view.get("global", {}))
    parts = [
        part
        for zone in board.zones
        for f in zone.fields
        if (part := _part(f, shared_values.get(f.name), SHARED_NAMES)) is not None
    ]
    lines = _wrap(f"Round {board.round}: ", parts, width)
    players = {int(p.get("seat", i)): p for i, p in enumerate(view.get("players", []))}
    seats = sorted(board.seats, key=lambda z: z.seat != viewer)
    mine: list[str] = []
    for zone in seats:
        values = players.get(zone.seat if zone.seat is not None else -1, {})
        own = zone.seat == viewer
        head = zone.title + (" (you)" if own else "") + (" *" if zone.seat == board.to_move else "")
        seat_parts = [
            part
            for f in zone.fields
            if (part := _part(f, values.get(f.name), _names_up_to(own), own)) is not None
        ]
        entry = _wrap(f"{head}: ", seat_parts or ["-"], width)
        lines.extend(entry)
        if own:
            mine = entry
    if rows is None or len(lines) <= rows:
        return lines
    rest = [line for line in lines if line not in mine]
    room = max(rows - len(mine) - 1, 0)
    return [*mine[: max(rows - 1, 1)], *rest[:room], "  ... ('b' shows the whole board)"]


# -- ? NAME: a catalog entry's text -------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


def find_entry(pres: Presentation, name: str) -> tuple[str | None, str]:
    """The catalog entry ``name`` stands for (id or label, case-insensitive, or a unique
    prefix of either, or of a later word of the label), or None and why not (no such entry, or
    several: their names). Catalog entries come first, then other ids with a ``doc:`` text."""
    want = _norm(name)
    if not want:
        return None, "name an entry: '? NAME' (an id, a name or the start of one)"
    others = [k for k in pres.docs if k not in pres.pieces]
    for keys in (list(pres.pieces), others):
        found = _matches(pres, keys, want)
        if len(found) == 1:
            return found[0], ""
        if found:
            shown = ", ".join(pres.label(k) for k in found[:8]) + (
                ", ..." if len(found) > 8 else ""
            )
            return None, f"{name!r} names several entries: {shown}; type more of it"
    names = {_norm(pres.label(k)): k for k in [*pres.pieces, *others]}
    close = difflib.get_close_matches(want, list(names), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(pres.label(names[c]) for c in close)}?" if close else ""
    return None, f"nothing called {name!r} in this game's catalogs{hint}"


def _matches(pres: Presentation, keys: Sequence[str], want: str) -> list[str]:
    """The keys ``want`` names: exactly, else by the start of the id or name, else by the
    start of a later word of the name ("roaster")."""
    exact = [k for k in keys if want in (_norm(k), _norm(pres.label(k)))]
    if exact:
        return exact
    found = [k for k in keys if _norm(k).startswith(want) or _norm(pres.label(k)).startswith(want)]
    return found or [k for k in keys if f" {want}" in f" {_norm(pres.label(k))}"]


def describe(pres: Presentation, key: str, width: int) -> list[str]:
    """A catalog entry for a person: its card face (table/presenter.py ``card_face``, the one the
    web table draws): its name, cost, VP and kind, then its ``doc:`` text, wrapped to ``width``."""
    face = pres.card_face(key)
    lines = [f"{face.name}  [{key}]"]
    numbers = pres.face_words(face)
    if numbers:
        lines.extend(textwrap.wrap(numbers, width, initial_indent="  ", subsequent_indent="  "))
    lines.extend(
        textwrap.wrap(face.doc, width, initial_indent="  ", subsequent_indent="  ")
        or ["  (no text: the ruleset gives this entry no doc:)"]
    )
    return lines


def option_grid(options: Sequence[Mapping[str, Any]], width: int, rows: int) -> list[str]:
    """Numbered options in columns (texts cut to fit), for a list too long for the screen;
    column by column, so the numbers read downwards."""
    cells = [f"{n:>{len(str(len(options)))}}) {o['text']}" for n, o in enumerate(options, 1)]
    for columns in range(2, 5):
        height = -(-len(cells) // columns)
        if height <= rows:
            break
    cell = max(8, (width - 2) // columns - 2)
    cut = [c if len(c) <= cell else c[: cell - 1] + "…" for c in cells]
    return [
        "  "
        + "  ".join(
            cut[r + k * height].ljust(cell) for k in range(columns) if r + k * height < len(cut)
        ).rstrip()
        for r in range(height)
    ]
