"""``rulebook validate PATH...``: check rule files, overlays and game configs like a compiler.

Exit codes: 0 nothing wrong (warnings allowed), 1 an error was found (or, with ``--strict``, a
warning), 2 a usage error or a path that does not exist / cannot be read.  Output formats:

* ``text`` (default): ``path:line:col: error[CODE]: message (at /json/path; ...)``, the
  source line with a caret under the column, and a summary line;
* ``json`` (or ``--json``): one object ``{ok, errors, warnings, files_checked, diagnostics,
  strict, files, skipped}``, compact on one line (the last line of the output), like every
  ``--json`` of ``rulebook``;
* ``github``: ``::error file=..,line=..,col=..,title=CODE::message`` workflow commands, so the
  findings appear as annotations on a pull request's diff.

A YAML file that is not a rule file (a CI workflow, a chart, an environment) is skipped and
never fails a run, so the pre-commit hook passes a commit that changes only such files; one
named on the command line gets a line saying it was skipped and why (text and ``github``
formats), and ``--verbose`` prints that line for every file skipped.

The checks themselves are :func:`interpreter.check.validate`; this module only prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from interpreter.cli import Command, flags
from interpreter.cli.config import UsageError

__all__ = ["COMMAND", "FORMATS", "run"]

FORMATS = ("text", "json", "github")


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook validate``."""
    from interpreter.check import validate
    from interpreter.diagnostics.report import format_github, format_json, format_text, summary_line
    from interpreter.load.discovery import PathError

    if args.json and args.format not in (None, "json"):
        raise UsageError(f"--json prints JSON; it cannot go with --format {args.format}")
    fmt = "json" if args.json else args.format or "text"
    if args.secrets < 0 or args.smoke < 0:
        raise UsageError("--smoke and --secrets take a number of games, 0 or more")
    if args.explain is not None and (not args.secrets or args.explain < 1):
        raise UsageError(
            "--explain D shows the findings of --secrets at decision D (1 or more): "
            "e.g. --secrets 1 --seed S --explain D, as a finding's hint says"
        )
    try:
        report = validate(args.paths, jobs=args.jobs)
    except PathError as err:
        raise UsageError(str(err)) from None
    # --quiet: the findings alone, no counts, skip lines or summary (a clean run prints nothing)
    said = "quiet" if args.quiet else fmt
    if args.smoke:
        _smoke(report, args.smoke, said)
    secrets = None
    if args.secrets:
        secrets = _secrets(report, args.secrets, args.seed, said, args.jobs, args.explain)
    diags = report.diagnostics
    if fmt == "json":
        payload = json.loads(format_json(diags, files_checked=len(report.checked)))
        payload["ok"] = not report.failed(args.strict)
        payload["strict"] = bool(args.strict)
        payload["files"] = report.checked
        payload["skipped"] = report.skipped
        if secrets is not None:
            payload["secrets"] = secrets
        print(json.dumps(payload, ensure_ascii=False))
    elif fmt == "github":
        text = format_github(diags)
        if text:
            print(text)
        if not args.quiet:
            for line in _skip_lines(report, args.paths, args.verbose):
                print(line, file=sys.stderr)
            print(_summary(summary_line(diags), report), file=sys.stderr)
    else:
        text = format_text(diags, sources=report.sources)
        if text:
            print(text)
        if not args.quiet:
            for line in _skip_lines(report, args.paths, args.verbose):
                print(line)
            print(_summary(summary_line(diags), report))
    sys.stdout.flush()
    return 1 if report.failed(args.strict) else 0


def _smoke(report: object, games: int, fmt: str) -> None:
    """--smoke N: play N random games of each base ruleset checked without errors, for every
    player count and overlay combination; the games that fail or do not end join the report."""
    from interpreter.check.verdicts import dedupe
    from interpreter.diagnostics.errors import Diagnostic
    from interpreter.simulate.smoke import smoke_overlays, smoke_test

    diags: list[Diagnostic] = report.diagnostics  # type: ignore[attr-defined]
    # a leak found without playing (L005) leaves the file playable: the games check it too
    broken = {d.file for d in diags if d.severity == "error" and not d.code.startswith("L")}
    bases = [f.path for f in report.files if f.kind == "ruleset" and f.path not in broken]  # type: ignore[attr-defined]
    found, played = smoke_test(bases, games)
    # an overlay file: over its base and in every stack with its game's own overlays
    overlays = [f.path for f in report.files if f.kind == "overlay" and f.path not in broken]  # type: ignore[attr-defined]
    stacks = smoke_overlays(overlays, games, skip_bases=bases)
    found += stacks.diagnostics
    played += stacks.played
    diags.extend(found)
    # a refused stack is a warning at both files' lines, in every format (--strict fails on it);
    # validate found the same refusals of a folder's house rules already: said once
    for refused in stacks.refused:
        diags.extend(refused.warnings())
    diags[:] = dedupe(diags)
    if fmt == "text":
        print(f"smoke: {played} random game(s) played, {len(found)} failed or did not end")
        if stacks.stacks:
            print(f"smoke: {stacks.stacks} overlay stack(s), {len(stacks.refused)} refused")


