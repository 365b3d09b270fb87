"""``rulebook compare A.json B.json``: two simulation results side by side, real differences
flagged (two-proportion z-test for rates, Welch t-test for means, Benjamini-Hochberg corrected
at 95%).

It always exits 0 when both files are results: a difference is a finding, not a failure.
"""

from __future__ import annotations

import argparse
import json

from interpreter.cli import Command
from interpreter.simulate.compare import compare, format_comparison, rows_to_json
from interpreter.simulate.result_files import read_result

__all__ = ["COMMAND", "run"]


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook compare``."""
    a = read_result(args.a)
    b = read_result(args.b)
    rows = compare(a, b)
    if args.json:
        print(
            json.dumps(
                {
                    "a": {"file": args.a, **a["config"], "finished": a["run"]["finished"]},
                    "b": {"file": args.b, **b["config"], "finished": b["run"]["finished"]},
                    "alpha": 0.05,
                    "correction": "benjamini-hochberg",
                    "rows": rows_to_json(rows),
                }
            )
        )
    else:
        print(format_comparison(a, b, rows, (args.a, args.b), show_all=args.all))
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook compare``."""
    parser.add_argument("a", metavar="A.json", help="a 'rulebook simulate --out' result")
    parser.add_argument("b", metavar="B.json", help="another result to compare with A")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    parser.add_argument(
        "--all",
        action="store_true",
        help="also show single entries (build:x, role:y, ...) whose difference is not significant",
    )


COMMAND = Command(
    name="compare",
    help="compare two simulation results and flag significant differences",
    description="Show two 'rulebook simulate' results side by side: win rates, scores, game "
    "length, end triggers and choices, with a * on differences significant at 95% "
    "(two-proportion z-test, Welch t-test, Benjamini-Hochberg corrected). Exits 0 when both "
    "files are results (a difference is a finding, not a failure), 1 when one is not a "
    "simulation result, 2 when one cannot be read.",
    configure=configure,
    run=run,
)
