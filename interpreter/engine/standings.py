"""The end of a game: every seat scored by the ruleset's components, the winners by total then
tiebreak, and the Result kept on the state."""

from __future__ import annotations

from typing import Any

from interpreter.engine.frame import Frame, Result
from interpreter.model.rules import Rules

__all__ = ["Result", "finish", "rank", "score_table", "standings", "tiebreak_text"]


def score_table(rules: Rules, s: Frame) -> list[dict[str, Any]]:
    """Every seat's score as the game would count it if it ended now; `s` may be changed (the
    scoring's `before` step runs on it), so pass a copy unless `s` is thrown away after."""
    sc = rules.scoring
    if sc.before is not None:
        sc.before(s)
    scores = []
    for seat in range(rules.env.players):
        s.t[sc.seat_key] = seat
        comps = {name: int(fn(s)) for name, fn in sc.components}
        values = [int(fn(s)) for fn in sc.tiebreaks]
        tb: int | list[int] = values if sc.tiebreak_list else (values[0] if values else 0)
        scores.append(
            {"seat": seat, "total": sum(comps.values()), "components": comps, "tiebreak": tb}
        )
    return scores


def standings(rules: Rules, s: Frame) -> list[dict[str, Any]]:
    """The score table of a game still running, as if it ended now; `s` is left unchanged.

    A cheap, game-blind evaluation of any position (tree search cuts its playouts with it).
    """
    return score_table(rules, s.copy())


def rank(score: dict[str, Any]) -> tuple[int, ...]:
    """What decides the winner: the total, then each tiebreak in order (higher wins)."""
    tb = score["tiebreak"]
    return (score["total"], *tb) if type(tb) is list else (score["total"], tb)


def tiebreak_text(value: object) -> str:
    """A seat's tiebreak as shown in score tables: `7`, or `7 / 2` for a list of them."""
    return " / ".join(map(str, value)) if type(value) is list else str(value)


def finish(rules: Rules, s: Frame) -> None:
    """Score every seat, name the winners and end the game (no decision is pending after)."""
    scores = score_table(rules, s)
    best = max(rank(x) for x in scores)
    winners = [x["seat"] for x in scores if rank(x) == best]
    trigger = rules.trigger(s) if rules.trigger is not None else None
    s._result = Result(
        scores=scores,
        winner=winners[0],
        winners=winners,
        rounds=s.round,
        decisions=s.decisions,
        trigger=None if trigger is None else str(trigger),
    )
    s.over = True
    s.pending = None
    s.who = None
    if s.log is not None:
        s.log.append((s.round, None, f"game over ({trigger})" if trigger else "game over"))
