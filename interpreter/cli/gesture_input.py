"""A gesture at the terminal (table/gestures.py): a run of one step's decisions the ruleset
groups, typed as one line and played as the seat's small moves.

The person is told what the run is for and how many picks it takes, and may type them all at
once: the options' numbers separated by spaces (``1 1 3``) or their ids or names separated by
commas (``red, red, blue``). An assignment also offers its proposal (the seat's last
placement at the step, the rest in the options' order): Enter alone takes it. One number or
name is one pick, as at any decision. The whole line is tried on a copy (the driver's ``plan``)
and refused whole, with the reason, when a pick is not legal where it comes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from interpreter.table.gestures import proposal

__all__ = ["Gesture", "gesture_lines", "typed_picks"]

# the moves of a list of picks, or a GestureRefused (the driver's, where the state is)
Plan = Callable[[Sequence[str]], list[str]]


class Gesture:
    """A gesture offered to a person: the server's description (``picks``, ``most``, ``text``,
    ``kind``, ``step``), the plan that tries a list, and the picks it starts from."""

    def __init__(self, found: Mapping[str, Any], plan: Plan, last: Sequence[str] = ()) -> None:
        self.found = found
        self.plan = plan
        self.proposal = proposal(found, last)

    @property
    def step(self) -> str:
        return str(self.found["step"])


def _numbers(picks: Sequence[str], legal: Sequence[str]) -> str:
    return " ".join(str(legal.index(p) + 1) for p in picks if p in legal)


def gesture_lines(
    gesture: Gesture, legal: Sequence[str], texts: Mapping[str, str], width: int
) -> list[str]:
    """What the person reads under the options, each line cut to ``width``: the run and how
    to type it, and an assignment's proposal (Enter alone)."""
    found = gesture.found
    picks = int(found["picks"])
    # an example the person could type: an assignment may name one option again and again
    example = ["1"] * picks if found["kind"] == "assign" else [str(n + 1) for n in range(picks)]
    lines = [
        f"{found['text']}: type all {picks} in one line, e.g. {' '.join(example[:3])}"
        " (or names, with commas)"
    ]
    if gesture.proposal:
        counts: dict[str, int] = {}
        for pick in gesture.proposal:
            counts[pick] = counts.get(pick, 0) + 1
        named = ", ".join(
            f"{texts.get(o, o)}" + (f" x{n}" if n > 1 else "") for o, n in counts.items()
        )
        lines.append(f"Enter alone: {_numbers(gesture.proposal, legal)} ({named})")
    return [line if len(line) < width else line[: width - 2] + "…" for line in lines]


def typed_picks(
    answer: str,
    legal: Sequence[str],
    gesture: Gesture,
    pick: Callable[[str, Sequence[str], Any], tuple[str | None, str]],
    texts: Mapping[str, str] | None,
) -> tuple[list[str] | None, str]:
    """The picks a line names (None, "": not a list, read it as one pick; None, why: a list
    with a part that names no option)."""
    if not answer:
        return (list(gesture.proposal), "") if gesture.proposal else (None, "")
    if "," in answer:
        parts = [p.strip() for p in answer.split(",") if p.strip()]
    elif re.fullmatch(r"\d+(\s+\d+)+", answer):
        parts = answer.split()
    else:
        return None, ""
    picks = []
    for part in parts:
        choice, problem = pick(part, legal, texts)
        if choice is None:
            return None, problem
        picks.append(choice)
    return picks, ""
