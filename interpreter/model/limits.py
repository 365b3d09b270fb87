"""The safety bound of a game, and what a ruleset says about how its games end.

A game whose end condition can never be met (a hole in the rules, say for one player count)
would otherwise run for ever and grow without end. Every game therefore stops at a bound:
``limits: {rounds: N, decisions: M}`` in the ruleset, or the defaults below, which are far
beyond any real game. Reaching it is the E003 error, naming the round, the decision and the
ruleset's end conditions with their file:line:col, so the author sees which rule never fired.

The end conditions are also read without playing: a ruleset with none at all, or with only
conditions that are the constant ``false``, is warned about (W006) by ``rulebook validate``.
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.ruleset.nodes import Plain, Pos
from interpreter.ruleset.ruleset import Ruleset

__all__ = ["DEFAULT_DECISIONS", "DEFAULT_ROUNDS", "GameLimitError", "Limits", "read_limits"]

# Far beyond every game in rulesets/ (tens of rounds, a few thousand decisions), small enough that a
# game which never ends stops within seconds and a few megabytes.
DEFAULT_ROUNDS = 1000
DEFAULT_DECISIONS = 100_000


class GameLimitError(RulesError):
    """A game reached its safety bound (E003): its end condition was never met."""


@dataclass(frozen=True)
class EndCondition:
    """One way a game can end: `end-after-round-if` or a `stop-if` step, with its position."""

    key: str
    text: str
    file: str | None
    line: int | None
    column: int | None

    def show(self) -> str:
        where = ":".join(str(x) for x in (self.file, self.line, self.column) if x is not None)
        return f"{self.key} `{self.text}`" + (f" ({where})" if where else "")

    @property
    def constant_false(self) -> bool:
        return self.text.replace("(", "").replace(")", "").strip() == "false"


@dataclass(frozen=True)
class Limits:
    """The bound of one ruleset's games and its end conditions (for the message)."""

    rounds: int = DEFAULT_ROUNDS
    decisions: int = DEFAULT_DECISIONS
    declared: tuple[str | None, int | None, int | None] = (None, None, None)  # `limits:`
    flow_at: tuple[str | None, int | None, int | None] = (None, None, None)  # `flow:`
    ends: tuple[EndCondition, ...] = ()

    def error(self, which: str, round_: int, decisions: int) -> GameLimitError:
        """The E003 error for a game stopped at this bound (`which`: rounds or decisions)."""
        bound = self.rounds if which == "rounds" else self.decisions
        source = "limits." + which if self.declared[1] is not None else f"the default {which}"
        ends = [e for e in self.ends if not e.constant_false]
        if ends:
            # the first condition is where the error points; the others carry their position
            shown = [f"{ends[0].key} `{ends[0].text}`"] + [e.show() for e in ends[1:]]
            how = "; it ends when " + " or ".join(shown)
        else:
            how = "; the ruleset has no end condition (`end-after-round-if` or `stop-if`)"
        message = (
            f"the game did not end within {bound} {which} ({source}): stopped at round "
            f"{round_}, decision {decisions}{how}"
        )
        at = ends[0] if ends else None
        file, line, column = (at.file, at.line, at.column) if at else self.flow_at
        return GameLimitError(Diagnostic("E003", message, file, line, column))

    def warnings(self) -> list[Diagnostic]:
        """W006 when no end condition can ever be true (none at all, or only `false`)."""
        if any(not e.constant_false for e in self.ends):
            return []
        at = self.ends[0] if self.ends else None
        what = "only `false` as end condition" if at else "no end condition"
        return [
            Diagnostic(
                "W006",
                f"the ruleset has {what}: its games can only stop at their safety bound "
                "(add `end-after-round-if:` under `flow:` or a `stop-if:` step)",
                *((at.file, at.line, at.column) if at else self.flow_at),
                severity="warning",
            )
        ]


def read_limits(ruleset: Ruleset) -> Limits:
    """The `limits:` of a composed ruleset (defaults for what it leaves out) and its ends."""
    flow = ruleset.flow
    ends = []
    if flow.end_after_round_if is not None:
        ends.append(_condition("end-after-round-if", flow.end_after_round_if, flow.end_pos))
    ends.extend(
        _condition("stop-if", step.head, step.places.value("stop-if"))
        for step in flow.steps()
        if step.kind == "stop-if"
    )
    flow_at = (flow.pos.file, flow.pos.line, flow.pos.column)
    bound = ruleset.header.limits
    if bound is None:
        return Limits(flow_at=flow_at, ends=tuple(ends))
    return Limits(
        flow_at=flow_at,
        rounds=DEFAULT_ROUNDS if bound.rounds is None else bound.rounds,
        decisions=DEFAULT_DECISIONS if bound.decisions is None else bound.decisions,
        declared=(bound.pos.file, bound.pos.line, bound.pos.column),
        ends=tuple(ends),
    )


def _condition(key: str, text: Plain, at: Pos) -> EndCondition:
    if isinstance(text, bool):  # YAML reads a bare `false` as a boolean
        text = "true" if text else "false"
    return EndCondition(key, " ".join(str(text).split()), at.file, at.line, at.column)
