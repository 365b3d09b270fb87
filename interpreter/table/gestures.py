"""A turn as one gesture: the run of one choose step's decisions that a ruleset's
``presentation: gestures:`` groups, shown to a person as one move and taken as one.

The engine keeps its small decisions (bots, agents, saves and replays see only those); a
gesture is how a person is asked and answers. For a step named under ``gestures:`` the seat to
move is sent, beside its options, how many picks the run takes (``picks``) and how often each
option may be picked (``most``), found by taking options on copies of the state; the page or the
terminal collects the whole run and sends it back as a list of option ids. The list is tried on
a copy first (:func:`plan_moves`): it is refused whole, the table unchanged, when any pick is
not legal where it comes; else its picks are the seat's moves, one by one, in an order the
engine takes them (a pick that is not legal yet waits for the next decision of the run).

Two kinds: ``assign`` (a number of units placed over the options: the seat's last run at the
step is its starting proposal, :func:`proposal`) and ``select`` (several options picked, each at
most ``most`` times, with a counter "2 of 4"). A run's length must not depend on which options
are taken (each pick is one unit of a count the seat knows), as in every gesture declared here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from interpreter.diagnostics.errors import RulebookError
from interpreter.engine.state import State
from interpreter.engine.view import seat_view
from interpreter.model.words import fill
from interpreter.table.presenter import Presentation
from interpreter.table.shapes import Gesture, GestureMessage, OptionEntry

__all__ = [
    "MAX_PICKS",
    "Asking",
    "GestureRefused",
    "gesture_message",
    "gesture_of",
    "pending_step",
    "plan_moves",
    "proposal",
]

MAX_PICKS = 64  # the longest run a gesture covers (a longer list is refused unread)
KINDS = ("assign", "select")


class GestureRefused(Exception):
    """A list of picks the seat may not send now (why, for people)."""


def pending_step(state: State) -> str:
    """The ``name:`` of the choose step asked now ("" when none, or an unnamed step)."""
    if state.pending is None or state.is_over:
        return ""
    spec = state.game.rules.program.code[state.pc][1]
    return str(getattr(spec, "step", "") or "")


def _in_run(state: State, seat: int, step: str) -> bool:
    return not state.is_over and state.to_move == seat and pending_step(state) == step


def _asking(state: State) -> State:
    """A copy that asks every decision, even one the engine would take by itself (a run is
    counted pick by pick, whatever is left to choose)."""
    trial = state.copy()
    trial.take_forced = False
    return trial


def _run(
    state: State, seat: int, step: str, option: str | None, most: int = MAX_PICKS
) -> tuple[list[str], list[list[str]]]:
    """The picks taken on a copy while the run lasts (at most ``most``): ``option`` again and
    again while it is legal (None: the first legal option each time, a whole run the engine
    takes); and the legal options at each position of the run the copy was asked at."""
    trial = _asking(state)
    taken: list[str] = []
    asked: list[list[str]] = []
    while len(taken) < most and _in_run(trial, seat, step):
        legal = trial.legal_options()
        asked.append(legal)
        pick = legal[0] if option is None else option
        if pick not in legal:
            break
        try:
            trial.apply(pick)
        except RulebookError:
            break
        taken.append(pick)
    return taken, asked


def _leading(first: list[str], asked: list[list[str]]) -> int | None:
    """How often the run's first pick can be picked in a row, as a run of it alone would find,
    read from the run the engine takes (``first``, the legal options ``asked`` at each of its
    positions), which picks it while it is the first legal option: None where that run does
    not tell (it went on with another option while this one was still legal)."""
    option = first[0]
    repeats = 0
    while repeats < len(first) and first[repeats] == option:
        repeats += 1
    if repeats == len(asked):
        return repeats  # the run was over there
    legal = asked[repeats]
    if option not in legal or legal[0] == option:  # not legal there, or it failed there
        return repeats
    return None


def gesture_of(state: State, pres: Presentation, seat: int) -> Gesture | None:
    """The gesture the seat to move is asked now, or None when its decision is no gesture's
    (or its run is one pick: an ordinary decision).

    ``picks``: how many picks the run takes; ``most``: ``[option, times]`` in the options'
    order; ``text``: what the run is for, in words (the declaration's ``text:`` with
    ``{picks}`` and ``{about}``: the labels of the seat's field ``about:`` names)."""
    step = pending_step(state)
    spec = pres.gestures.get(step) if step else None
    if spec is None or state.to_move != seat:
        return None
    legal = state.legal_options()
    first, asked = _run(state, seat, step, None)
    picks = len(first)
    if picks < 2:  # one pick is an ordinary decision
        return None
    # how often each option can be picked in a row (no more than the run's picks); the first
    # option's is often read from the engine's own run, the others tried each on a copy
    leading = _leading(first, asked)
    most: list[list[str | int]] = [
        [
            option,
            leading
            if leading is not None and option == first[0]
            else len(_run(state, seat, step, option, picks)[0]),
        ]
        for option in legal
    ]
    label = str(state.game.rules.program.code[state.pc][1].label or "")
    about = _about(state, pres, seat, spec.about)
    text = fill(spec.text or label, {"picks": str(picks), "about": about})
    return {
        "kind": spec.kind,
        "step": step,
        "picks": picks,
        "most": most,
        # a whole run the engine takes (the first option each time): what an assignment
        # starts from where the seat's last run does not say
        "first": first,
        "text": text[:1].upper() + text[1:],
        "confirm": spec.confirm,
    }


def _about(state: State, pres: Presentation, seat: int, name: object) -> str:
    """The labels of what the seat's field (else the global field) ``name`` holds, as the
    seat sees it: what a payment is for (a card being built)."""
    if not isinstance(name, str):
        return ""
    view = seat_view(state.game.rules, state, seat, shared=True)
    value = view["players"][seat].get(name, view.get("global", {}).get(name))
    if isinstance(value, str):
        return pres.label(value)
    if isinstance(value, Mapping):
        value = [k for k, n in value.items() if n]
    if isinstance(value, (list, tuple)):
        return ", ".join(pres.label(v) for v in value if isinstance(v, str))
    return ""


class Asking(Protocol):
    """A table as :func:`gesture_message` reads it (the web table's ``serve/table.py``): its
    state and presentation, the options and gesture its worker worded (``options`` None: none
    worded) and each seat's last picks at each step."""

    @property
    def state(self) -> State: ...
    @property
    def presentation(self) -> Presentation: ...
    @property
    def options(self) -> Sequence[OptionEntry] | None: ...
    @property
    def gesture(self) -> Gesture | None: ...
    @property
    def last_gestures(self) -> Mapping[tuple[int, str], Sequence[str]]: ...


def gesture_message(table: Asking, seat: int) -> GestureMessage | None:
    """The gesture the seat to move is asked now, as its message carries it (None: none), with
    the picks it starts from (``proposal``: an assignment's last run at that step)."""
    if table.options is not None:  # worded by the table's worker, with the options
        found = table.gesture
    else:
        found = gesture_of(table.state, table.presentation, seat)
    if found is None:
        return None
    last = table.last_gestures.get((seat, found["step"]), [])
    return {**found, "proposal": proposal(found, last)}


def plan_moves(state: State, pres: Presentation, seat: int, picks: Sequence[str]) -> list[str]:
    """The moves that make ``picks`` at the gesture asked now, tried on a copy: each pick where
    the engine takes it (the first pick legal at each decision of the run); refused whole
    (:class:`GestureRefused`) when a pick is not legal, the run ends before the picks do, or a
    rule fails on one. A list shorter than the run leaves the rest to ask."""
    step = pending_step(state)
    if not step or step not in pres.gestures or state.to_move != seat:
        raise GestureRefused("no gesture is asked of this seat now: send one option")
    trial = state.copy()
    # a pick the engine takes by itself (the only option left at a decision of the run) is
    # made: it is not sent, and the run may end with it
    trial.only_choices = []
    remaining = list(picks)
    moves: list[str] = []
    while remaining:
        if not _in_run(trial, seat, step):
            raise GestureRefused(
                f"{len(remaining)} pick(s) more than this step asks ({remaining[0]!r} ...)"
            )
        legal = trial.legal_options()
        pick = next((p for p in remaining if p in legal), None)
        if pick is None:
            raise GestureRefused(f"{remaining[0]!r} is not a legal option now")
        try:
            trial.apply(pick)
        except RulebookError as exc:
            raise GestureRefused(f"this move fails under the rules: {exc}") from None
        remaining.remove(pick)
        moves.append(pick)
        for taker, option in trial.only_choices:
            if taker == seat and option in remaining:
                remaining.remove(option)
        trial.only_choices.clear()
    return moves


def proposal(gesture: Mapping[str, Any], last: Sequence[str] = ()) -> list[str]:
    """The picks a gesture starts with: for ``assign``, the seat's last run at the step kept as
    far as it still fits (each option at most its ``most``, ``picks`` in all), then the units
    left placed as the engine's own run (``first``) places them; for ``select``, none.

    >>> g = {"kind": "assign", "picks": 3, "most": [["a", 1], ["b", 2]], "first": ["a", "b", "b"]}
    >>> proposal(g, ["b", "b", "a"]), proposal(g, ["b", "c"]), proposal(g)
    (['b', 'b', 'a'], ['b', 'a', 'b'], ['a', 'b', 'b'])
    """
    if gesture.get("kind") != "assign":
        return []
    room = {str(option): int(times) for option, times in gesture["most"]}
    picks = int(gesture["picks"])
    out: list[str] = []
    for option in last:
        if len(out) < picks and room.get(option, 0) > 0:
            room[option] -= 1
            out.append(option)
    for option in [*gesture.get("first", ()), *(o for o, _times in gesture["most"])]:
        if len(out) < picks and room.get(option, 0) > 0:
            room[option] -= 1
            out.append(option)
    for option, _times in gesture["most"]:
        while len(out) < picks and room[option] > 0:
            room[option] -= 1
            out.append(option)
    return out
