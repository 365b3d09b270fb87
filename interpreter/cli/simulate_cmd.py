"""``rulebook simulate``: play many seeded games between bots, in parallel, and summarise them.

Game ``i`` is played with seed ``S + i`` (``S`` from ``--seed``), so the same seed gives the same
games and the same summary with any number of jobs, locally or on a Dask cluster, and any one
game can be replayed with ``rulebook play GAME --seed S+i --bots ...``.

``--config FILE`` reads the same game config as ``rulebook play --config`` (game, players,
with, options, seed, seats: one bot name per seat; ``human`` is refused, nobody is at a
terminal); flags override its keys. ``--json`` prints the result without its per-game
records (``{"format", "config", "run", "summary", "out", "csv", "report"}``, the same numbers
as the ``--out`` file) as one JSON object on the last line; with ``--json``, ``--out`` may be
left out.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from interpreter.bots import UnknownBotError, make_bot
from interpreter.cli import Command, config_error, flags
from interpreter.cli.config import (
    HUMAN,
    UsageError,
    load_config_file,
    positive_int,
    resolve_from_flags,
    split_commas,
)
from interpreter.engine.game import Game
from interpreter.simulate.batch import (
    SimRun,
    SimSpec,
    default_jobs,
    load_spec_game,
    run_simulation,
    scheduler_executor,
)
from interpreter.simulate.progress import ProgressLine
from interpreter.simulate.report_html import REPORT_SUFFIXES, check_report_path, write_report
from interpreter.simulate.result_files import write_csv, write_json
from interpreter.simulate.summary import result_document

__all__ = ["COMMAND", "format_summary", "run"]

EXIT_INTERRUPTED = 130


def _absolute_if_path(text: str) -> str:
    """Paths are made absolute (workers may run elsewhere); catalog names stay names."""
    looks_like_path = os.sep in text or text.endswith((".yaml", ".yml"))
    return os.path.abspath(text) if looks_like_path and os.path.exists(text) else text


def _check_writable(path: str | None, flag: str) -> None:
    if not path:
        return
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise FileNotFoundError(f"{flag} {path}: folder {str(folder)!r} does not exist")
    if Path(path).is_dir():
        raise IsADirectoryError(f"{flag} {path}: it is a folder")


def _seats(bots: list[str] | None, players: int) -> tuple[str, ...]:
    names = bots or ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(
            f"--bots lists {len(names)} names for {players} players: give one name for "
            "every seat or exactly one per seat"
        )
    for seat, name in enumerate(names):
        try:
            make_bot(name, seat, 0)
        except UnknownBotError as exc:
            raise config_error(f"seat {seat}: {exc}") from None
    return tuple(names)


def _resolve(
    args: argparse.Namespace,
) -> tuple[str, int, tuple[str, ...], tuple[str, ...], dict[str, object], int]:
    """(game, players, seats, overlays, options, seed) from --config FILE and the flags."""
    file_config = load_config_file(args.config) if args.config else {}
    bots = split_commas(args.bots)
    if bots is not None:
        file_config.pop("seats", None)  # --bots replaces the file's seats as a whole
    seed = args.seed if args.seed is not None else file_config.get("seed")
    cfg = resolve_from_flags(
        args, file_config, seed=seed if seed is not None else secrets.randbelow(2**31)
    )
    if bots is not None:
        seats = _seats(bots, cfg.players)
    else:
        if HUMAN in cfg.seats:
            seat = cfg.seats.index(HUMAN)
            raise config_error(
                f"seat {seat} is 'human' in the config: simulate plays bots only (give a bot "
                "name per seat in 'seats:', or --bots)",
                args.config,
            )
        seats = _seats(list(cfg.seats), cfg.players)
    for name, value in cfg.options.items():
        if isinstance(value, list):
            raise config_error(
                f"option {name!r} must be a plain value (number, text, true/false), not a list",
                args.config,
            )
    return cfg.game, cfg.players, seats, cfg.overlays, cfg.options, cfg.seed


def json_line(doc: dict[str, Any], written: dict[str, str | None]) -> str:
    """``--json``: the result without its per-game records, on one line."""
    brief = {k: v for k, v in doc.items() if k != "games"}
    return json.dumps({**brief, **written}, ensure_ascii=False)


def _ids(config: dict[str, Any]) -> list[str]:
    return list(config.get("overlay_ids", config["overlays"]))


def format_summary(doc: dict[str, Any]) -> str:
    """A few lines for the terminal; the numbers are all in the JSON."""
    s, c, r = doc["summary"], doc["config"], doc["run"]
    lines = [
        f"{c['game']}, {c['players']} players, overlays: {', '.join(_ids(c)) or 'none'}, "
        f"seed {c['seed']}",
        f"{r['finished']} of {c['games']} games"
        + (" (interrupted)" if r["interrupted"] else "")
        + f" in {r['elapsed_s']:.1f} s with {r['jobs']} job(s) ({r['executor']})",
    ]
    lines.extend(_not_ended_lines(doc))
    if not s["games"]:
        return "\n".join(lines)
    # a game won jointly by k seats counts 1/k to each (and to their bots)
    lines.append("win rate (95% interval; ties shared):")
    for row in s["win_rate"]["seats"]:
        lo, hi = row["ci95"]
        lines.append(
            f"  seat {row['seat']} {row['bot']:<14} {row['rate']:.3f}  [{lo:.3f}, {hi:.3f}]  "
            f"score {row['score']['mean']:.1f} ± {row['score']['sd']:.1f}"
        )
    if c.get("rotate_seats"):
        lines.append(
            f"win share by bot, seats rotated (ties shared; fair share {1 / c['players']:.3f}):"
        )
        for name, row in s["win_rate"]["bots"].items():
            lo, hi = row["share_ci95"]
            lines.append(f"  bot {name:<19} {row['share']:.3f}  [{lo:.3f}, {hi:.3f}]")
    elif len(s["win_rate"]["bots"]) > 1:
        for name, row in s["win_rate"]["bots"].items():
            lo, hi = row["ci95"]
            lines.append(f"  bot {name:<19} {row['rate']:.3f}  [{lo:.3f}, {hi:.3f}]")
    ties = s["ties"]
    lines.append(f"tied games: {ties['count']} of {s['games']} ({ties['rate'] * 100:.1f}%)")
    rounds, dec = s["length"]["rounds"], s["length"]["decisions"]
    sc = s["scores"]["all"]
    lines.append(
        f"score {sc['mean']:.1f} ± {sc['sd']:.1f} (median {sc['median']:g}); "
        f"winner {s['scores']['winner']['mean']:.1f}; rounds {rounds['mean']:.1f} ± "
        f"{rounds['sd']:.1f}; decisions {dec['mean']:.0f}"
    )
    trig = ", ".join(f"{t} {v['rate'] * 100:.0f}%" for t, v in s["triggers"].items())
    lines.append(f"end: {trig}")
    fams = sorted(s["choices"]["families"].items(), key=lambda kv: -kv[1]["per_game"])
    lines.append("chosen per game: " + ", ".join(f"{k} {v['per_game']:.1f}" for k, v in fams[:8]))
    return "\n".join(lines)


def _not_ended_lines(doc: dict[str, Any]) -> list[str]:
    """The games stopped at the safety bound: counted, the first few named with their cause."""
    stopped = doc.get("not_ended") or []
    if not stopped:
        return []
    lines = [f"{len(stopped)} game(s) did not end (stopped at the ruleset's safety bound):"]
    for r in stopped[:3]:
        lines.append(f"  game {r['index']} (seed {r['seed']}): {r['where']}: {r['message']}")
    if len(stopped) > 3:
        lines.append(f"  ... and {len(stopped) - 3} more (see --out)")
    return lines


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook simulate``."""
    _check_outputs(args)
    spec = _spec(args)
    # Errors in the rules show now, once; forked worker processes inherit the compiled game.
    game = load_spec_game(spec)
    sim = _play(spec, args)
    doc = result_document(sim, list(game.overlays), game.options)
    written = _write_files(args, doc)
    print(format_summary(doc))
    if spec.coverage:
        written += _write_coverage(args, game, sim)
    if written:
        print(f"rulebook: wrote {', '.join(written)}", file=sys.stderr)
    if args.json:
        print(json_line(doc, {"out": args.out, "csv": args.csv, "report": args.report}))
    if sim.interrupted:
        return EXIT_INTERRUPTED
    return 1 if sim.not_ended else 0


