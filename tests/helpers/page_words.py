"""What a player reads on a page, against the ruleset's ids: every hyphenated id of a composed
ruleset, and those found in a page's text (a word a player never reads)."""

from __future__ import annotations

import re


def hyphenated_ids(data: object) -> set[str]:
    """Every hyphenated id of the composed ruleset: its keys and its string values that look
    like ids (catalog entries, fields, phases, options, score components, end triggers)."""
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(str(key))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str) and re.fullmatch(r"[a-z]+(-[a-z0-9]+)+", node):
            found.add(node)

    walk(data)
    return found


def ids_in(text: str, ids: set[str]) -> list[str]:
    """The ids of ``ids`` that ``text`` holds as words."""
    words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", text))
    return sorted(words & ids)
