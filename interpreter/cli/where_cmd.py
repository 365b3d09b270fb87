"""``rulebook where FILE:LINE``: the path of the rule written at a line of a rule file.

An overlay addresses what it changes by path (``replace: {flow/round/2/...: ...}``); counting
list items by hand to find one is slow and easy to get wrong. This prints the path of the
deepest entry written at (or spanning) the line, in the overlay spelling, and names each list
item on the way by its ``name:``, an option by its id's family or id, a word of a list of words
by the word (the path then survives items added before it) and says what each item is::

    $ rulebook where ruleset.yaml:480
    flow/round/pick-roles/repeat/steps/pick-one/choose/options/pick/do
      (by position: flow/round/2/repeat/steps/1/choose/options/0/do)
      ...   (docs/cli.md shows a real run)

``--json`` prints one JSON object on the last line (file, line, path, by_position, pointer,
items).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from interpreter.cli import Command
from interpreter.cli.config import UsageError
from interpreter.compose.paths import named_path

__all__ = ["COMMAND", "describe_items", "run"]

_STEP_WORDS = ("choose", "repeat", "phase", "if", "do", "log", "each-player", "stop-if")


def describe_items(
    root: Any, path: list[Any], shown: list[Any] | None = None
) -> list[tuple[str, str]]:
    """Each list item along `path`: (its path, spelt as `shown` spells it, and what it is: an
    option, a step, a named item)."""
    from interpreter.load.locate import is_map, slash_path

    out: list[tuple[str, str]] = []
    node = root
    for i, segment in enumerate(path):
        node = node[segment]
        if not isinstance(segment, int) or not is_map(node):
            continue
        where = slash_path((shown or path)[: i + 1])
        kind = next((k for k in _STEP_WORDS if k in node), None)
        if "id" in node:
            out.append((where, f"the option `{node['id']}`"))
        elif kind is not None:
            label = node[kind].get("label") if is_map(node[kind]) else None
            article = "an" if kind[0] in "aeiou" else "a"
            out.append((where, f"{article} `{kind}` step" + (f" ({label})" if label else "")))
        elif isinstance(node.get("name"), str):
            out.append((where, f"the item `{node['name']}`"))
    return out


def composed_path(root: Any, path: list[Any]) -> tuple[list[Any], list[tuple[str, str]]] | None:
    """For a line of an overlay's operation (``replace: {phases/PHASE/...: ...}``), the path
    the entry written there has in the composed game (the operation's path, then the path inside
    its value, list items by name), with the list items along it: the path another overlay
    writes to change it. None for a line that is not inside an operation."""
    from interpreter.compose.operations import OPERATIONS
    from interpreter.load.locate import is_map, slash_path, split_path

    if len(path) < 2 or not is_map(root) or path[0] not in OPERATIONS:
        return None
    if path[0] == "remove":
        target = root["remove"][path[1]]
        return (split_path(target), []) if isinstance(target, str) else None
    head = split_path(str(path[1]))
    value = root[path[0]][path[1]]
    inside = path[2:]
    spelt = named_path(value, inside)
    items = describe_items(value, inside, spelt)
    prefix = slash_path(head)
    return [*head, *spelt], [(f"{prefix}/{where}", what) for where, what in items]


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook where``."""
    from interpreter.load.locate import json_pointer, path_at, slash_path
    from interpreter.load.yamlload import load_yaml_file

    file, sep, number = str(args.location).rpartition(":")
    if not sep or not file or not number.isdigit() or int(number) < 1:
        raise UsageError(f"expected FILE:LINE (a line number from 1), got {args.location!r}")
    line = int(number)
    doc = load_yaml_file(file)  # a missing or malformed file is a clear error (exit 1 / 2)
    lines = doc.text.count("\n") + (0 if doc.text.endswith("\n") else 1)
    if line > lines:
        raise UsageError(f"{file} has {lines} lines, not {line}")
    path = path_at(doc.data, line)
    named = named_path(doc.data, path)
    items = describe_items(doc.data, path, named)
    composed = composed_path(doc.data, path)
    if composed is not None:
        named, items = composed
    if args.json:
        print(
            json.dumps(
                {
                    "file": file,
                    "line": line,
                    "path": slash_path(named),
                    "by_position": slash_path(path),
                    "in_file": slash_path(named_path(doc.data, path)),
                    "pointer": json_pointer(path),
                    "items": [{"path": p, "what": w} for p, w in items],
                },
                ensure_ascii=False,
            )
        )
    elif not path:
        print(f"{file}:{line}: no rule entry is written there (before the first one)")
    else:
        print(slash_path(named))
        if composed is not None:
            print(f"  (in this overlay file: {slash_path(named_path(doc.data, path))})")
        elif named != path:
            print(f"  (by position: {slash_path(path)})")
        for where, what in items:
            print(f"  {where}: {what}")
    sys.stdout.flush()
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook where``."""
    parser.add_argument("location", metavar="FILE:LINE", help="a rule file and a line of it")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object on the last line"
    )


COMMAND = Command(
    name="where",
    help="print the path (for an overlay) of the rule written at FILE:LINE",
    description="Print the path of the deepest entry written at or spanning a line of a rule "
    "file, in the spelling overlays use, with the list items on the way named by their id, "
    "name or step. Exit code 2 for a malformed FILE:LINE or a line past the end.",
    configure=configure,
    run=run,
)
