"""How generated code is laid out (generator.py): the marks that tie each generated line to the
rule text's statement it was written for (so a failing line is reported at the rule file's
line and column), and the locals a generated function binds first, only when it uses them."""

from __future__ import annotations

import ast
import re

__all__ = ["MARK", "inner_mark", "inner_map", "is_mark", "line_map", "prologue", "reads_temp"]

# a comment line of generated code: the rule text's statement the next lines are written for
MARK = "#@"
# the same for a statement of an inlined procedure's own text (``#@@K:LINE:COL``, K the
# procedure text's place in the generator's list): the lines after it still count as the
# call's (line_map), and also as that statement's (inner_map)
_INNER = MARK + "@"


def is_mark(line: str) -> bool:
    return line.lstrip().startswith(MARK)


def inner_mark(line: str, place: int) -> str:
    """A statement mark of an inlined procedure's body made an inner one, of text `place`
    (an inner mark already, of a procedure it calls, is kept)."""
    body = line.lstrip()
    if body.startswith(_INNER):
        return line
    return line[: len(line) - len(body)] + f"{_INNER}{place}:{body[len(MARK) :]}"


def line_map(src: str) -> dict[int, tuple[int, int]]:
    """Each line of `src` after a statement mark -> that statement's (line, column); the
    lines of an inlined procedure count as its call's."""
    out: dict[int, tuple[int, int]] = {}
    at: tuple[int, int] | None = None
    for number, line in enumerate(src.split("\n"), 1):
        if is_mark(line):
            if not line.lstrip().startswith(_INNER):
                row, col = line.lstrip()[len(MARK) :].split(":")
                at = (int(row), int(col))
        elif at is not None:
            out[number] = at
    return out


def inner_map(src: str) -> dict[int, tuple[int, int, int]]:
    """Each line of `src` written for a statement of an inlined procedure -> (its text's
    place, the statement's line, column) in the procedure's own text."""
    out: dict[int, tuple[int, int, int]] = {}
    at: tuple[int, int, int] | None = None
    for number, line in enumerate(src.split("\n"), 1):
        body = line.lstrip()
        if body.startswith(_INNER):
            place, row, col = body[len(_INNER) :].split(":")
            at = (int(place), int(row), int(col))
        elif body.startswith(MARK):
            at = None
        elif at is not None:
            out[number] = at
    return out


# the locals a generated function starts with, each bound only when its body uses it (a
# rule text is called many times a decision: three unused attribute reads each add up)
_PROLOGUE = (
    ("g", "g = s.g"),
    ("t", "t = s.t"),
    ("P", "P = s.p"),
    ("V", "V = s.v"),
    ("J", "J = s.tj"),  # a journal build's notes (dsl/emit/journal.py)
)


def reads_temp(line: str, keys: frozenset[str]) -> bool:
    """Whether `line` is the top read of one of the temps `keys` (`_t0 = t.get('b#3')`)."""
    head, sep, key = line.partition(" = t.get(")
    return bool(sep) and head.startswith("_t") and ast.literal_eval(key[:-1]) in keys


def prologue(body: list[str]) -> list[str]:
    used = set(re.findall(r"\b[gtPVJ]\b", "\n".join(body)))
    return [line for name, line in _PROLOGUE if name in used]
