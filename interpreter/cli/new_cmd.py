"""``rulebook new game NAME`` and ``rulebook new overlay NAME --game GAME``: start from a
skeleton that already validates, plays to the end and passes its scenarios.

``new game NAME`` writes the folder ``NAME/`` with ``ruleset.yaml`` (a small commented
role-selection game, :data:`~interpreter.cli.skeletons.GAME`) and ``scenarios/basics.yaml``;
``new overlay NAME --game GAME`` writes ``NAME.yaml`` beside the game's ruleset when GAME is a
path (it is then one of that game's own overlays, ``--with NAME``), else in the current folder
(``--with NAME.yaml``), or at ``--out FILE``. Nothing is ever overwritten (exit code 2).

Each file starts with the editor's schema line (:func:`schema_line`), a path relative to the
file, so that a written file can be committed and works on every machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from interpreter.cli import Command
from interpreter.cli.config import UsageError

if TYPE_CHECKING:
    from interpreter.ruleset.ruleset import Ruleset

__all__ = ["COMMAND", "run", "schema_line"]

_ID = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*(-[a-zA-Z0-9_]+)*$")


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook new``."""
    written = _new_game(args) if args.what == "game" else _new_overlay(args)
    for path in written:
        print(f"wrote {path}")
    sys.stdout.flush()
    return 0


def _ident(name: str) -> str:
    ident = Path(name).name.removesuffix(".yaml").removesuffix(".yml")
    if not _ID.match(ident):
        raise UsageError(
            f"{ident!r} cannot be an id: use letters, digits and single dashes (my-game)"
        )
    return ident


def _title(ident: str) -> str:
    return " ".join(w.capitalize() for w in re.split(r"[-_]+", ident) if w)


def schema_line(kind: str, target: Path) -> str:
    """The first line of a file of ``kind`` written at ``target``: ``# yaml-language-server:
    $schema=`` and the path, relative to ``target``, of the nearest ``schemas/<kind>.schema.json``
    in its folder or a folder above (this repository's own, or the copy a project keeps as
    docs/authoring.md says).  Where there is none, a comment says how to make one: an absolute
    path would name this machine's install, wrong on every other machine the file goes to (the
    schemas have no public URL)."""
    name = f"{kind}.schema.json"
    here = Path(os.path.abspath(target)).parent
    for folder in (here, *here.parents):
        candidate = folder / "schemas" / name
        if _ours(candidate, name):
            rel = Path(os.path.relpath(candidate, here)).as_posix()
            return f"# yaml-language-server: $schema={rel}"
    return (
        f"# Editors complete keys from a schema: write it out once (`rulebook schema {kind} >\n"
        f"# schemas/{name}` at your project's top) and put `# yaml-language-server:\n"
        f"# $schema=PATH` here, PATH relative to this file (docs/authoring.md)."
    )


def _ours(candidate: Path, name: str) -> bool:
    """Whether ``candidate`` is this project's schema ``name`` (by its ``$id``), not another
    tool's file of the same name."""
    try:
        with open(candidate, encoding="utf-8", errors="replace") as fh:
            head = fh.read(1024)
    except OSError:
        return False
    return re.search(r'"\$id"\s*:\s*"' + re.escape(name) + '"', head) is not None


def _write(path: Path, text: str) -> None:
    if path.exists():
        raise UsageError(f"{path} already exists; choose another name (nothing was written)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"{path}: cannot write ({err.strerror or err})") from None


def _new_game(args: argparse.Namespace) -> list[Path]:
    from interpreter.cli.skeletons import GAME, SCENARIOS

    folder = Path(args.name)
    if folder.exists():
        raise UsageError(f"{folder} already exists; choose another name (nothing was written)")
    ident = _ident(args.name)
    fill = {"id": ident, "title": _title(ident), "folder": folder.as_posix()}
    rules, scenarios = folder / "ruleset.yaml", folder / "scenarios" / "basics.yaml"
    _write(rules, GAME.format(schema_line=schema_line("ruleset", rules), **fill))
    _write(scenarios, SCENARIOS.format(schema_line=schema_line("scenario", scenarios), **fill))
    return [rules, scenarios]


def _new_overlay(args: argparse.Namespace) -> list[Path]:
    from interpreter.cli.skeletons import OVERLAY
    from interpreter.diagnostics.errors import RulebookError
    from interpreter.load.catalog import find_game
    from interpreter.load.yamlload import load_yaml_file
    from interpreter.ruleset.ruleset import Ruleset

    if not args.game:
        raise UsageError("rulebook new overlay NAME needs --game GAME (a game's name or path)")
    ident = _ident(args.name)
    try:
        base = find_game(args.game)
        ruleset = Ruleset.of(load_yaml_file(base).data)
    except RulebookError as err:
        raise UsageError(str(err)) from None
    by_path = Path(args.game).exists()
    if args.out:
        path = Path(args.out)
    elif args.name.endswith((".yaml", ".yml")):
        path = Path(args.name)
    else:
        path = (base.parent if by_path else Path(".")) / f"{ident}.yaml"
    beside = path.resolve().parent == base.resolve().parent
    head = ruleset.header
    players = head.players.min if head.kind else 2
    text = OVERLAY.format(
        schema_line=schema_line("overlay", path),
        id=ident,
        title=_title(ident),
        game=args.game,
        base=head.id if head.kind else args.game,
        game_arg=args.game,
        players=players,
        with_arg=ident if beside else path.as_posix(),
        path=path.as_posix(),
        body=_example_change(ruleset),
    )
    _write(path, text)
    return [path]


def _example_change(ruleset: Ruleset) -> str:
    """A change that works on this game as it stands: one of its tables, replaced by itself."""
    if ruleset.tables:
        name, table = next(iter(ruleset.tables.items()))
        value = json.dumps(table.value, ensure_ascii=False)
        return f"replace:\n  tables/{name}: {value}   # the game's own value: change it\n"
    return "add: {}   # nothing yet: add, replace, patch or remove entries here\n"


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook new``."""
    parser.add_argument("what", choices=("game", "overlay"), help="what to start")
    parser.add_argument(
        "name", metavar="NAME", help="the new game's folder, or the overlay's id (or FILE.yaml)"
    )
    parser.add_argument(
        "--game", metavar="GAME", help="(overlay) the game it extends: a name or a path"
    )
    parser.add_argument("--out", metavar="FILE", help="(overlay) where to write it")


COMMAND = Command(
    name="new",
    help="start a game or an overlay from a commented skeleton that validates and plays",
    description="Write a new game (NAME/ruleset.yaml and NAME/scenarios/basics.yaml: a small "
    "commented role-selection game) or an overlay of GAME (NAME.yaml), ready for rulebook "
    "validate, play and test. Exit code 2 when a file exists already or NAME is no id.",
    configure=configure,
    run=run,
)
