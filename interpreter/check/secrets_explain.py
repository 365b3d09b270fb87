"""What makes a leak check's finding easy to act on: where it is, by name, and the two worlds.

* :func:`named_pointer`: a finding's JSON path spelt with the names of the steps and the ids of
  the options it passes through (``/flow/round/peek/log``, not ``/flow/round/1/log``): the
  path an overlay would write to change that rule, which does not move when a step is added.
* :func:`explain`: the two worlds a finding compares, side by side: the true game and the one
  drawn that the seat cannot tell from it, the line (or option text, or who moves) each tells
  the seat, and every field the seat may not see that differs between them.
  ``rulebook validate FILE --secrets 1 --seed S --explain D`` prints it for the findings met at
  decision D of the game of seed S; each finding's hint gives that command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.compose.paths import named_path
from interpreter.load.locate import json_pointer, split_path

__all__ = ["explain", "named_pointer"]

_WIDTH = 44  # characters of a value shown in one column
_FIELDS = 12  # differing fields shown at most


def named_pointer(data: Any, pointer: str) -> str:
    """`pointer` (a JSON pointer into the composed rule data) with each list position replaced
    by the name, id or id family that finds that item alone (unchanged where none does)."""
    if not pointer or data is None:
        return pointer
    return json_pointer(named_path(data, split_path(pointer)))


def explain(
    seat: int,
    told: tuple[str | None, str | None],
    worlds: tuple[Any, Any],
    what: str = "log line",
) -> str:
    """The two worlds side by side as `seat` is told them: what each tells it (`told`: the
    true world's, then the drawn one's; None: nothing) and the fields it may not see that
    differ (`worlds`: the true state, then the drawn one, as they stood then)."""
    who = "a spectator" if seat < 0 else f"seat {seat}"
    rows: list[tuple[str, str, str]] = [
        (what, _said(told[0]), _said(told[1])),
    ]
    rows += _differences(worlds[0], worlds[1], seat)
    head = ("", "this game", f"a game {who} cannot tell from it")
    width = max(len(r[0]) for r in (head, *rows))
    out = []
    for name, mine, theirs in (head, *rows):
        out.append(f"  {name:<{width}}  {_cut(mine):<{_WIDTH}}  {_cut(theirs)}".rstrip())
    return "\n".join(out)


def _said(text: str | None) -> str:
    return "(nothing)" if text is None else repr(str(text))


def _cut(text: str) -> str:
    return text if len(text) <= _WIDTH else text[: _WIDTH - 3] + "..."


def _differences(a: Any, b: Any, seat: int) -> list[tuple[str, str, str]]:
    """The fields of the state `seat` may not see (hidden ones, other seats' hidden ones)
    whose values differ between `a` and `b`, as rows (field, value in a, value in b)."""
    rules = a.game.rules
    rows: list[tuple[str, str, str]] = []
    for name in sorted(set(a.g) | set(b.g)):
        va, vb = a.g.get(name), b.g.get(name)
        if va != vb and name in rules.hidden_global:
            rows.append((name, _value(va), _value(vb)))
    for pa, pb in zip(a.p, b.p, strict=False):
        if pa.get("seat") == seat:
            continue
        for name in sorted(set(pa) | set(pb)):
            va, vb = pa.get(name), pb.get(name)
            if va != vb and name in rules.hidden_player:
                rows.append((f"seat {pa.get('seat')} {name}", _value(va), _value(vb)))
    if len(rows) > _FIELDS:
        rows = [*rows[:_FIELDS], (f"(and {len(rows) - _FIELDS} more)", "", "")]
    if not rows:
        rows.append(("(no hidden field differs)", "", ""))
    return rows


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items() if v) + "}"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)
