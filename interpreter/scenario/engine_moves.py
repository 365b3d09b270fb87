"""The engine's own moves written as steps: a decision with one legal option, which the engine
takes by itself, is listed by an `only choice:` step (`only choice: seat 3 move:a:b`),
so that an `expect` before it sees the state before it and one after it the state after it,
without `forced: ask`.

The runner stops at the decisions of one option on the way to such a step (`watching`); each is
taken as the engine takes it (logged as the only choice, neither counted nor kept in the
history) up to the one the step lists (`settle`), which the step takes the same way. A step
that names a seat and an option (`seat 3: move:a:b`) still says that the seat is asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.dsl.runtime.loglines import LogEntry
from interpreter.engine.game import Game
from interpreter.engine.machine import ONLY_CHOICE, asks_alone
from interpreter.engine.state import State
from interpreter.scenario.expect import Failed
from interpreter.scenario.format import Step

__all__ = [
    "engine_takes",
    "forced_before",
    "lists_pending",
    "next_listed_step",
    "settle",
    "take_listed",
    "taken_by_engine",
    "took_itself",
]


def engine_takes(s: State) -> bool:
    """Whether the engine would take `s`'s pending decision by itself: one legal option, its
    `choose` not asking then (`ask-when-only-one`), nor asked for what a seat hides
    (engine/machine.py, ``asks_alone``)."""
    pending = s.pending
    if s.is_over or not pending or len(pending) != 1:
        return False
    ((spec, _opt, _values),) = pending.values()
    return not asks_alone(s, spec, pending)


def next_listed_step(steps: Sequence[Step], index: int) -> Step | None:
    """The `only choice:` step the engine's next own moves lead to from step `index` (0-based):
    the first step from there that is not an `expect`, when it is one."""
    for step in steps[index:]:
        if step.kind != "expect":
            return step if step.only_choice else None
    return None


def lists_pending(s: State, step: Step) -> bool:
    """Whether `step` lists the engine's pending own move."""
    pending = s.pending or {}
    return engine_takes(s) and step.seat in (None, s.to_move) and step.option in pending


def settle(game: Game, s: State, step: Step | None) -> None:
    """Take the engine's own moves pending in `s` as the engine would, up to the one `step`
    lists (none: all of them)."""
    while engine_takes(s) and not (step is not None and lists_pending(s, step)):
        game.take_only_choice(s)


def take_listed(game: Game, s: State, step: Step, index: int) -> None:
    """Take the engine's own move that `step` (step `index`) lists, as the engine takes it; a
    failure when it is not the one pending, saying what `s` asks instead."""
    if not lists_pending(s, step):
        legal = s.legal_options()
        if engine_takes(s):
            actual = f"the engine's own move is seat {s.to_move}'s only option {legal[0]}"
        else:
            actual = f"seat {s.to_move} is asked (options: {', '.join(legal)})"
        raise Failed(
            f"step {index} `{step.text()}`: expected the engine to take it as the only "
            f"choice\n    actual: {actual}",
            step.where,
        )
    game.take_only_choice(s)


# -- what a failing step says of the engine's own moves -------------------------------------
def forced_before(log: list[LogEntry] | None, since: int, upto: int) -> str:
    """The moves the engine took by itself in `log` from `since` to `upto`, in words: what a
    failing step says happened before it (`forced: ask` stops there)."""
    taken = []
    for _round, seat, text in (log or [])[since:upto]:
        if not text.endswith(ONLY_CHOICE):
            continue
        body = text[: -len(ONLY_CHOICE)]
        named = f"seat {seat}: "
        if seat is not None and body.startswith(named):
            taken.append(f"seat {seat}'s only option `{body[len(named) :]}`")
        else:
            who = "" if seat is None else f" (seat {seat}'s only option)"
            taken.append(f"`{body}`{who}")
    if not taken:
        return ""
    return (
        f"\n    before this step the engine took {', '.join(taken)} itself"
        " (`forced: ask` stops there)"
    )


def taken_by_engine(moves: list[tuple[int | None, str]], own: set[int], step: Step) -> bool:
    """Whether the engine took `step`'s move itself since the runner's last own move (`moves`:
    every move so far, `own`: the indexes of the runner's)."""
    last = max(own, default=-1)
    return any(
        option == step.option and step.seat in (None, seat) for seat, option in moves[last + 1 :]
    )


def took_itself(step: Step, index: int) -> str:
    """What step `index` says when the engine took its move itself before it."""
    who = "" if step.seat is None else f"seat {step.seat}: "
    listed = step.option if step.seat is None else f"seat {step.seat} {step.option}"
    return (
        f"step {index} `{step.text()}`: the engine took `{who}{step.option}` itself, "
        "as the only choice, before this step\n"
        f"    leave the step out (`moved:` checks it), list it as `only choice: {listed}`, "
        "or say `forced: ask` on it to stop there"
    )
