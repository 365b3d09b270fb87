"""The arguments several subcommands share, declared once so they parse alike everywhere.

Each command still words its own help (``play``'s ``--seed`` says "always printed",
``simulate``'s says "S+i"), so the help text is a parameter; what a flag is called, what it
accepts and where its value lands are fixed here. Each command adds its arguments in the order
its ``--help`` lists them.
"""

from __future__ import annotations

import argparse

from interpreter.cli.config import parse_option_flag, positive_int, seed_int

__all__ = [
    "add_bots",
    "add_coverage",
    "add_game",
    "add_jobs",
    "add_options",
    "add_outcome",
    "add_overlays",
    "add_players",
    "add_quiet",
    "add_seed",
    "wants_coverage",
]

BOTS_HELP = "one bot for every seat, or one per seat (default: random)"


def add_game(parser: argparse.ArgumentParser, help: str) -> None:
    """``GAME``: optional, since a ``--config`` file may name the game instead."""
    parser.add_argument("game", nargs="?", metavar="GAME", help=help)


def add_overlays(parser: argparse.ArgumentParser, help: str) -> None:
    """``--with OVERLAY[,OVERLAY...]``, repeatable, into ``args.overlays``."""
    parser.add_argument(
        "--with", dest="overlays", action="append", metavar="OVERLAY[,OVERLAY...]", help=help
    )


def add_options(parser: argparse.ArgumentParser, help: str) -> None:
    """``--option NAME=VALUE`` (``-o``), repeatable, into ``args.options``."""
    parser.add_argument(
        "--option",
        "-o",
        dest="options",
        action="append",
        type=parse_option_flag,
        metavar="NAME=VALUE",
        help=help,
    )


def add_seed(parser: argparse.ArgumentParser, help: str) -> None:
    """``--seed S``: a non-negative whole number."""
    parser.add_argument("--seed", type=seed_int, metavar="S", help=help)


def add_players(parser: argparse.ArgumentParser, help: str) -> None:
    """``--players N`` (``-p``): at least 1."""
    parser.add_argument("--players", "-p", type=positive_int, metavar="N", help=help)


def add_bots(parser: argparse.ArgumentParser, help: str = BOTS_HELP) -> None:
    """``--bots BOT[,BOT...]``, repeatable: one bot for all seats or one per seat."""
    parser.add_argument("--bots", action="append", metavar="BOT[,BOT...]", help=help)


def add_jobs(parser: argparse.ArgumentParser, help: str) -> None:
    """``--jobs J`` (``-j``): how many worker processes, at least 1 (default None: the
    command's own default, e.g. every core)."""
    parser.add_argument("--jobs", "-j", type=positive_int, metavar="J", help=help)


def add_quiet(parser: argparse.ArgumentParser, help: str) -> None:
    """``--quiet`` (``-q``): print less; each command says what it leaves out."""
    parser.add_argument("--quiet", "-q", action="store_true", help=help)


def add_outcome(parser: argparse.ArgumentParser) -> None:
    """``--json`` and ``--quiet`` of the commands that print a game (``play``, ``replay``)."""
    parser.add_argument(
        "--json", action="store_true", help="print the outcome as one JSON object, last line"
    )
    add_quiet(parser, "no round-by-round log (only the outcome)")


COVERAGE_HELP = (
    "also report which rules ran, per rule file (docs/coverage.md): every flow step, option "
    "line (offered and taken), hook and grant of a catalog entry, and both arms of every 'if'"
)


def add_coverage(parser: argparse.ArgumentParser) -> None:
    """``--coverage``, ``--coverage-format text|json|html`` and ``--coverage-out PATH``."""
    group = parser.add_argument_group("rule coverage")
    group.add_argument("--coverage", action="store_true", help=COVERAGE_HELP)
    group.add_argument(
        "--coverage-format",
        choices=("text", "json", "html"),
        metavar="text|json|html",
        help="the coverage report as a table (default), one JSON object, or HTML pages that "
        "mark each rule file's covered and never-run lines (implies --coverage)",
    )
    group.add_argument(
        "--coverage-out",
        metavar="PATH",
        help="write the coverage report here instead of printing it: a file for text and "
        "json, a folder for html (default for html: rule-coverage/) (implies --coverage)",
    )


def wants_coverage(args: argparse.Namespace) -> bool:
    """Whether any coverage flag was given."""
    return bool(args.coverage or args.coverage_format or args.coverage_out)