def _secrets(
    report: object, games: int, seed: int, fmt: str, jobs: int | None, explain: int | None
) -> dict[str, Any]:
    """--secrets N: play N random games of each composition of the files checked without
    errors and report what a seat is told that depends on what it may not see (L001-L004, L006).
    A rule file or composition not played is said so, with why (the text output's
    ``secrets: not played:`` lines, ``--json``'s ``secrets.unplayed``); with ``--explain D``
    each finding met at decision D is shown with its two worlds side by side. Returns the
    counts."""
    from interpreter.check.secrets_games import compositions, play_compositions
    from interpreter.diagnostics.errors import Diagnostic

    diags: list[Diagnostic] = report.diagnostics  # type: ignore[attr-defined]
    # a leak found without playing (L005) leaves the file playable: the games check it too
    broken = {d.file for d in diags if d.severity == "error" and not d.code.startswith("L")}
    rule_files = [f for f in report.files if f.kind in ("ruleset", "overlay", "config")]  # type: ignore[attr-defined]
    files = [f.path for f in rule_files if f.path not in broken]
    unplayed = [f"{f.path}: it has errors (above)" for f in rule_files if f.path in broken]
    kinds = {f.path: f.kind for f in report.files}  # type: ignore[attr-defined]
    comps = compositions(files, kinds, unplayed)
    found = play_compositions(comps, games, seed, 1, jobs, None, explain=explain)
    unplayed += found.unplayed
    diags.extend(found.diagnostics)
    diags.sort(key=Diagnostic.sort_key)
    if fmt == "text":
        print(
            f"secrets: {found.games} random game(s) of {found.compositions} composition(s), "
            f"{found.decisions} decisions, {found.samples} drawn states checked; "
            f"{len(found.diagnostics)} leak(s)"
        )
        for why in unplayed:
            print(f"secrets: not played: {why}")
    if explain is not None and fmt != "json":
        seeds = f"seed {seed}" if games == 1 else f"seeds {seed}..{seed + games - 1}"
        if not found.explained:
            print(f"secrets: no finding at decision {explain} ({seeds})")
        for d, side_by_side in found.explained:
            heading, _, table = side_by_side.partition("\n")
            print(f"secrets: {heading}: {d.message}\n{table}")
    return {
        "games": found.games,
        "compositions": found.compositions,
        "decisions": found.decisions,
        "samples": found.samples,
        "leaks": len(found.diagnostics),
        "unplayed": unplayed,
        "explained": [
            {"code": d.code, "file": d.file, "line": d.line, "column": d.column, "text": text}
            for d, text in found.explained
        ],
    }


def _skip_lines(report: object, named: list[str], verbose: bool) -> list[str]:
    """``PATH: skipped, not a rule file: WHY`` for each skipped file named on the command line,
    and with ``verbose`` for every skipped file: a file a user names and sees pass without a
    word could be a rule file that lost its id line."""
    from interpreter.load.discovery import read_head, skip_reason

    given = set(named)
    lines = []
    for path in report.skipped:  # type: ignore[attr-defined]
        if verbose or path in given:
            head = read_head(path)
            why = "it cannot be read" if head is None else skip_reason(head)
            lines.append(f"{path}: skipped, not a rule file: {why}")
    return lines


def _summary(counts: str, report: object) -> str:
    checked = len(report.checked)  # type: ignore[attr-defined]
    skipped = len(report.skipped)  # type: ignore[attr-defined]
    files = f"{checked} file{'s' if checked != 1 else ''} checked"
    if skipped:
        files += f", {skipped} skipped (not rule files)"
    return f"{counts} ({files})"


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook validate``."""
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="rule files, overlays, game configs, or folders to search for *.yaml / *.yml",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="text (default; with source lines and carets), json (one object on one line) or "
        "github (Actions annotations)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the report as one JSON object on the last line (same as --format json)",
    )
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="say of every YAML file skipped (not a rule file) why it was skipped; a file named "
        "on the command line is said so even without --verbose",
    )
    flags.add_quiet(
        parser,
        "print only the findings (text and github): no summary, counts or skipped-file lines; "
        "a clean run prints nothing",
    )
    flags.add_jobs(
        parser,
        "worker processes that share the checking and the --secrets games (default: every "
        "core, or RULEBOOK_JOBS); small runs stay in one process",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 1) on warnings too, e.g. unused definitions",
    )
    parser.add_argument(
        "--smoke",
        type=int,
        default=0,
        metavar="N",
        help="also play N random games (seeds 1..N) of each ruleset for every allowed player "
        "count and overlay combination, and of each overlay in every stack with its game's "
        "overlays (a stack that does not load is said refused, and why); a game that fails or "
        "does not end is an error",
    )
    parser.add_argument(
        "--secrets",
        type=int,
        default=0,
        metavar="N",
        help="also play N random games of each composition (the fewest and the most players) "
        "and, at every decision, compare what each seat is told with what it would be told in "
        "states it cannot tell from the true one: a log line, option text or forced move that "
        "depends on what a seat may not see is an error (L001-L004, L006; docs/validate.md)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="S",
        help="the first seed of the --secrets games (seeds S..S+N-1; default 1)",
    )
    parser.add_argument(
        "--explain",
        type=int,
        default=None,
        metavar="D",
        help="with --secrets: show each finding met at decision D side by side: the line (or "
        "option text, or who moves) the true game and a game the seat cannot tell from it "
        "show, and every field hidden from the seat that differs between them (a finding's "
        "hint gives the command)",
    )


COMMAND = Command(
    name="validate",
    help="check rule files, overlays and game configs; report every problem with file:line:col",
    description="Check rule files like a compiler: YAML, JSON Schema, references, the effect "
    "DSL and whole-ruleset checks, reporting every problem of every file. Exit code 0 when "
    "valid, 1 when an error (or with --strict a warning) was found, 2 for usage errors or "
    "unreadable paths. Codes are listed in docs/errors.md.",
    configure=configure,
    run=run,
)