def _write_coverage(args: argparse.Namespace, game: Game, sim: SimRun) -> list[str]:
    """``--coverage``: the rules the games ran (counted in the workers), after the summary."""
    from interpreter.coverage import Coverage
    from interpreter.coverage.output import write_coverage

    coverage = Coverage()
    probes = game.rules.probes
    assert probes is not None, "simulate --coverage plays a coverage build"
    coverage.add(probes, sim.coverage)
    print("")
    path = write_coverage(
        coverage.totals(), args.coverage_format or "text", args.coverage_out, sys.stdout
    )
    return [path] if path else []


def _check_outputs(args: argparse.Namespace) -> None:
    """Fail before the games, not after them, when a result could not be written."""
    if not args.out and not args.json:
        raise UsageError("--out FILE is required (or --json to print the summary)")
    if args.report and not args.report.lower().endswith(REPORT_SUFFIXES):
        raise UsageError(
            f"--report {args.report}: give a file name ending in .html (a self-contained page, "
            "no extra packages) or .png (one figure; needs the plot extra)"
        )
    for path, flag in ((args.out, "--out"), (args.csv, "--csv"), (args.report, "--report")):
        _check_writable(path, flag)
    if args.report:
        check_report_path(args.report)  # a .png without matplotlib fails before the games


