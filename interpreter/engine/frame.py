"""What a game in progress holds, as the engine's own modules read and write it.

``engine/state.py``'s :class:`State` calls the flow machine, the scoring, the views, the
memory recorder and the undo watch; those take a state back as an argument. They name its
shape here, as the :class:`Frame` protocol, instead of importing the ``State`` that imports
them, so the engine's modules form no cycle: ``state`` imports them, and they import only
this. ``State`` is a ``Frame`` (mypy checks it wherever one is passed), and so is any copy of
it. A ``Frame`` is also what the generated rule code runs on (dsl/runtime/runtime_state.py's
``RunningState``), so mypy checks each call of a compiled text with one. The game's final
:class:`Result` is kept on the state, so it is defined here too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from interpreter.dsl.resolve.scope import Env
from interpreter.dsl.runtime.runtime_state import LogEntry, RunningState
from interpreter.model.rules import Rules

__all__ = ["Frame", "Played", "Result"]


@dataclass
class Result:
    """Final scores. `scores` is in seat order; components in the ruleset's order."""

    scores: list[dict[str, Any]]
    winner: int
    winners: list[int]
    rounds: int
    decisions: int
    trigger: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "winner": self.winner,
            "winners": self.winners,
            "rounds": self.rounds,
            "decisions": self.decisions,
            "trigger": self.trigger,
        }


class Played(Protocol):
    """The game a state is of, as the engine's modules read it: its compiled rules and what a
    seat may see of a state of it (``Game.view``)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def env(self) -> Env: ...  # the names the rule code reads (``rules.env``)

    @property
    def view(self) -> Callable[..., Mapping[str, Any]]: ...


class Frame(RunningState, Protocol):
    """A game in progress (:class:`~interpreter.engine.state.State`): its fields, and the few
    methods the engine's modules call on one. The fields are documented on ``State``."""

    g: dict[str, Any]
    p: list[dict[str, Any]]
    v: dict[str, Any]
    seed: int
    pc: int
    calls: list[int]
    pending: dict[str, tuple] | None
    who: int | None
    round: int
    decisions: int
    history: list[str]
    log: list[LogEntry] | None
    over: bool
    t: dict[str, Any]
    ab: dict[int, dict[str, int]]
    _rng: random.Random | None
    _result: Result | None
    only_choices: list[tuple[int | None, str]] | None
    undo_run: tuple[int, int] | None
    take_forced: bool

    @property
    def game(self) -> Played: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def rng(self) -> random.Random: ...

    @property
    def to_move(self) -> int | None: ...

    def apply(self, option_id: str) -> None: ...

    def copy(self, *, recording: bool = False) -> Frame: ...

    def policy(self) -> dict[str, bool]: ...
