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

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from interpreter.diagnostics.errors import Diagnostic, RulesError
from interpreter.load.locate import is_map, locate

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


def read_limits(data: Any) -> Limits:
    """The `limits:` of a composed ruleset (defaults for what it leaves out) and its ends."""
    limits = data.get("limits") if is_map(data) else None
    ends = tuple(_end_conditions(data))
    flow_at = tuple(locate(data, ["flow"], key=True))
    if not is_map(limits):
        return Limits(flow_at=flow_at, ends=ends)  # type: ignore[arg-type]
    return Limits(
        flow_at=flow_at,  # type: ignore[arg-type]
        rounds=int(limits.get("rounds", DEFAULT_ROUNDS)),
        decisions=int(limits.get("decisions", DEFAULT_DECISIONS)),
        declared=tuple(locate(data, ["limits"], key=True)),  # type: ignore[arg-type]
        ends=ends,
    )


def _end_conditions(data: Any) -> Iterator[EndCondition]:
    flow = data.get("flow") if is_map(data) else None
    if is_map(flow) and "end-after-round-if" in flow:
        yield _condition(data, ["flow", "end-after-round-if"], flow["end-after-round-if"])
    for part in ("flow", "phases"):  # stop-if steps live only there: the rest is not walked
        if is_map(data) and part in data:
            for path, text in _stops(data[part], [part]):
                yield _condition(data, path, text)


def _condition(data: Any, path: list[Any], text: Any) -> EndCondition:
    file, line, column = locate(data, path)
    if isinstance(text, bool):  # YAML reads a bare `false` as a boolean
        text = "true" if text else "false"
    return EndCondition(path[-1], " ".join(str(text).split()), file, line, column)


def _stops(node: Any, path: list[Any]) -> Iterator[tuple[list[Any], Any]]:
    """Every `stop-if` step under the flow and the phases, with its path."""
    if is_map(node):
        for key, value in node.items():
            if key == "stop-if":
                yield [*path, key], value
            else:
                yield from _stops(value, [*path, key])
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _stops(value, [*path, i])
