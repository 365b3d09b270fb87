"""The words a composed rule tree holds, wherever they are written: every key and text, the log
templates, and the ids of the options a game can offer. What a scenario may name is checked
against them (model/logtexts.py, ruleset/option_names.py), without compiling anything.

>>> words = Vocabulary.from_data({"flow": {"round": [
...     {"log": "round {round}"},
...     {"choose": {"options": [{"id": "take:{c}", "log": {"text": "took {c}"}}]}}]}})
>>> words.log_templates, words.option_ids
(('took {c}', 'round {round}'), ('take:{c}',))
>>> sorted(words.keys)[:3]
['choose', 'flow', 'id']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from interpreter.load.locate import is_map, is_seq

__all__ = ["Vocabulary", "choose_options"]

_LOG_STATEMENT = re.compile(r"\blog\s+\"([^\"]*)\"")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Every key (as text) and every text value of a rule tree, the log templates (``log:``
    texts, a log step's or option's public ``text:``, and the ``log "..."`` of effect texts;
    duplicates kept, in the order found) and the id of every option offered (a ``choose``
    step's, a card's ``may:``), in file order."""

    keys: frozenset[str] = frozenset()
    texts: frozenset[str] = frozenset()
    log_templates: tuple[str, ...] = ()
    option_ids: tuple[str, ...] = ()

    @classmethod
    def from_data(cls, data: object) -> Vocabulary:
        keys: set[str] = set()
        texts: set[str] = set()
        logs: list[str] = []
        stack = [data]
        while stack:
            node = stack.pop()
            if is_map(node):
                keys.update(str(k) for k in node)
                stack.extend(node.values())
                if "log" in node:
                    line = node["log"]
                    text = line.get("text") if is_map(line) else line
                    if isinstance(text, str):
                        logs.append(text)
            elif is_seq(node):
                stack.extend(node)
            elif isinstance(node, str):
                texts.add(node)
                if "log" in node:
                    logs.extend(_LOG_STATEMENT.findall(node))
        ids = (option.get("id") for _path, option in choose_options(data))
        return cls(
            frozenset(keys),
            frozenset(texts),
            tuple(logs),
            tuple(i for i in ids if isinstance(i, str)),
        )


def choose_options(data: Any) -> Iterator[tuple[list[str | int], Mapping[str, Any]]]:
    """Every option of every ``choose`` step of a ruleset, with its path, in file order: the
    one walk over them (option families, id templates for the scenario checks). A card's
    ``may:`` (model/may.py) is one too: the option its owner is asked about."""

    def walk(node: Any, path: list[str | int]) -> Iterator[tuple[list[str | int], Any]]:
        if isinstance(node, Mapping):
            may = node.get("may")
            if isinstance(may, Mapping) and "id" in may:
                yield [*path, "may"], may
            choose = node.get("choose")
            options = choose.get("options") if isinstance(choose, Mapping) else None
            if isinstance(options, list):
                for i, option in enumerate(options):
                    if isinstance(option, Mapping):
                        yield [*path, "choose", "options", i], option
            for key, value in node.items():
                yield from walk(value, [*path, str(key)])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, [*path, i])

    return walk(data, [])
