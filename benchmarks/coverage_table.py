"""The rule coverage of the shipped scenario suites, as the table pinned in docs/coverage.md.

    python benchmarks/coverage_table.py [PATH ...]     # default: tests/scenarios

Runs every scenario (as ``rulebook test --coverage`` does) and prints one Markdown row per
rule file: rule points and how many ran, and of them the `if` arms (branches), then the
totals. tests/coverage/test_pinned.py checks that the figures docs/coverage.md pins are not
above these.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from interpreter.coverage import Coverage, FileReport, summarize
from interpreter.coverage.tabulate import percent
from interpreter.scenario.runner import collect, discover, run_scenario

HEADER = (
    "| rule file | rules | ran | cover | branches | ran | cover |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def measure(paths: Sequence[str] = ("tests/scenarios",)) -> list[FileReport]:
    """Every scenario below `paths` run on coverage builds; the reports per rule file."""
    coverage = Coverage()
    scenarios, broken = collect(discover(list(paths)))
    if broken:
        raise SystemExit(f"scenario files that cannot be loaded: {[o.id for o in broken]}")
    failed = [o.id for o in (run_scenario(sc, coverage) for sc in scenarios) if o.status != "pass"]
    if failed:
        raise SystemExit(f"scenarios that do not pass: {failed}")
    return summarize(coverage.totals())


def _row(name: str, points: list) -> str:
    ran = sum(1 for _, n in points if n)
    arms = [(p, n) for p, n in points if p.kind == "branch"]
    arms_ran = sum(1 for _, n in arms if n)
    return (
        f"| {name} | {len(points)} | {ran} | {percent(ran, len(points)):.1f}% "
        f"| {len(arms)} | {arms_ran} | {percent(arms_ran, len(arms)):.1f}% |"
    )


def table(reports: list[FileReport]) -> str:
    rows = [HEADER]
    rows += [_row(f"`{r.file}`", r.points) for r in reports]
    rows.append(_row("**all**", [pn for r in reports for pn in r.points]))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["tests/scenarios"])
    print(table(measure(parser.parse_args().paths)))


if __name__ == "__main__":
    main()
