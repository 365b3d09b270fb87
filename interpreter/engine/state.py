"""The running game: plain data plus the flow VM that advances it to the next decision.

A State holds only plain values (ints, strings, None, lists, dicts) and a seeded generator,
so it copies cheaply (tree search) and serialises to JSON. Everything a rule may change lives
in `g` (global fields), `p` (one dict per seat) and `v` (flow variables).
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics.errors import Diagnostic, IllegalOptionError, RulesError
from interpreter.dsl.compiler import RuntimeRuleError
from interpreter.model.flow import (
    CALL,
    CHOOSE,
    DO,
    END_ROUND,
    FINISH,
    JUMP,
    JUMP_IF_NOT,
    RETURN,
    STOP_IF,
)

if TYPE_CHECKING:
    from interpreter.engine.game import Game

# What a rule text can raise while running (a missing table entry, arithmetic on none, ...):
# turned into a diagnostic so no Python traceback reaches a user.
RULE_FAILURES = (
    RuntimeRuleError,
    LookupError,
    TypeError,
    ValueError,
    ArithmeticError,
    AttributeError,
)


def rule_failure(e: BaseException) -> RulesError:
    """The E001 diagnostic for an exception raised by a rule while the game runs, naming the
    rule text it came from when the failing frame is generated code (``<rule: '...'>``)."""
    detail = str(e) or type(e).__name__
    rule = None
    tb = e.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.startswith("<rule: "):
            rule = name[len("<rule: ") : -1]
        tb = tb.tb_next
    where = f" (in the rule {rule})" if rule else ""
    return RulesError(Diagnostic("E001", f"a rule failed while running: {detail}{where}"))


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


def _copy_tree(x: Any) -> Any:
    """Copy nested lists/dicts of plain values (much faster than copy.deepcopy)."""
    t = type(x)
    if t is dict:
        return {k: (_copy_tree(v) if type(v) in (dict, list) else v) for k, v in x.items()}
    if t is list:
        return [(_copy_tree(v) if type(v) in (dict, list) else v) for v in x]
    return x


@dataclass(eq=False)
class State:
    """One game in progress. Create with Game.new_state(seed)."""

    game: Game
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
            raise rule_failure(e) from None
        if mark >= 0 and len(log) == mark:
            # the option's effect said nothing itself: the log shows the choice as taken
            log.append((self.round, seat, option_id))
        self.pc += 1
        self.game.advance(self)

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
        )

    def view(self, seat: int) -> dict[str, Any]:
        """What `seat` may see: hidden fields of others and hidden piles show only counts."""
        return self.game.view(self, seat)

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
            "global": _copy_tree(self.g),
            "players": _copy_tree(self.p),
            "flow": {k: v for k, v in self.v.items() if not k.startswith("_")},
            "over": self.over,
        }


def run(game: Game, s: State) -> None:
    """Advance until a decision with at least one option, or the end of the game."""
    code = game.program.code
    while True:
        ins = code[s.pc]
        op = ins[0]
        if op == DO:
            ins[1](s)
            s.pc += 1
        elif op == JUMP_IF_NOT:
            if ins[1](s):
                s.pc += 1
            else:
                s.pc = ins[2]
        elif op == JUMP:
            s.pc = ins[1]
        elif op == CHOOSE:
            spec = ins[1]
            options = game.enumerate(s, spec)
            if options:
                s.pending = options
                s.who = spec.who(s)
                return
            s.pc += 1
        elif op == CALL:
            phase = ins[1](s)
            target = ins[2].get(phase)
            if target is None:
                from interpreter.dsl.compiler import RuntimeRuleError

                raise RuntimeRuleError(f"no phase named {phase!r}")
            s.calls.append(s.pc + 1)
            s.pc = target
        elif op == RETURN:
            s.pc = s.calls.pop()
        elif op == END_ROUND:
            if game.round_over(s):
                s.pc = ins[1]
            else:
                s.round += 1
                s.pc = game.program.round_start
        elif op == STOP_IF:
            if ins[1](s):
                s.pc = ins[2]
            else:
                s.pc += 1
        elif op == FINISH:
            game.finish(s)
            return
        else:  # pragma: no cover - the compiler emits only the codes above
            raise ValueError(f"bad instruction {ins!r}")
