"""The running game: plain data and the public methods to play it (the flow machine that
advances it to the next decision is in machine.py).

A State holds only plain values (ints, strings, None, lists, dicts) and a seeded generator,
so it copies cheaply (tree search) and serialises to JSON. Everything a rule may change lives
in `g` (global fields), `p` (one dict per seat) and `v` (flow variables).
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from interpreter.diagnostics.errors import IllegalOptionError
from interpreter.dsl.compiler import Env
from interpreter.engine.machine import RULE_FAILURES, advance, rule_failure
from interpreter.engine.scoring import Result
from interpreter.engine.view import copy_tree, seat_view
from interpreter.model.rules import Rules

__all__ = ["Compiled", "Result", "State"]


class Compiled(Protocol):
    """What a state is a game of: the compiled rules (a Game; rule code reads ``env`` too)."""

    rules: Rules
    env: Env


@dataclass(eq=False)
class State:
    """One game in progress. Create with Game.new_state(seed)."""

    game: Compiled
    g: dict[str, Any]
    p: list[dict[str, Any]]
    v: dict[str, Any]
    rng: random.Random
    seed: int
    pc: int = 0
    calls: list[int] = field(default_factory=list)
    pending: dict[str, tuple] | None = None
    who: int | None = None
    round: int = 0
    decisions: int = 0
    history: list[str] = field(default_factory=list)
    log: list[tuple[int, int | None, str]] | None = field(default_factory=list)
    over: bool = False
    t: dict[str, Any] = field(default_factory=dict)
    # what active pieces grant, per (seat, ability); emptied whenever a piece changes
    ab: dict[tuple[int, str], int] = field(default_factory=dict)
    _result: Result | None = None
    # a decision with one legal option is taken by the engine (see machine.take_only); False
    # asks every decision, as games saved before that did (save format 1)
    take_forced: bool = True

    # -- the public surface ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or None when the game is over."""
        return None if self.over else self.who

    def legal_options(self) -> list[str]:
        """Every legal option id at this point, in a stable order."""
        return [] if self.pending is None else list(self.pending)

    def apply(self, option_id: str) -> None:
        """Take one option; an unknown or illegal id raises and leaves the state unchanged."""
        pending = self.pending
        if pending is None or self.over:
            raise IllegalOptionError(option_id, [])
        entry = pending.get(option_id)
        if entry is None:
            raise IllegalOptionError(option_id, list(pending))
        spec, opt, values = entry
        limits = self.game.rules.limits
        if self.decisions >= limits.decisions:
            raise limits.error("decisions", self.round, self.decisions)
        self.ab.clear()  # the caller may have edited pieces directly since the last decision
        t = self.t
        for key, value in zip(opt.slots, values, strict=True):
            t[key] = value
        seat = self.who
        log = self.log
        mark = -1
        if log is not None:
            if opt.log is not None:
                log.append((self.round, seat, opt.log(self)))
            else:
                mark = len(log)
        for flag in spec.idle_flags:
            self.v[flag] = 1
        self.pending = None
        self.who = None
        self.history.append(option_id)
        self.decisions += 1
        try:
            opt.effect(self)
        except RULE_FAILURES as e:
            raise rule_failure(e, self.game.rules, self, seat, option_id) from None
        if mark >= 0 and len(log) == mark:
            # the option's effect said nothing itself: the log shows the choice as taken
            log.append((self.round, seat, option_id))
        self.pc += 1
        advance(self.game.rules, self, seat, option_id)

    def copy(self) -> State:
        """An independent copy (the generator included); the log is not copied."""
        # Random() would seed itself from the OS first; a bare instance takes the state directly
        rng = random.Random.__new__(random.Random)
        rng.setstate(self.rng.getstate())
        # pickle copies nested plain data faster than any Python-level walk
        g, p = pickle.loads(pickle.dumps((self.g, self.p), pickle.HIGHEST_PROTOCOL))
        return State(
            game=self.game,
            g=g,
            p=p,
            v=dict(self.v),
            rng=rng,
            seed=self.seed,
            pc=self.pc,
            calls=list(self.calls),
            pending=dict(self.pending) if self.pending is not None else None,
            who=self.who,
            round=self.round,
            decisions=self.decisions,
            history=list(self.history),
            log=None,
            over=self.over,
            _result=self._result,
            take_forced=self.take_forced,
        )

    def view(self, seat: int) -> dict[str, Any]:
        """What `seat` may see: hidden fields of others and hidden piles show only counts."""
        return seat_view(self.game.rules, self, seat)

    def result(self) -> Result:
        if not self.over or self._result is None:
            raise ValueError("the game is not over")
        return self._result

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (for inspection and golden files)."""
        return {
            "round": self.round,
            "to_move": self.to_move,
            "options": self.legal_options(),
            "global": copy_tree(self.g),
            "players": copy_tree(self.p),
            "flow": {k: v for k, v in self.v.items() if not k.startswith("_")},
            "over": self.over,
        }
