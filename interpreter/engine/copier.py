"""A copy of a state's fields shaped by their declarations, for tree search (a copy per node).

Each field's declared kind says how deep its value goes: a counter is an int (shared), a bag
maps ids to counts and a pile lists ids (one level: `.copy()`), an area lists pieces (each a
flat dict of fields, copied), a `value` may hold anything (copied by walking it). The copy
function is generated once per compiled ruleset with every field named in it, so copying a
state is a few dict and list copies in one Python frame, where a pickle round trip would
rebuild every string too. Catalog data (attributes, tables) is
never in the state, so it is never copied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.dsl.emit.emitter import define, function_source
from interpreter.model.rules import Rules

FieldCopier = Callable[[dict[str, Any], list[dict[str, Any]]], tuple[dict, list]]


def copy_value(v: Any) -> Any:
    """A deep copy of plain data (dicts, lists and scalars), sharing only the scalars."""
    t = type(v)
    if t is dict:
        out = v.copy()
        for k, x in v.items():
            if type(x) is dict or type(x) is list:
                out[k] = copy_value(x)
        return out
    if t is list:
        out_list = v.copy()
        for i, x in enumerate(v):
            if type(x) is dict or type(x) is list:
                out_list[i] = copy_value(x)
        return out_list
    return v


def _flat_pieces(rules: Rules) -> bool:
    """Whether every piece field starts as a scalar (a piece copies with one `.copy()`)."""
    for defaults in rules.env.piece_defaults.values():
        for value in defaults.values():
            if isinstance(value, dict | list):
                return False
    return True


def _field_copies(holder: str, init: dict[str, tuple[str, Any]], flat_pieces: bool) -> str:
    """A dict display that copies `holder` (a Python name) field by field, in its key order."""
    parts = [f"**{holder}"]
    for name, (kind, _start) in init.items():
        key = f"{holder}[{name!r}]"
        if kind in ("bag", "pile"):
            parts.append(f"{name!r}: {key}.copy()")
        elif kind == "area" and flat_pieces:
            parts.append(f"{name!r}: [_x.copy() for _x in {key}]")
        elif kind in ("area", "value"):
            parts.append(f"{name!r}: _deep({key})")
    return "{" + ", ".join(parts) + "}"


def field_copier(rules: Rules) -> FieldCopier:
    """The function that copies (global fields, per-seat fields) of a state of `rules`.

    Keys keep their order (a dict display updates a key in place), so a copy's JSON is the
    original's.
    """
    flat = _flat_pieces(rules)
    copies = (
        f"return {_field_copies('g', rules.global_init, flat)}, "
        f"[{_field_copies('d', rules.player_init, flat)} for d in p]"
    )
    source = function_source("copy_fields", "g, p", [copies])
    return define(source, "copy_fields", {"_deep": copy_value}, "<state copier>")


def field_copies(rules: Rules) -> tuple[dict[str, Callable], dict[str, Callable]]:
    """Per field, the function that copies its value by its declared kind, as ``field_copier``
    does (global fields, per-seat fields): for a caller that copies a few fields at a time."""
    flat = _flat_pieces(rules)

    def by_kind(kind: str) -> Callable[[Any], Any]:
        if kind in ("bag", "pile"):
            return _shallow
        if kind == "area" and flat:
            return _pieces
        if kind in ("area", "value"):
            return copy_value
        return _same

    return (
        {name: by_kind(kind) for name, (kind, _start) in rules.global_init.items()},
        {name: by_kind(kind) for name, (kind, _start) in rules.player_init.items()},
    )


def _shallow(v: Any) -> Any:
    return v.copy()


def _pieces(v: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [x.copy() for x in v]


def _same(v: Any) -> Any:
    return v
