"""Who sits where, in words: each seat's name and colour at the web table and the terminal.

A person names their own seat when they open its link (``POST /api/tables/ID/name``, checked
by :func:`check_name`); until then the seat is "Player N" (N counted from 1). A bot's seat is
named by its kind ("Heuristic bot", numbered when several share it). The engine's log and
texts say "seat N": :func:`with_names` puts the names in at presentation, never in the
engine, so saves, replays and goldens keep the engine's words. A name is public: every seat
and every spectator reads the same names, so no hidden information rides on one.

Each seat also has a colour (:data:`SEAT_COLOURS`), used for its area on the board, its log
lines and its score row; every colour reads as text at WCAG AA contrast (4.5:1 or more) on
the page's white, cream and beige backgrounds (tests/serve/test_names.py measures it).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from interpreter.bots.registry import bot_title

__all__ = [
    "HUMAN",
    "MAX_NAME",
    "SEAT_COLOURS",
    "NameRefused",
    "check_name",
    "seat_colour",
    "seat_names",
    "with_names",
]

HUMAN = "human"
MAX_NAME = 24  # characters: a name fits a score column and a phone's status line
# blue, red, green, violet, brown, teal: 5.4:1 to 6.7:1 on white
SEAT_COLOURS = ("#1f5fa8", "#b3261e", "#1b7a3a", "#7b3fa8", "#a14d00", "#00707a")

_SEAT = re.compile(r"\bseat (\d+)\b", re.IGNORECASE)
_SEAT_LIKE = re.compile(r"^(seat|player)\s*\d+$", re.IGNORECASE)


class NameRefused(ValueError):
    """A name a seat may not take, with why (for people)."""


def default_name(seat: int) -> str:
    """A person's seat before its person names it."""
    return f"Player {seat + 1}"


def seat_names(seats: Sequence[str], chosen: Mapping[int, str] | None = None) -> list[str]:
    """Every seat's name: a person's own (``chosen``) or "Player N"; a bot's kind, numbered
    when several seats share it ("Heuristic bot 1", "Heuristic bot 2")."""
    chosen = chosen or {}
    titles = [None if kind == HUMAN else bot_title(kind) for kind in seats]
    out = []
    for seat, title in enumerate(titles):
        if title is None:
            out.append(chosen.get(seat) or default_name(seat))
        elif titles.count(title) > 1:
            out.append(f"{title} {titles[: seat + 1].count(title)}")
        else:
            out.append(title)
    return out


def seat_colour(seat: int | None) -> str:
    """The colour of a seat ("" for none)."""
    if seat is None or seat < 0:
        return ""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def check_name(raw: object, seat: int, names: Sequence[str]) -> str:
    """A person's name for ``seat`` as it will be shown: spaces folded, at most
    :data:`MAX_NAME` characters, no control or format character (a bidi override would turn
    the log around it), not another seat's name nor "seat N" / "Player N" of another seat.
    Anything else raises :class:`NameRefused` (nothing is cut: the person sees why)."""
    if not isinstance(raw, str):
        raise NameRefused("'name' must be a text")
    if len(raw) > 4 * MAX_NAME:
        raise NameRefused(f"a name has at most {MAX_NAME} characters")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise NameRefused("a name needs at least one letter")
    if len(name) > MAX_NAME:
        raise NameRefused(f"a name has at most {MAX_NAME} characters (this one has {len(name)})")
    odd = next((c for c in name if unicodedata.category(c).startswith("C")), None)
    if odd is not None:
        raise NameRefused(f"a name cannot hold the control character U+{ord(odd):04X}")
    if _SEAT_LIKE.match(name) and name.casefold() != default_name(seat).casefold():
        raise NameRefused(f"{name!r} reads as another seat's number; choose a name")
    for other, taken in enumerate(names):
        if other != seat and taken.casefold() == name.casefold():
            raise NameRefused(f"another seat is called {taken!r}; choose another name")
    return name


def with_names(text: str, names: Sequence[str]) -> str:
    """The engine's "seat N" in a text as that seat's name.

    >>> with_names("seat 1 takes the Hat; seat 0 passes", ["Ana", "Heuristic bot"])
    'Heuristic bot takes the Hat; Ana passes'
    """

    def name(found: re.Match[str]) -> str:
        seat = int(found.group(1))
        return names[seat] if seat < len(names) else found.group(0)

    return _SEAT.sub(name, text)
