"""A game in progress as generated rule code and the builtins read and write it.

The code the emitter writes, the builtins (builtins.py), the runtime helpers (support.py) and a
journal build's noting builtins (emit/journal.py) take the running state as their first
argument, ``s``. The state is the engine's ``State``, a stage above this package, so its shape
is named here as the :class:`RunningState` protocol, of only what that code touches: the
engine's ``State`` (and its ``Frame`` protocol) is one, which mypy checks wherever one is handed
to a compiled text (:data:`Fn`). Every member is read-only here: rule code writes into the
state's containers, never rebinds a field of the state itself.

Annotations only: the generated code is the hot path, and nothing here runs in it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

__all__ = ["Fn", "LogEntry", "Note", "PieceKinds", "RuleGame", "RunningState"]

# a line of a game's log: the round, the seat it names (None: none), its text
LogEntry = tuple[int, int | None, str]
# a journal build's note of one write: (container, key) (emit/journal.py)
Note = tuple[Any, Any]


class PieceKinds(Protocol):
    """The compiled rules' names as the builtins read them (dsl/resolve/scope.py's ``Env``):
    the start values of each piece type's own fields, which `place` gives a new piece."""

    @property
    def piece_defaults(self) -> Mapping[str, Mapping[str, Any]]: ...


class RuleGame(Protocol):
    """The game a state is of (the engine's ``Game``), as far as rule code reads it."""

    @property
    def env(self) -> PieceKinds: ...


class RunningState(Protocol):
    """What generated rule code and the runtime helpers read of a game in progress (the
    engine's ``State``; its fields are documented there)."""

    @property
    def g(self) -> dict[str, Any]: ...  # the global fields

    @property
    def p(self) -> list[dict[str, Any]]: ...  # each seat's fields, in seat order

    @property
    def v(self) -> dict[str, Any]: ...  # the flow variables

    @property
    def t(self) -> dict[str, Any]: ...  # the temps: a hook's `self`, an option's `for` values

    @property
    def round(self) -> int: ...

    @property
    def log(self) -> list[LogEntry] | None: ...  # the public log (None: none kept)

    @property
    def ab(self) -> dict[int, dict[str, int]]: ...  # what pieces grant, kept per seat

    @property
    def rng(self) -> random.Random: ...  # the game's one seeded generator

    @property
    def tj(self) -> list[Note] | None: ...  # a journal build's notes (None: none kept)

    @property
    def game(self) -> RuleGame: ...


# a compiled rule text: a function of the running state
Fn = Callable[[RunningState], Any]
