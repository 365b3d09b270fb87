"""``rulebook``: the command line. Each subcommand lives in its own module and registers a
:class:`~interpreter.cli.Command` (name, arguments, run function) in :data:`COMMAND_MODULES`.

Exit codes:

====  ==========================================================================================
0     success (also: a person ended input at a prompt; the game stops, a partial save is written)
1     a rules, config, game or replay error (``RulebookError``): the message says what and where
2     a usage error (bad or missing flags, from argparse) or a path that cannot be read/written
3     an internal error (a bug in rulebook): one line; rerun with ``RULEBOOK_DEBUG=1`` for the
      traceback
130   interrupted (Ctrl-C); with ``--save`` the partial game is saved first
====  ==========================================================================================

No error ever prints a Python traceback unless ``RULEBOOK_DEBUG=1`` is set.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence

from interpreter import __version__
from interpreter.cli import Command, RulebookError
from interpreter.cli.config import UsageError

__all__ = [
    "COMMAND_MODULES",
    "EXIT_ERROR",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "build_parser",
    "main",
]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130

PROG = "rulebook"

#: Modules that each define ``COMMAND``; a new subcommand is one module plus one line here.
COMMAND_MODULES: list[str] = [
    "interpreter.cli.play",
    "interpreter.cli.replay",
    "interpreter.cli.listing",
    "interpreter.cli.schema_cmd",
    "interpreter.cli.test_cmd",
    "interpreter.cli.validate_cmd",
    "interpreter.cli.simulate_cmd",
    "interpreter.cli.compare_cmd",
    "interpreter.cli.serve_cmd",
    "interpreter.cli.new_cmd",
    "interpreter.cli.where_cmd",
    "interpreter.cli.show_cmd",
    "interpreter.cli.train_cmd",
]


#: Each command's name -> its module, so that running one command imports only its own module
#: (`rulebook validate` need not load the simulator); tests/cli holds it to COMMAND_MODULES.
COMMAND_BY_NAME: dict[str, str] = {
    "play": "interpreter.cli.play",
    "replay": "interpreter.cli.replay",
    "list": "interpreter.cli.listing",
    "schema": "interpreter.cli.schema_cmd",
    "test": "interpreter.cli.test_cmd",
    "validate": "interpreter.cli.validate_cmd",
    "simulate": "interpreter.cli.simulate_cmd",
    "compare": "interpreter.cli.compare_cmd",
    "serve": "interpreter.cli.serve_cmd",
    "new": "interpreter.cli.new_cmd",
    "where": "interpreter.cli.where_cmd",
    "show": "interpreter.cli.show_cmd",
    "train": "interpreter.cli.train_cmd",
}


def commands(only: str | None = None) -> list[Command]:
    """The registered subcommands, in the order ``--help`` shows them; with ``only`` (a command
    name), just that one."""
    modules = [COMMAND_BY_NAME[only]] if only in COMMAND_BY_NAME else COMMAND_MODULES
    return [importlib.import_module(name).COMMAND for name in modules]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full argument parser, one subparser per registered command (with ``only``, the one
    subparser a command line naming that command uses: its parsing and messages are the same)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A data-driven rules interpreter for role-selection board games.",
        epilog="Run 'rulebook COMMAND --help' for a command's options. Exit codes: 0 ok, "
        "1 rules/config/replay error, 2 usage error or unreadable path, 3 internal error, "
        "130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in commands(only):
        sub_parser = sub.add_parser(
            command.name,
            help=command.help,
            description=command.description or command.help,
        )
        command.configure(sub_parser)
        sub_parser.set_defaults(_run=command.run)
        if only not in COMMAND_BY_NAME:
            _complete_files(sub_parser)
    if only not in COMMAND_BY_NAME:
        # the whole parser (no command named yet): it can write the shell's completion script
        import shtab

        shtab.add_argument_to(
            parser, "--print-completion", help="print a bash or zsh completion script and exit"
        )
        for action in parser._actions:  # parses as one command's parser does: no extra key
            if action.dest == "print_completion":
                action.default = argparse.SUPPRESS
    return parser


def _complete_files(parser: argparse.ArgumentParser) -> None:
    """Complete file names (folder names for a DIR) where an argument takes a path: every
    argument whose metavar says FILE, PATH or DIR (shtab reads ``complete``)."""
    for action in parser._actions:
        metavar = str(action.metavar or "")
        if metavar == "DIR":
            action.complete = {"bash": "_shtab_compgen_dirs", "zsh": "_files -/"}  # type: ignore[attr-defined]
        elif metavar.startswith(("FILE", "PATH")):
            action.complete = {"bash": "_shtab_compgen_files", "zsh": "_files"}  # type: ignore[attr-defined]


def _error(message: str) -> None:
    """One line on stderr; called while handling the error, so RULEBOOK_DEBUG can add its trace."""
    if _debug():
        traceback.print_exc()
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _debug() -> bool:
    return os.environ.get("RULEBOOK_DEBUG", "") not in ("", "0")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script passes it to exit)."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words else None)
    try:
        try:
            args = parser.parse_args(words)
        except SystemExit as exc:  # argparse: --help, --version (0) or a usage error (2)
            return exc.code if isinstance(exc.code, int) else EXIT_USAGE
        return int(args._run(args))
    except UsageError as exc:
        print(f"{PROG} {words[0]}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except RulebookError as exc:
        _error(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (`rulebook play ... | head`): what it wanted it has, so stop
        # quietly with success; stdout goes to /dev/null so the flush at exit cannot fail again
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_OK
    except OSError as exc:
        _error(_os_message(exc))
        return EXIT_USAGE
    except Exception as exc:  # a bug: one line, no traceback unless asked for
        _error(
            f"internal error: {type(exc).__name__}: {' '.join(str(exc).split())} "
            "(rerun with RULEBOOK_DEBUG=1 for the traceback, and please report it)"
        )
        return EXIT_INTERNAL


def _os_message(exc: OSError) -> str:
    """'cannot read FILE: No such file or directory' rather than '[Errno 2] ...'."""
    if exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
