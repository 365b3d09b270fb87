"""The end of a game in a person's words, the same at the terminal and on the web: the
final score table's rows (cli/logfmt.py prints them, serve/render.py makes them HTML, so both
agree to the cell) and an end trigger in brackets in the ruleset's words (``ends:``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.engine.frame import Result
from interpreter.engine.savefile import winners_of
from interpreter.engine.standings import tiebreak_text
from interpreter.table.presenter import Presentation

__all__ = ["score_rows", "worded_end"]

_BRACKETED_ID = re.compile(r"\(([a-z0-9]+(?:-[a-z0-9]+)*)\)")


def worded_end(text: str, pres: Presentation) -> str:
    """A log line with an end trigger in brackets (the engine's ``game over (TRIGGER)``, a
    rule's "the game will end after this round ({why})") in the ruleset's words (``ends:``).

    >>> worded_end("game over (city-full)", Presentation(ends={"city-full": "a city is full"}))
    'game over (a city is full)'
    """
    if not pres.ends:
        return text
    return _BRACKETED_ID.sub(
        lambda m: f"({pres.ends[m.group(1)]})" if m.group(1) in pres.ends else m.group(0), text
    )


def score_rows(
    result: Result | Mapping[str, Any],
    seats: Sequence[str],
    names: Sequence[str] | None = None,
    pres: Presentation | None = None,
) -> list[list[str]]:
    """The final score table, header first: marker, seat, player, components, total, tiebreak
    (the terminal's words); with ``names`` and ``pres``, a person's: marker, the seat's name,
    each component by the ruleset's label, total, and what the tiebreak counts.

    ``result`` is the engine's Result or its plain dict (``savefile.result_to_dict``).
    """
    if not isinstance(result, Mapping):
        result = {"scores": result.scores, "winner": result.winner, "winners": result.winners}
    winners = winners_of(result)  # every seat of a full tie is marked
    scores = [dict(s) for s in result["scores"]]
    components: list[str] = []
    for score in scores:
        for name in score.get("components", {}):
            if name not in components:
                components.append(name)
    if names is not None and pres is not None:
        words = [pres.score_label(name) for name in components]
        rows = [["", "Player", *words, "Total", pres.tiebreak_label]]
    else:
        rows = [["", "seat", "player", *components, "total", "tiebreak"]]
    for score in sorted(scores, key=lambda s: s["seat"]):
        seat = score["seat"]
        parts = score.get("components", {})
        known = 0 <= seat < len(seats)
        who = (
            [names[seat] if known else "?"]
            if names is not None and pres is not None
            else [str(seat), seats[seat] if known else "?"]
        )
        rows.append(
            [
                "*" if seat in winners else "",
                *who,
                *(str(parts.get(name, "")) for name in components),
                str(score["total"]),
                tiebreak_text(score.get("tiebreak", "")),
            ]
        )
    return rows
