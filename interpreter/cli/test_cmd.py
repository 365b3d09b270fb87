"""``rulebook test [PATH ...] [-k EXPR]``: run scenario files (docs/scenarios.md).

Prints one line per scenario, the details of each failure (the expectation, the actual value,
file:line, the steps taken with the game's log), then a summary. Exit code 0 when every
selected scenario passed, 1 when any failed or could not run (or none was selected), 2 for a
path that does not exist.

``--json`` adds one JSON object on the last line (:func:`json_report`)::

    {"ok", "passed", "failed", "errors", "not_ended", "total", "selected", "files", "seconds",
     "scenarios": [{"id", "file", "name", "line", "status", "message", "where", "seconds"}]}

``errors`` counts scenarios (and scenario files) that could not run; ``not_ended`` the failed
ones whose game ran into the ruleset's safety bound (E003); ``selected`` the
scenarios ``-k`` chose, of which ``-x`` may have run fewer; ``ok`` is true exactly when the
exit code is 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from interpreter.cli import Command, flags

__all__ = ["COMMAND", "json_report", "run"]


def json_report(
    outcomes: Sequence[Any], selected: int, files: int, seconds: float, ok: bool
) -> dict[str, Any]:
    """What ``rulebook test --json`` prints last: counts and one entry per outcome."""
    count = {k: sum(1 for o in outcomes if o.status == k) for k in ("pass", "fail", "error")}
    scenarios = []
    for o in outcomes:
        # a scenario's own line; a file that could not be loaded: where its error is
        at = o.scenario.where if o.scenario is not None else o.where
        scenarios.append(
            {
                "id": o.id,
                "file": o.file,
                "name": o.name,
                "line": at.line if at is not None else None,
                "status": o.status,
                "message": o.message,
                "where": str(o.where) if o.where is not None else None,
                "seconds": round(o.seconds, 4),
                # `file:line: text`: a check made while an optional question that would
                # change it was still open (docs/scenarios.md)
                "warnings": list(getattr(o, "warnings", ())),
            }
        )
    return {
        "ok": ok,
        "passed": count["pass"],
        "failed": count["fail"],
        "errors": count["error"],
        "not_ended": sum(1 for o in outcomes if o.not_ended),
        "warnings": sum(len(getattr(o, "warnings", ())) for o in outcomes),
        "total": len(outcomes),
        "selected": selected,
        "files": files,
        "seconds": round(seconds, 3),
        "scenarios": scenarios,
    }


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook test``."""
    from interpreter.scenario import text_report
    from interpreter.scenario.games import clear_cache
    from interpreter.scenario.runner import collect, discover, run_scenario, select

    if args.rulesets:
        # searched before the built-in rulesets/ (see interpreter/catalog.py)
        old = os.environ.get("RULEBOOK_RULESETS", "")
        os.environ["RULEBOOK_RULESETS"] = os.pathsep.join([*args.rulesets, *filter(None, [old])])
        clear_cache()
    start = time.perf_counter()
    files = discover(_paths(args.paths))
    scenarios, outcomes = collect(files)
    keyword = " or ".join(f"({k})" for k in args.keyword) if args.keyword else None
    chosen = select(scenarios, keyword)
    if args.seed is not None:
        chosen = [dataclasses.replace(sc, seed=args.seed) for sc in chosen]
    out = sys.stdout
    coverage = _collector(args)
    for o in outcomes:
        print(text_report.line(o), file=out)
    for sc in chosen:
        o = run_scenario(sc, coverage)
        outcomes.append(o)
        if o.status != "pass" or not args.quiet:
            print(text_report.line(o), file=out)
            out.flush()
        if args.exitfirst and o.status != "pass":
            break
    bad = [o for o in outcomes if o.status != "pass"]
    for o in bad:
        print("", file=out)
        print(text_report.details(o, steps=not args.no_steps), file=out)
    seconds = time.perf_counter() - start
    print("", file=out)
    print(text_report.summary(outcomes, seconds), file=out)
    code = 1 if bad else 0
    if not chosen and not outcomes:
        what = f" matching -k {keyword!r}" if keyword else ""
        print(f"no scenarios{what} in {len(files)} file(s)", file=out)
        code = 1
    if coverage is not None:
        print("", file=out)
        _report_coverage(coverage, args, out)
    if args.json:
        doc = json_report(outcomes, len(chosen), len(files), seconds, ok=code == 0)
        print(json.dumps(doc, ensure_ascii=False), file=out)
    return code


DEFAULT_FOLDER = "tests/scenarios"


def _paths(given: list[str]) -> list[str]:
    """The paths given, else the project's ``tests/scenarios`` when the working folder has one;
    without either, a usage error that says what was looked for."""
    if given:
        return given
    if os.path.isdir(DEFAULT_FOLDER):
        return [DEFAULT_FOLDER]
    from interpreter.cli.config import UsageError

    raise UsageError(
        f"no PATH given, and no {DEFAULT_FOLDER}/ folder in {os.getcwd()} to run by default; "
        "name scenario files or folders (e.g. rulebook test my-game/scenarios)"
    )


def _collector(args: argparse.Namespace) -> Any:
    """A coverage collector when a coverage flag was given (the scenarios then run coverage
    builds of their games), else None."""
    if not flags.wants_coverage(args):
        return None
    from interpreter.coverage import Coverage

    return Coverage()


def _report_coverage(coverage: Any, args: argparse.Namespace, out: Any) -> None:
    from interpreter.coverage.output import write_coverage

    written = write_coverage(
        coverage.totals(), args.coverage_format or "text", args.coverage_out, out
    )
    if written:
        print(f"rulebook: wrote the rule coverage report to {written}", file=sys.stderr)


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook test``."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="scenario files, or folders searched for *.yaml (default: tests/scenarios, when "
        "the working folder has one)",
    )
    parser.add_argument(
        "-k",
        dest="keyword",
        action="append",
        metavar="EXPR",
        help="only scenarios whose 'file::name' contains these words (and/or/not, as in pytest)",
    )
    parser.add_argument(
        "-x", "--exitfirst", action="store_true", help="stop after the first failure"
    )
    parser.add_argument(
        "--rulesets",
        action="append",
        metavar="DIR",
        help="a folder of rulesets searched before the built-in ones (e.g. a modified copy)",
    )
    flags.add_seed(
        parser, "play every scenario with this seed instead of its own (does it hold for others?)"
    )
    parser.add_argument(
        "--no-steps", action="store_true", help="do not print the steps taken under a failure"
    )
    flags.add_quiet(parser, "no line for a scenario that passed: only failures and the summary")
    parser.add_argument(
        "--json",
        action="store_true",
        help="also print the results as one JSON object, last line (counts and every scenario)",
    )
    flags.add_coverage(parser)


COMMAND = Command(
    name="test",
    help="run scenario files: given / when / then checks of a ruleset",
    description="Run scenario files (docs/scenarios.md): one line per scenario, details of "
    "each failure, a summary. Exit code 0 all passed, 1 a failure or none selected, 2 a "
    "missing path.",
    configure=configure,
    run=run,
)
