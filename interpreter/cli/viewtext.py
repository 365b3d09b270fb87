"""A seat's view as text: nested blocks, short parts kept on one line (the plain screen of a
person at the terminal, where the ruleset has no presentation)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.cli.logfmt import format_value

__all__ = ["WIDTH", "format_view"]

WIDTH = 100


def _inline(value: Any) -> str:
    """One-line form of a value: ``{a: 1, b: [x, y]}``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, str):
        return value if value else '""'
    return format_value(value)


def format_view(view: Any, indent: int = 0, width: int = WIDTH) -> str:
    """Pretty-print a JSON-like view compactly: nested blocks, short parts kept on one line.

    >>> print(format_view({"round": 2, "phase": "b", "you": {"cards": ["a", "b"], "score": 3},
    ...                    "table": [{"x": 1}, {"x": 2}]}, width=30))
    round: 2, phase: b
    you: {cards: [a, b], score: 3}
    table: [{x: 1}, {x: 2}]
    """
    return "\n".join(_block(view, indent, width))


def _block(value: Any, indent: int, width: int) -> list[str]:
    pad = " " * indent
    if isinstance(value, Mapping):
        if not value:
            return [pad + "{}"]
        lines = []
        scalars: dict[Any, Any] = {}  # a run of scalar entries, packed several per line
        for key, item in value.items():
            if not isinstance(item, (Mapping, list, tuple)):
                scalars[key] = item
                continue
            if scalars:
                lines.extend(_packed(scalars, indent, width))
                scalars = {}
            one = f"{pad}{key}: {_inline(item)}"
            if len(one) <= width or not isinstance(item, (Mapping, list, tuple)) or not item:
                lines.append(one)
            elif _flat(item):
                lines.append(f"{pad}{key}:")
                lines.extend(_packed(item, indent + 2, width))
            else:
                lines.append(f"{pad}{key}:")
                lines.extend(_block(item, indent + 2, width))
        if scalars:
            lines.extend(_packed(scalars, indent, width))
        return lines
    if isinstance(value, (list, tuple)):
        if not value:
            return [pad + "[]"]
        lines = []
        for item in value:
            one = f"{pad}- {_inline(item)}"
            if len(one) <= width or not isinstance(item, (Mapping, list, tuple)):
                lines.append(one)
            else:
                sub = _block(item, indent + 2, width)
                lines.append(f"{pad}- {sub[0].lstrip()}")
                lines.extend(sub[1:])
        return lines
    return [pad + _inline(value)]


def _flat(value: Any) -> bool:
    """A mapping or list holding only scalars: worth packing several entries per line."""
    items = value.values() if isinstance(value, Mapping) else value
    return not any(isinstance(v, (Mapping, list, tuple)) for v in items)


def _packed(value: Any, indent: int, width: int) -> list[str]:
    """Scalars of a flat mapping/list, comma-separated and wrapped at ``width``."""
    if isinstance(value, Mapping):
        parts = [f"{k}: {_inline(v)}" for k, v in value.items()]
    else:
        parts = [_inline(v) for v in value]
    lines: list[str] = []
    line = ""
    for part in parts:
        if line and indent + len(line) + 3 + len(part) > width:  # ', ' + part + ','
            lines.append(" " * indent + line + ",")
            line = part
        else:
            line = f"{line}, {part}" if line else part
    lines.append(" " * indent + line)
    return lines
