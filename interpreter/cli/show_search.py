"""``rulebook show GAME WORD``: every rule whose name or text holds a word.

An author who wants to change "who offers this card" or "who listens to the end of that
phase" knows a word, not a path. When ``show``'s PATH is one word that is no entry of the
ruleset, each rule (a table, a game option, a catalog entry, a function, a procedure, an event,
a phase, a step, a decision's option, an entry's listener of an event) whose name or text holds
the word is listed once, by the deepest such rule around the match, with the path an overlay
writes to change it (list items by name or id), the file and line it was written at, and the
line of text that holds the word. A text line ``emit NAME(...)`` says which rules emit an event,
a key under ``on:`` which listen to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from interpreter.compose.paths import better_segment
from interpreter.load.locate import is_map, is_seq, key_position, slash_path

__all__ = ["Match", "search_rules"]

# top-level sections whose entries are rules, and what one of their entries is called
_SECTIONS = {
    "tables": "table",
    "options": "game option",
    "functions": "function",
    "procedures": "procedure",
    "events": "event",
    "phases": "phase",
    "sets": "set",
    "extension-points": "extension point",
    "scoring": "score component",
    "invariants": "invariant",
}
# what the players see, not what the rules do: left out of a search for rules
_NOT_RULES = ("presentation",)
_STEP_WORDS = ("choose", "repeat", "phase", "if", "do", "log", "each-player", "stop-if")


@dataclass
class Match:
    """One rule holding the word: its overlay path, what it is, where it was written, and the
    lines of its text (or names) that hold the word."""

    path: str
    what: str
    file: str | None
    line: int | None
    texts: list[str] = field(default_factory=list)


def search_rules(data: Any, word: str) -> list[Match]:
    """Every rule of the composed ``data`` whose name or text holds ``word`` (case aside),
    deepest rule first within its place, in the order the ruleset reads."""
    needle = word.casefold()
    found: dict[str, Match] = {}

    def hit(unit: tuple[str, str, str | None, int | None], text: str | None) -> None:
        path, what, file, line = unit
        match = found.setdefault(path, Match(path, what, file, line))
        if text is not None and text not in match.texts:
            match.texts.append(text)
        if text is not None:
            emitted = re.search(r"\bemit\s+([\w-]+)", text)
            if emitted and needle in emitted.group(1).casefold() and "emits" not in match.what:
                match.what += f", emits {emitted.group(1)}"

    def walk(node: Any, at: list[Any], unit: tuple[str, str, str | None, int | None] | None):
        keys = list(node) if is_map(node) else range(len(node))
        for k in keys:
            if not at and k in _NOT_RULES:
                continue
            value = node[k]
            spelt = k if is_map(node) else (better_segment(node, k) or k)
            here = [*at, spelt]
            what = _kind(node, k, value, at)
            inner = unit
            if what is not None:
                file, line, _ = key_position(node, k)
                inner = (slash_path(here), what, file, line)
            if inner is None:
                if is_map(value) or is_seq(value):
                    walk(value, here, inner)
                continue
            if needle in str(spelt).casefold():
                hit(inner, None if what is not None else f"{k}: {_short(value)}")
            if is_map(value) or is_seq(value):
                walk(value, here, inner)
            elif k in ("name", "id") and is_map(node):
                continue  # the path already spells it
            elif isinstance(value, str) and "\n" in value.strip():
                for text in value.splitlines():
                    if needle in text.casefold():
                        hit(inner, text.strip())
            elif needle in str(value).casefold():
                hit(inner, f"{k}: {value}" if is_map(node) else str(value))

    walk(data, [], None)
    return list(found.values())


def _kind(container: Any, key: Any, value: Any, at: list[Any]) -> str | None:
    """What the entry ``container[key]`` (at path ``at``) is, when it is a rule of its own."""
    if is_seq(container):
        if not is_map(value):
            return None
        if isinstance(value.get("id"), str):
            return f"option `{value['id']}`"
        step = next((w for w in _STEP_WORDS if w in value), None)
        if step is not None:
            return f"`{step}` step"
        return "item" if isinstance(value.get("name"), str) else None
    if len(at) == 1 and at[0] in _SECTIONS:
        return _SECTIONS[at[0]]
    if len(at) == 1 and at[0] == "catalogs":
        return "catalog"
    if len(at) == 2 and at[0] == "state":
        return f"{at[1]} state field"
    if len(at) == 3 and at[0] == "catalogs" and at[2] == "entries":
        return f"{at[1]} entry"
    if at and at[-1] == "on" and len(at) >= 2:
        return f"listens to {key}"
    return None


def _short(value: Any) -> str:
    """A value on one line: a nested map or list as ``{...}`` / ``[...]``."""
    if is_map(value):
        return "{...}"
    if is_seq(value):
        return "[...]"
    return " ".join(str(value).split())
