"""``rulebook show GAME [--with A,B] PATH``: the composed rule at a path, and where each part
of it was written.

What a house rule changes is easiest to write against what the game really is once its
expansions are applied: this prints the rule at PATH (a path as overlays spell it, e.g.
``tables/start-money`` or ``flow/round/2``) of the composed ruleset as YAML, then the file
and line each entry of it comes from, overlays' entries marked::

    $ rulebook show GAME --with house-rule.yaml tables/start-money
    ...   (docs/cli.md shows a real run)

``--json`` prints one JSON object on the last line (path, value, origins).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from typing import Any

from interpreter.cli import Command
from interpreter.cli.config import UsageError

__all__ = ["COMMAND", "described", "origins", "run"]


def origins(node: Any, path: list[Any]) -> list[tuple[str, str | None, int | None]]:
    """(path, file, line) of every entry under `node` (at `path`), depth first; list items are
    spelt by name, id or word where that finds them alone (the paths an overlay should write)."""
    from interpreter.compose.paths import better_segment
    from interpreter.load.locate import is_map, is_seq, key_position, slash_path

    out: list[tuple[str, str | None, int | None]] = []

    def walk(value: Any, at: list[Any]) -> None:
        if not (is_map(value) or is_seq(value)):
            return
        for k in list(value) if is_map(value) else range(len(value)):
            file, line, _col = key_position(value, k)
            spelt = k if is_map(value) else (better_segment(value, k) or k)
            out.append((slash_path([*at, spelt]), file, line))
            walk(value[k], [*at, spelt])

    walk(node, path)
    return out


def described(data: Any, walked: list[Any]) -> str | None:
    """What the rule at a path means, in the ruleset's words: a table's or an option's
    ``presentation: docs:`` text (a table says what it is for there, an option in its own
    ``doc:``), else an entry's own ``doc:``."""
    if not walked:
        return None
    node: Any = data
    for key in walked:
        node = node[key]
    if hasattr(node, "get") and isinstance(node.get("doc"), str):
        return " ".join(node["doc"].split())
    docs = (data.get("presentation") or {}).get("docs") or {}
    text = docs.get(str(walked[-1])) if len(walked) == 2 else None
    return " ".join(text.split()) if isinstance(text, str) else None


def _shown(file: str | None) -> str | None:
    """A file as the user would type it: relative to the current folder when inside it."""
    if file is None:
        return None
    rel = os.path.relpath(file)
    return file if rel.startswith("..") else rel


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook show``."""
    from ruamel.yaml import YAML

    from interpreter.cli.config import split_commas
    from interpreter.compose.paths import find_item
    from interpreter.engine.loader import load_rules_data
    from interpreter.load.locate import slash_path, split_path

    overlays = split_commas(args.overlays) or []
    data, _sources, base_path, _ids = load_rules_data(args.game, overlays)
    node: Any = data
    walked: list[Any] = []
    for segment in split_path(args.path):
        lookup = find_item(node, segment)
        found, real = lookup.found, lookup.key
        if not found:
            from interpreter.diagnostics.suggest import did_you_mean

            here = slash_path(walked) or "the ruleset"
            keys = [str(k) for k in node] if hasattr(node, "keys") else []
            guess = did_you_mean(str(segment), keys) if keys else None
            hint = f" (did you mean '{guess}'?)" if guess else ""
            raise UsageError(f"{here} has no entry '{segment}'{hint}")
        walked.append(real)
        node = node[real]
    from interpreter.compose.paths import named_path

    base = str(base_path)
    spelt = named_path(data, walked)
    parts = origins(node, spelt)
    meaning = described(data, walked)
    if args.json:
        from interpreter.model.values import plain

        doc = {
            "path": slash_path(spelt),
            "value": plain(node),
            "doc": meaning,
            "origins": [{"path": p, "file": f, "line": n} for p, f, n in parts],
        }
        print(json.dumps(doc, ensure_ascii=False, default=str))
        return 0
    text = io.StringIO()
    if meaning:
        print(f"# {meaning}")
    yaml = YAML()
    yaml.width = 100
    yaml.dump({slash_path(spelt) or "ruleset": node}, text)
    print(text.getvalue().rstrip("\n"))
    changed: list[tuple[str, str | None, int | None]] = []
    for p, f, n in parts:
        if f is None or f == base:
            continue
        if changed and p.startswith(changed[-1][0] + "/") and f == changed[-1][1]:
            continue  # inside an entry the same overlay wrote whole
        changed.append((p, f, n))
    files = len({f for _, f, _ in changed})
    print(f"# from {_shown(base)}" + (f", changed by {files} overlay file(s):" if changed else ""))
    for p, f, n in changed:
        print(f"#   {p}: {_shown(f)}:{n}")
    sys.stdout.flush()
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook show``."""
    from interpreter.cli.flags import add_overlays

    parser.add_argument("game", metavar="GAME", help="a game name or a ruleset file")
    parser.add_argument("path", metavar="PATH", help="a path as overlays spell it")
    add_overlays(parser, "overlays to apply first, in order (comma-separated, repeatable)")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object on the last line"
    )


COMMAND = Command(
    name="show",
    help="print the composed rule at a path, and where each part of it was written",
    description="Print the rule at PATH of GAME with its overlays applied, as YAML, and the "
    "file and line of each entry an overlay wrote. Exit code 2 for a path that does not exist.",
    configure=configure,
    run=run,
)
