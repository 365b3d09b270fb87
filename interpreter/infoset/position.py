"""A game in progress as the information-set code reads it.

The engine's ``State`` records what each seat sees (``knowledge.py``), draws worlds a seat
cannot tell apart (``worlds.py``) and asks whether a lone option is decided in public
(``forced.py``); this package sits below the model and the engine that hold the state, so it
names the state's shape here, as protocols of only what it reads, instead of importing the
``State``, the ``Game`` or the compiled ``Rules`` from above. mypy checks that each of those
is one wherever it is passed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set as AbstractSet
from typing import Any, Protocol

from interpreter.dsl.emit.emitter import Emitted
from interpreter.dsl.runtime.loglines import LogEntry

__all__ = ["Listed", "Position", "SecretRules", "SeenGame", "started_without"]


class SecretRules(Protocol):
    """The compiled rules (``model/rules.py``'s ``Rules``) as far as secrets go: the fields'
    declarations, which of them are hidden, what seats remember, what reads a secret."""

    @property
    def global_init(self) -> Mapping[str, tuple[str, Any]]: ...

    @property
    def player_init(self) -> Mapping[str, tuple[str, Any]]: ...

    @property
    def hidden_global(self) -> AbstractSet[str]: ...

    @property
    def hidden_player(self) -> AbstractSet[str]: ...

    @property
    def hidden_all(self) -> AbstractSet[str]: ...

    @property
    def collections(self) -> Mapping[str, str]: ...

    @property
    def catalog_ids(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def remember(self) -> tuple[str, ...]: ...

    @property
    def secret_vars(self) -> frozenset[str] | None: ...

    @property
    def env(self) -> Any: ...  # the rule code's environment: its fields' declared ranges


class SeenGame(Protocol):
    """The game a state is of: its rules, and what one seat may see of a state of it."""

    @property
    def rules(self) -> SecretRules: ...

    @property
    def view(self) -> Callable[..., Mapping[str, Any]]: ...


class Position(Protocol):
    """A game in progress (the engine's ``State``): the fields this package reads."""

    @property
    def game(self) -> SeenGame: ...

    @property
    def g(self) -> dict[str, Any]: ...

    @property
    def p(self) -> list[dict[str, Any]]: ...

    @property
    def v(self) -> dict[str, Any]: ...

    @property
    def calls(self) -> list[int]: ...

    @property
    def decisions(self) -> int: ...

    @property
    def pending(self) -> dict[str, tuple] | None: ...

    @property
    def log(self) -> list[LogEntry] | None: ...


class Listed(Protocol):
    """A ``choose`` step (``model/flow.py``'s ``ChooseSpec``): the function that lists its
    options, once written."""

    @property
    def enumerator(self) -> Emitted | None: ...


def started_without() -> dict[str, Any]:
    """The fields a copy of a state starts without (``State.copy``, forced.py's public copy),
    each as a new state has it: the log, the scratch names a hook bound, what pieces grant (a
    cache), the seats' records, the journal and its readers, the moves the engine took itself
    and the undo watch. Whoever follows, records or watches a state follows that state, not
    its copies. New dicts at each call: a copy's scratch names are its own."""
    return {
        "log": None,
        "t": {},
        "ab": {},
        "rec": None,
        "tj": None,
        "only_choices": None,
        "undo_run": None,
        "undo_watch": None,
    }
