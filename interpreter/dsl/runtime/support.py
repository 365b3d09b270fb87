"""What generated rule code calls while a game runs: the rule-fault exception and the helpers
for reads and writes whose target is only known then (a seat number, a piece or an entry id).

Generated code reaches these through its namespace (see generator.py); nothing here knows a rule
name.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.runtime.runtime_state import RunningState

_MISSING = object()


class RuntimeRuleError(Exception):
    """A rule did something impossible while running (a bug in a rule file)."""


def initial_value(kind: str, start: Any) -> Any:
    """A field's value at the start of a game (and of its phase or round, when it is local: the
    reset of a local field calls it while the game runs)."""
    if kind == "counter":
        return int(start or 0)
    if kind == "bag":
        return dict.fromkeys(start, 0)
    if kind in ("pile", "area"):
        return []
    return start


def show(value: Any) -> str:
    """A value as a rule's text shows it: none, yes/no, else its plain str."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def fast_show(value: Any) -> str:
    return value if type(value) is str else show(value)


def named(value: Any, names: dict[str, str]) -> str:
    """A value as a log line shows it: an id the ruleset declares as its name (``names``, made
    by model/words.py), a list as its items' names in a sentence ("A, B and C"), a piece as its
    kind's name, a bag as its counts of names; anything else as :func:`show` writes it.

    >>> named(["big-hat", "hat", 2], {"big-hat": "Big hat", "hat": "Hat"})
    'Big hat, Hat and 2'
    """
    t = type(value)
    if t is str:
        return names.get(value, value)
    if t is list or t is tuple:
        items = [named(v, names) for v in value]
        if len(items) < 2:
            return "".join(items)
        return f"{', '.join(items[:-1])} and {items[-1]}"
    if t is dict:
        kind = value.get("type")
        if kind is not None:
            return named(kind, names)
        return ", ".join(f"{n} {named(k, names)}" for k, n in value.items() if n)
    return show(value)


def short(o: Any) -> str:
    text = repr(o)
    return text if len(text) < 60 else text[:57] + "..."


def player_or_piece_get(
    s: RunningState, o: Any, name: str, attrs: dict[str, dict[str, Any]]
) -> Any:
    """`o.name` where o may be a seat number, a piece or a catalog entry id."""
    t = type(o)
    if t is int:
        return s.p[o][name]
    if t is dict:
        r = o.get(name, _MISSING)
        if r is not _MISSING:
            return r
        return attrs[o["type"]][name]
    if t is str:
        return attrs[o][name]
    if o is None:
        raise RuntimeRuleError(f"cannot read '{name}' of none")
    raise RuntimeRuleError(f"cannot read '{name}' of {o!r}")


def static_attr(table: dict, o: Any, s: RunningState, name: str, attrs: dict) -> Any:
    """A catalog entry's fixed attribute, read by the entry id or a piece's type."""
    try:
        return table[o if type(o) is str else o["type"]]
    except (KeyError, TypeError):
        return player_or_piece_get(s, o, name, attrs)


def set_field(s: RunningState, o: Any, name: str, value: Any, op: str | None) -> None:
    """Assignment to `x.name` where x may be a seat (player field) or a piece."""
    if type(o) is int:
        o = s.p[o]
    elif type(o) is dict:
        if s.ab:  # a piece changed: what pieces grant may have changed
            s.ab.clear()
    else:
        raise RuntimeRuleError(f"cannot set '{name}' on {o!r}")
    if op is None:
        o[name] = value
    elif op == "+=":
        o[name] += value
    else:
        o[name] -= value


def set_field_in_range(
    s: RunningState, o: Any, name: str, value: Any, op: str | None, lo: int | None, hi: int | None
) -> None:
    """:func:`set_field` of a name that is a player counter with a declared range (least,
    greatest): a seat's value is checked after the write (a piece's field has no range)."""
    set_field(s, o, name, value, op)
    if type(o) is int:
        n = s.p[o][name]
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            out_of_range(s, s.p[o], name, lo, hi)


def out_of_range(s: RunningState, holder: dict, key: Any, lo: int | None, hi: int | None) -> None:
    """Raise the fault of a write that took holder[key] out of its declared range, naming the
    field (found in the state by identity), its seat and the entry."""
    n = holder[key]
    if lo is not None and n < lo:
        broken = f"below its minimum {lo}"
    else:
        broken = f"above its maximum {hi}"
    raise RuntimeRuleError(f"{_describe(s, holder, key)} would be {n}, {broken}")


def _describe(s: RunningState, holder: dict, key: Any) -> str:
    if holder is s.g:
        return f"'{key}'"
    for seat, pl in enumerate(s.p):
        if holder is pl:
            return f"'{key}' of seat {seat}"
    for name, v in s.g.items():
        if v is holder:
            return f"'{name}' entry '{key}'"
    for seat, pl in enumerate(s.p):
        for name, v in pl.items():
            if v is holder:
                return f"'{name}' of seat {seat}, entry '{key}',"
    return f"'{key}'"


def checked_index(o: Any, k: Any) -> Any:
    """`o[k]` in checked code (scenario expectations): a miss says what was missing where."""
    try:
        return o[k]
    except (KeyError, IndexError, TypeError):
        raise RuntimeRuleError(f"no entry {k!r} in {short(o)}") from None


def checked_divide(a: int, op: str, b: int) -> int:
    if b == 0:
        raise RuntimeRuleError("division by zero")
    return a // b if op == "//" else a % b