def _spec(args: argparse.Namespace) -> SimSpec:
    game_name, players, seats, overlays, options, seed = _resolve(args)
    return SimSpec(
        game=_absolute_if_path(game_name),
        players=players,
        seats=seats,
        overlays=tuple(_absolute_if_path(o) for o in overlays),
        options=tuple(sorted(options.items())),
        seed=seed,
        games=args.games * (players if args.rotate_seats else 1),
        rotate=args.rotate_seats,
        check=args.check,
        coverage=flags.wants_coverage(args),
    )


def _play(spec: SimSpec, args: argparse.Namespace) -> SimRun:
    """Play the games here, in local processes or on the Dask cluster of ``--scheduler``."""
    progress = ProgressLine(live=None if not args.quiet else False)
    executor = None
    close = None
    name = "local processes" if (args.jobs or default_jobs()) > 1 else "this process"
    if args.scheduler:
        executor, close = scheduler_executor(args.scheduler)
        name = f"dask {args.scheduler}"
    try:
        sim = run_simulation(
            spec, args.jobs, executor=executor, progress=progress, executor_name=name
        )
    finally:
        if close is not None:
            close()
    if not args.quiet:
        progress.close(" (interrupted: keeping the finished games)" if sim.interrupted else "")
    return sim


def _write_files(args: argparse.Namespace, doc: dict[str, Any]) -> list[str]:
    """Write ``--out``, ``--csv`` and ``--report`` (those given); returns the paths written."""
    written = []
    if args.out:
        write_json(args.out, doc)
        written.append(args.out)
    if args.csv:
        write_csv(args.csv, doc)
        written.append(args.csv)
    if args.report:
        write_report(args.report, doc)
        written.append(args.report)
    return written


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook simulate``."""
    flags.add_game(parser, "a game name or a path to a ruleset; optional when --config names one")
    flags.add_players(parser, "player count (required unless --config sets it)")
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="a YAML game config, as for 'rulebook play' (seats: bot names); flags override it",
    )
    parser.add_argument(
        "--games",
        "-n",
        type=positive_int,
        default=100,
        metavar="G",
        help="games to play (default 100)",
    )
    flags.add_jobs(
        parser,
        f"parallel worker processes (default: all cores, here {default_jobs()}); "
        "1 plays in this process",
    )
    flags.add_seed(parser, "game i is played with seed S+i (default: drawn at random and recorded)")
    flags.add_overlays(
        parser, "overlays (expansions, variants, house-rule files) in order; repeatable"
    )
    flags.add_options(parser, "set a game option; repeatable")
    flags.add_bots(parser)
    parser.add_argument(
        "--rotate-seats",
        action="store_true",
        help="play each deal once per seat rotation (G deals, G x players games; deal d has "
        "seed S+d) so seat advantage cancels; the summary gives each bot's win share",
    )
    parser.add_argument(
        "--out", metavar="FILE", help="write the JSON result here (required unless --json)"
    )
    parser.add_argument("--csv", metavar="FILE", help="also write one CSV row per game")
    parser.add_argument(
        "--report",
        metavar="FILE.html|FILE.png",
        help="also draw the summary: .html a self-contained page, .png one figure (needs "
        "the plot extra: pip install 'rulebook-games[plot]')",
    )
    parser.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="run on a Dask cluster instead of local processes (needs the dask extra: "
        "pip install 'rulebook-games[dask]')",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the ruleset's invariants after every decision of every game; a broken one "
        "stops the run (exit 1) naming the seed, decision, invariant and its file:line",
    )
    flags.add_quiet(parser, "no progress line on stderr")
    flags.add_coverage(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="also print config, run and summary (no per-game records) as one JSON object, "
        "last line",
    )


COMMAND = Command(
    name="simulate",
    help="play many seeded games between bots in parallel and summarise them",
    description="Play G games (game i with seed S+i) between bots, in parallel, and write a "
    "JSON result (config, summary with 95% intervals, every game). Ctrl-C stops early and "
    "keeps the finished games. Example: rulebook simulate GAME --players 4 --games 2000 "
    "--seed 1 --with my-variant.yaml --out variant.json --report variant.html",
    configure=configure,
    run=run,
)
