"""``rulebook test [PATH ...] [-k EXPR]``: run scenario files (docs/scenarios.md).

Prints one line per scenario, the details of each failure (the expectation, the actual value,
file:line, the steps taken with the game's log), then a summary. Exit code 0 when every
selected scenario passed, 1 when any failed or could not run (or none was selected), 2 for a
path that does not exist.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from interpreter.cli import Command

__all__ = ["COMMAND", "run"]


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook test``."""
    from interpreter.scenario import report
    from interpreter.scenario.runner import clear_cache, collect, discover, run_scenario, select

    if args.rulesets:
        # searched before the built-in rulesets/ (see interpreter/catalog.py)
        old = os.environ.get("RULEBOOK_RULESETS", "")
        os.environ["RULEBOOK_RULESETS"] = os.pathsep.join([*args.rulesets, *filter(None, [old])])
        clear_cache()
    start = time.perf_counter()
    files = discover(args.paths)
    scenarios, outcomes = collect(files)
    keyword = " or ".join(f"({k})" for k in args.keyword) if args.keyword else None
    chosen = select(scenarios, keyword)
    out = sys.stdout
    for o in outcomes:
        print(report.line(o), file=out)
    for sc in chosen:
        o = run_scenario(sc)
        outcomes.append(o)
        print(report.line(o), file=out)
        out.flush()
        if args.exitfirst and o.status != "pass":
            break
    bad = [o for o in outcomes if o.status != "pass"]
    for o in bad:
        print("", file=out)
        print(report.details(o, steps=not args.no_steps), file=out)
    print("", file=out)
    print(report.summary(outcomes, time.perf_counter() - start), file=out)
    if not chosen and not outcomes:
        what = f" matching -k {keyword!r}" if keyword else ""
        print(f"no scenarios{what} in {len(files)} file(s)", file=out)
        return 1
    return 1 if bad else 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook test``."""
    parser.add_argument(
        "paths",
        nargs="*",
        default=["tests/scenarios"],
        metavar="PATH",
        help="scenario files, or folders searched for *.yaml (default: tests/scenarios)",
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
    parser.add_argument(
        "--no-steps", action="store_true", help="do not print the steps taken under a failure"
    )


COMMAND = Command(
    name="test",
    help="run scenario files: given / when / then checks of a ruleset",
    description="Run scenario files (docs/scenarios.md): one line per scenario, details of "
    "each failure, a summary. Exit code 0 all passed, 1 a failure or none selected, 2 a "
    "missing path.",
    configure=configure,
    run=run,
)
