"""``rulebook replay``: rebuild a saved game, apply its choices, print what ``play`` printed.

A save holds ruleset + config + seed + choices, which reproduce a game exactly; replay prints
the same header, log, score table and JSON line as the original ``play``. Anything that does
not fit (bad JSON, a missing key, an option that is not legal at step k, a recorded result the
replay does not reach) is a ``ReplayError`` that names the file and the step.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

import interpreter.cli as cli
from interpreter.cli import Command, IllegalOptionError, flags, replay_error
from interpreter.cli.logfmt import LogPrinter, Output
from interpreter.engine.savefile import SaveGame, read_save, result_to_dict, winners_of
from interpreter.engine.state import State

__all__ = ["COMMAND", "apply_choices", "replay", "run"]

SHOWN_LEGAL = 12


def run(args: argparse.Namespace) -> int:
    """Entry point of ``rulebook replay``."""
    save = read_save(args.file)
    return replay(save, Output(args.json, args.quiet), source=args.file)


def replay(save: SaveGame, output: Output, source: str = "<save>") -> int:
    """Replay ``save`` step by step, printing as ``play`` does. Returns the exit code."""
    game = cli.load_game(save.game, save.players, save.overlays, save.options)
    if game.players != save.players:
        raise replay_error(
            f"the save is for {save.players} players but the game loaded {game.players}", source
        )
    output.header(game, save.seed, save.seats)
    printer = LogPrinter(output.out, enabled=output.log)
    state = save.new_state(game)
    printer.flush(state)
    apply_choices(state, save.choices, printer, source)
    total = len(save.choices)
    result = result_to_dict(state.result()) if state.is_over else None
    if save.result is not None:
        if result is None:
            raise replay_error(
                f"the save records a finished game, but after all {total} choices the game "
                f"is not over (seat {state.to_move} to decide)",
                source,
            )
        # a save written before results listed their tied winners holds `winner` alone
        reached = result if "winners" in save.result else _without(result, "winners")
        if _normal(reached) != _normal(save.result):
            raise replay_error(
                "the replayed game ended differently from the recorded result "
                f"(recorded: {_brief(save.result)}; replayed: {_brief(result)}); "
                "the rules may have changed since the game was saved",
                source,
            )
    output.outcome(game, save.seed, save.seats, state, result)
    return 0


def apply_choices(
    state: State, choices: Sequence[str], printer: LogPrinter, source: str = "<save>"
) -> None:
    """Apply recorded choices one by one; the first that does not fit is a ReplayError."""
    total = len(choices)
    for step, choice in enumerate(choices, 1):
        if state.is_over:
            raise replay_error(
                f"step {step}: the game is already over, yet the save has "
                f"{total - step + 1} more choice(s) starting with {choice!r}",
                source,
            )
        legal = state.legal_options()
        if choice not in legal:
            raise _illegal(source, step, choice, state, legal)
        try:
            state.apply(choice)
        except IllegalOptionError:
            raise _illegal(source, step, choice, state, legal) from None
        printer.flush(state)


def _illegal(source: str, step: int, choice: str, state: State, legal: list[str]) -> Exception:
    shown = ", ".join(legal[:SHOWN_LEGAL]) + (", ..." if len(legal) > SHOWN_LEGAL else "")
    return replay_error(
        f"step {step} (round {state.round}, seat {state.to_move}): option {choice!r} "
        f"is not legal here; legal options: {shown}",
        source,
    )


def _normal(data: Any) -> Any:
    """Compare results as JSON data (tuples vs lists, key order do not matter)."""
    return json.loads(json.dumps(data, sort_keys=True, default=str))


def _without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


def _brief(result: dict[str, Any]) -> str:
    totals = ", ".join(f"seat {s.get('seat')}={s.get('total')}" for s in result["scores"])
    winners = winners_of(result)
    seats = ", ".join(f"seat {w}" for w in winners)
    return f"{'winners (tied)' if len(winners) > 1 else 'winner'} {seats}, {totals}"


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``rulebook replay``."""
    parser.add_argument("file", metavar="FILE", help="a save written by 'rulebook play --save'")
    flags.add_outcome(parser)


COMMAND = Command(
    name="replay",
    help="replay a saved game and print its log and scores",
    description="Rebuild a saved game from its seed and choices and print the same log and "
    "score table as the original play. Example: rulebook replay game.json --json",
    configure=configure,
    run=run,
)
