"""``rulebook show GAME [--with A,B] PATH``: the composed rule at a path, and where each part
of it was written.

What a house rule changes is easiest to write against what the game really is once its
expansions are applied: this prints the rule at PATH (a path as overlays spell it, e.g.
``tables/start-money`` or ``flow/round/2``) of the composed ruleset as YAML, then the file
and line each entry of it comes from, overlays' entries marked::

    $ rulebook show GAME --with house-rule.yaml tables/start-money
    ...   (docs/cli.md shows a real run)

A section of knobs (``tables``) shows each entry's one-line description before it. A PATH of
one word that is no entry is a search: every rule whose name or text holds the word, with the
path an overlay writes (interpreter/cli/show_search.py).

``--json`` prints one JSON object on the last line (path, value, doc, entry_docs, origins; for
a search, word and matches).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from interpreter.cli import Command
from interpreter.cli.config import UsageError

if TYPE_CHECKING:
    from interpreter.ruleset.ruleset import Ruleset

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


def described(ruleset: Ruleset, walked: list[Any]) -> str | None:
    """What the rule at a path means, in the ruleset's words: a table's or an option's
    ``presentation: docs:`` text (a table says what it is for there, an option in its own
    ``doc:``), else an entry's own ``doc:`` (found in the composed tree this command shows)."""
    from interpreter.load.locate import is_map
    from interpreter.model.words import doc_text

    if not walked:
        return None
    node: Any = ruleset.data
    for key in walked:
        node = node[key]
    if is_map(node) and isinstance(node.get("doc"), str):
        return doc_text(node["doc"], ruleset.table_values())
    return ruleset.presentation.docs.get(str(walked[-1])) if len(walked) == 2 else None


def entries_described(ruleset: Ruleset, walked: list[Any], node: Any) -> dict[str, str]:
    """The one-line description of each entry of a section (``tables``, ``options``...), for
    ``show GAME tables``: what each knob is for, as :func:`described` finds it."""
    if len(walked) != 1 or not hasattr(node, "keys"):
        return {}
    out: dict[str, str] = {}
    for key in node:
        if hasattr(node[key], "get") and "doc" in node[key]:
            continue  # its own doc: is shown with it
        text = described(ruleset, [*walked, key])
        if text:
            out[str(key)] = text
    return out


def _dumped(yaml: Any, title: str, node: Any, entry_docs: dict[str, str]) -> str:
    """``node`` as YAML under ``title``, each entry that has a description preceded by it as a
    comment line."""
    if not entry_docs:
        text = io.StringIO()
        yaml.dump({title: node}, text)
        return text.getvalue().rstrip("\n")
    lines = [f"{title}:"]
    for key in node:
        text = io.StringIO()
        yaml.dump({key: node[key]}, text)
        if str(key) in entry_docs:
            lines.append(f"  # {entry_docs[str(key)]}")
        lines += ["  " + line for line in text.getvalue().rstrip("\n").splitlines()]
    return "\n".join(lines)


def _guess(node: Any, segment: str) -> str:
    """A did-you-mean for a segment that finds nothing in ``node``: a map's keys, or the names,
    ids and words that find a list's items."""
    from interpreter.compose.paths import labels_of
    from interpreter.diagnostics.suggest import did_you_mean
    from interpreter.load.locate import is_map, is_seq

    if is_map(node):
        names = [str(k) for k in node]
    elif is_seq(node):
        names = labels_of(node)
    else:
        return ""
    guess = did_you_mean(segment, names) if names else None
    return f" (did you mean '{guess}'?)" if guess else ""


def searched(data: Any, word: str, args: argparse.Namespace) -> int:
    """``show GAME WORD`` for a word that is no entry: every rule holding it (see
    interpreter/cli/show_search.py), or a usage error when none does."""
    from interpreter.cli.show_search import search_rules

    matches = search_rules(data, word)
    if not matches:
        raise UsageError(
            f"the ruleset has no entry '{word}'{_guess(data, word)}, and no rule holds the word"
        )
    if args.json:
        doc = {
            "word": word,
            "matches": [
                {
                    "path": m.path,
                    "what": m.what,
                    "file": _shown(m.file),
                    "line": m.line,
                    "texts": m.texts,
                }
                for m in matches
            ],
        }
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    print(
        f"# no entry '{word}'; {len(matches)} rule(s) hold the word (paths as overlays write them):"
    )
    for m in matches:
        print(f"{m.path}  [{m.what}]  {_shown(m.file)}:{m.line}")
        for text in m.texts:
            print(f"    {text}")
    sys.stdout.flush()
    return 0


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
    from interpreter.compose.paths import find_item, named_path
    from interpreter.compose.rulefiles import load_rules_data
    from interpreter.load.locate import slash_path, split_path

    overlays = split_commas(args.overlays) or []
    data, _sources, base_path, _ids = load_rules_data(args.game, overlays)
    node: Any = data
    walked: list[Any] = []
    segments = split_path(args.path)
    for segment in segments:
        lookup = find_item(node, segment)
        found, real = lookup.found, lookup.key
        if not found and not walked and len(segments) == 1:
            return searched(data, str(segment), args)
        if not found:
            here = slash_path(named_path(data, walked)) or "the ruleset"
            raise UsageError(f"{here} has no entry '{segment}'{_guess(node, str(segment))}")
        walked.append(real)
        node = node[real]

    base = str(base_path)
    spelt = named_path(data, walked)
    parts = origins(node, spelt)
    from interpreter.ruleset.ruleset import Ruleset

    ruleset = Ruleset.of(data)
    meaning = described(ruleset, walked)
    entry_docs = entries_described(ruleset, walked, node)
    if args.json:
        from interpreter.model.values import plain

        doc = {
            "path": slash_path(spelt),
            "value": plain(node),
            "doc": meaning,
            "entry_docs": entry_docs,
            "origins": [{"path": p, "file": f, "line": n} for p, f, n in parts],
        }
        print(json.dumps(doc, ensure_ascii=False, default=str))
        return 0
    if meaning:
        print(f"# {meaning}")
    yaml = YAML()
    yaml.width = 100
    print(_dumped(yaml, slash_path(spelt) or "ruleset", node, entry_docs))
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
    parser.add_argument(
        "path",
        metavar="PATH",
        help="a path as overlays spell it, or one word: every rule whose name or text holds it",
    )
    add_overlays(parser, "overlays to apply first, in order (comma-separated, repeatable)")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object on the last line"
    )


COMMAND = Command(
    name="show",
    help="print the composed rule at a path, and where each part of it was written",
    description="Print the rule at PATH of GAME with its overlays applied, as YAML, and the "
    "file and line of each entry an overlay wrote; a PATH of one word that is no entry lists "
    "every rule whose name or text holds it. Exit code 2 for a path that does not exist.",
    configure=configure,
    run=run,
)
