"""``rulebook schema [NAME]``: print one of the JSON Schemas rule files are checked against.

Editors use these for completion and inline errors (see docs/rulesets.md); the names are the
``schemas/<name>.schema.json`` files that exist, so a new schema appears here without code.
"""

from __future__ import annotations

import argparse
import json
import sys

from interpreter.cli import Command
from interpreter.cli.config import UsageError

__all__ = ["COMMAND", "DEFAULT", "run", "schema_names"]

DEFAULT = "ruleset"
_SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    """The schemas that can be printed, sorted (``ruleset``, ``overlay``, ``config``, ...)."""
    from interpreter.load.schema import schemas_dir

    folder = schemas_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name[: -len(_SUFFIX)] for p in folder.glob("*" + _SUFFIX))


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook schema``."""
    from interpreter.load.schema import load_schema

    names = schema_names()
    if args.name not in names:
        known = ", ".join(names) or "none found"
        raise UsageError(f"unknown schema {args.name!r} (choose from: {known})")
    schema = load_schema(args.name)  # a broken schema file is a rules error (exit 1)
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    sys.stdout.flush()
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook schema``."""
    parser.add_argument(
        "name",
        nargs="?",
        default=DEFAULT,
        help=f"which schema: {', '.join(schema_names()) or DEFAULT} (default: {DEFAULT})",
    )


COMMAND = Command(
    name="schema",
    help="print the JSON Schema of rule files, overlays, game configs or scenario files",
    description="Print a JSON Schema (for editors: see docs/rulesets.md). Exit code 2 for an "
    "unknown name.",
    configure=configure,
    run=run,
)
