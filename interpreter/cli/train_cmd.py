"""``rulebook train``: teach a small model to play a ruleset by self-play with search as teacher.

The model file (``--out``) is what ``--bots learned:FILE`` and ``search:...:model=FILE`` read;
it names the composition it was trained for (game, players, overlays, options) and is refused
for any other. Progress goes to stderr, a line per self-play game and one per iteration;
``--json`` prints the report as one JSON object on the last line of stdout. See docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import MutableMapping
from pathlib import Path

from interpreter.cli import Command, config_error, flags
from interpreter.cli.config import UsageError, positive_int, split_commas

__all__ = ["COMMAND", "one_math_thread", "run"]

# the thread counts numpy's linear algebra libraries read when numpy is first imported
MATH_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_math_thread(environ: MutableMapping[str, str]) -> None:
    """One thread for numpy's matrix products unless the user chose otherwise: the model is
    small (rows of a few hundred), where threads cost more in handing work over than they
    save, above all on busy cores or beside ``-j`` workers (docs/bots.md, "Learned bots").
    Worker processes inherit the setting."""
    for name in MATH_THREADS:
        environ.setdefault(name, "1")


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook train``."""
    one_math_thread(os.environ)  # before numpy is imported
    from interpreter.learn.train import TrainConfig, train
    from interpreter.simulate.batch import scheduler_executor

    if not args.game:
        raise UsageError("name the GAME to train for (a ruleset name or path)")
    if len(args.hidden) > 2:
        raise UsageError("--hidden takes one or two layer widths")
    folder = Path(args.out).resolve().parent
    if not folder.is_dir():
        raise config_error(f"--out {args.out}: folder {str(folder)!r} does not exist")
    cfg = TrainConfig(
        game=args.game,
        players=args.players or 2,
        out=args.out,
        overlays=split_commas(args.overlays) or [],
        options=dict(args.options or []),
        # a time budget alone: as many iterations as fit in it
        iterations=args.iterations or (0 if args.minutes else 3),
        games=args.games,
        seed=args.seed or 0,
        jobs=args.jobs or 1,
        hidden=tuple(args.hidden),
        epochs=args.epochs,
        replay=args.replay,
        value_mix=args.value_mix,
        holdout=args.holdout,
        init=args.init or "",
        full_share=args.full_share,
        fast_iterations=args.fast_iterations,
        minutes=args.minutes or 0.0,
        gate=args.gate or 0,
    )
    if args.minutes is not None and not 0 < args.minutes < math.inf:
        raise UsageError("--minutes must be a number of minutes above 0")  # (not nan, not inf)
    if not 0.0 < args.full_share <= 1.0:
        raise UsageError("--full-share must lie in 0..1 (above 0)")
    for name in ("replay", "value_mix", "holdout"):
        if not 0.0 <= getattr(args, name) <= (0.5 if name == "holdout" else 1.0):
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} must lie in 0..{0.5 if name == 'holdout' else 1}")
    if args.search:
        cfg.search = args.search
    if args.guided_search:
        cfg.guided_search = args.guided_search
    executor, close = (None, None)
    if args.scheduler:
        executor, close = scheduler_executor(args.scheduler)
    progress = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    try:
        report = train(cfg, executor, progress)
    finally:
        if close is not None:
            close()
    if args.json:
        print(
            json.dumps(
                {
                    "out": report.out,
                    "seconds": report.seconds,
                    "stopped": report.stopped,
                    "kept": report.kept,
                    "iterations": report.iterations,
                }
            )
        )
    elif not args.quiet:
        print(f"wrote {report.out} ({report.seconds:.1f}s)")
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook train``."""
    flags.add_game(parser, "the ruleset to train for (a name under rulesets/ or a path)")
    flags.add_overlays(parser, "overlays (expansions, house rules) the model plays with")
    flags.add_options(parser, "a ruleset option the model plays with")
    flags.add_players(parser, "number of players (default 2)")
    parser.add_argument("--out", required=True, metavar="BOT.npz", help="the model file to write")
    parser.add_argument(
        "--init",
        metavar="BOT.npz",
        help="continue from this model (its weights and layer widths; --hidden is then not "
        "used): the first iteration's teacher is already the guided search with it inside; a "
        "model of another composition with as many players (a house rule's base game) gives "
        "what the two share, by feature and action name",
    )
    parser.add_argument(
        "--iterations",
        type=positive_int,
        metavar="K",
        help="rounds of self-play and fitting (default 3; with --minutes alone, as many as "
        "fit in the budget)",
    )
    parser.add_argument(
        "--minutes",
        type=float,
        metavar="M",
        help="time budget: no iteration is started that would end past M minutes of wall "
        "time (judged by the last one); the model of the last finished iteration is kept",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=16,
        metavar="G",
        help="self-play games per iteration (default 16)",
    )
    parser.add_argument(
        "--search",
        metavar="SPEC",
        help="the teacher of the first iteration (default "
        "search:iterations=100:depth=30; use iterations=, not seconds=, to stay reproducible)",
    )
    parser.add_argument(
        "--guided-search",
        metavar="SPEC",
        help="the teacher once a model exists, the model "
        "added as model=FILE (default search:iterations=100)",
    )
    parser.add_argument(
        "--full-share",
        type=float,
        default=1.0,
        metavar="P",
        help="share of the decisions the teacher searches in full and records; the others are "
        "played by the same search cut to --fast-iterations, unrecorded: more games for the "
        "same CPU (default 1: all)",
    )
    parser.add_argument(
        "--fast-iterations",
        type=positive_int,
        default=10,
        metavar="N",
        help="iterations of the quick search of --full-share (default 10)",
    )
    parser.add_argument(
        "--hidden",
        type=positive_int,
        nargs="+",
        default=[128],
        metavar="H",
        help="hidden layer widths, one or two (default 128)",
    )
    parser.add_argument(
        "--epochs",
        type=positive_int,
        default=20,
        metavar="E",
        help="at most this many fitting passes over the records per iteration, fewer when "
        "the held-out loss stops improving (default 20)",
    )
    parser.add_argument(
        "--replay",
        type=float,
        default=0.7,
        metavar="R",
        help="replay buffer: an iteration A iterations old keeps R**A of its records "
        "(1: all, 0: the newest only; default 0.7)",
    )
    parser.add_argument(
        "--value-mix",
        type=float,
        default=0.5,
        metavar="M",
        help="share of the guided search's root estimate blended into the value target "
        "beside the game's result (default 0.5)",
    )
    parser.add_argument(
        "--holdout",
        type=float,
        default=0.1,
        metavar="F",
        help="fraction of the records held out to stop the fitting early (0: none; default 0.1)",
    )
    parser.add_argument(
        "--gate",
        type=positive_int,
        metavar="G",
        help="keep the best model, not the last: each fitted model plays G seat-rotated games "
        "(policy alone) against the one in --out and replaces it only if it wins its even "
        "share (1/players); the last fitted model is written beside it as BOT.candidate.npz "
        "(default: no gating)",
    )
    flags.add_seed(parser, "seed of the self-play games and the model (default 0)")
    flags.add_jobs(parser, "self-play worker processes (default 1)")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play self-play games on a Dask cluster (needs the 'dask' extra)",
    )
    flags.add_quiet(parser, "no progress lines")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


COMMAND = Command(
    name="train",
    help="train a fast bot for a ruleset by self-play with the search bot as teacher",
    description="Expert iteration: the search bot plays itself, a small numpy model learns its "
    "choices (root visit shares) and the results; the next iteration's search uses the model. "
    "The file written is played by '--bots learned:FILE' (no search) or "
    "'search:...:model=FILE'.",
    configure=configure,
    run=run,
)
