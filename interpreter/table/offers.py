"""What the seat to move is offered: each legal option with its words, family and tooltip
(the ``presentation:`` reader's), what it would change of the seat's own fields (its
``preview:``, tried on a copy of the state) and what it would cost. The same list is sent to
the web table (serve/messages.py) and shown at the terminal (cli/play.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpreter.engine.state import State
from interpreter.engine.view import own_fields
from interpreter.table.option_costs import cost_text
from interpreter.table.presenter import Presentation, preview_changes
from interpreter.table.shapes import OptionEntry

__all__ = ["option_preview", "options_of"]


def options_of(state: State, pres: Presentation, seat: int) -> list[OptionEntry]:
    """The legal options of the deciding seat, with text, family and tooltip, in engine order."""
    legal: Sequence[str] = state.legal_options()
    out = []
    before: dict[str, Any] = {}  # the seat's own entry now, taken once for every preview
    for option in legal:
        preview = option_preview(state, pres, option, seat, before)
        out.append(pres.option_entry(option, preview, cost_text(state, option)))
    return out


def option_preview(
    state: State, pres: Presentation, option: str, seat: int, known: dict[str, Any] | None = None
) -> dict[str, int] | None:
    """How the seat's own fields named by the option's ``preview:`` would change if it took
    ``option`` (tried on a copy of the state, up to the next decision, even one the engine
    would take by itself); None when the family previews nothing.
    ``known``: where the seat's own entry before the move is kept for the next option's
    preview (the seat's view, read in place: a preview only counts)."""
    names = pres.preview_fields(option)
    if not names:
        return None
    known = {} if known is None else known
    if "before" not in known:
        known["before"] = _own(state, seat)
    trial = state.copy()
    # the option's own effect only: a move the engine would then take by itself (the only
    # choice of the next decision) is that move's, not this option's
    trial.take_forced = False
    try:
        trial.apply(option)
    except Exception:  # noqa: BLE001 - a preview is a nicety; the move itself reports failures
        return None
    return preview_changes(known["before"], _own(trial, seat), names)


def _own(state: State, seat: int) -> dict[str, Any]:
    """The seat's own player entry as the seat sees it (the state's values, not copies)."""
    return own_fields(state.game.rules, state, seat)
