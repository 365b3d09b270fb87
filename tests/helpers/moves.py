"""Driving a real game from a test: every option asserted legal before it is applied."""

from __future__ import annotations

from typing import Any


def play(s: Any, *option_ids: str) -> None:
    """Apply options in order, each one asserted legal first (a clearer failure than the error)."""
    for oid in option_ids:
        legal = s.legal_options()
        assert oid in legal, f"{oid!r} not legal for seat {s.to_move}; legal: {legal}"
        s.apply(oid)


def pass_until_role(s: Any) -> None:
    """Pass (or take the first option) until the next role choice or the end of the game."""
    while not s.is_over and not any(o.startswith("role:") for o in s.legal_options()):
        opts = s.legal_options()
        s.apply("pass" if "pass" in opts else opts[0])
