"""Summarise a simulation's game records: who wins, by how much, how long, what was chosen.

Everything here is computed from the records in index order, so equal records give an equal
summary (byte for byte once written as JSON), whatever ran the games.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from interpreter.engine.savefile import winners_of
from interpreter.simulate.stats import describe, wilson

__all__ = ["FORMAT", "summarise", "result_document"]

FORMAT = "rulebook-sim/1"


def _count(wins: Fraction) -> int | float:
    """A count of shared wins as JSON holds it: a whole number as an integer."""
    return int(wins) if wins.denominator == 1 else round(float(wins), 6)


def _rate(wins: Fraction, n: int) -> dict[str, Any]:
    """Wins (a tie's win shared among its winners) out of ``n`` games, with the Wilson
    interval: it takes a shared count as it is, and since a shared win varies less than a
    whole one, the interval is if anything a little wide."""
    lo, hi = wilson(float(wins), n)
    return {
        "wins": _count(wins),
        "n": n,
        "rate": round(float(wins / n), 6) if n else None,
        "ci95": [round(lo, 6), round(hi, 6)],
    }


def _per_game(records: Sequence[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """For each name counted under ``key``: the total and its per-game distribution."""
    names = sorted({name for r in records for name in r[key]})
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        values = [r[key].get(name, 0) for r in records]
        d = describe(values)
        out[name] = {
            "total": sum(values),
            "per_game": d["mean"],
            "sd": d["sd"],
            "games_with": sum(1 for v in values if v),
        }
    return out


def summarise(records: Sequence[dict[str, Any]], seats: Sequence[str]) -> dict[str, Any]:
    """The summary of finished games (see docs/variants.md for every field)."""
    n = len(records)
    players = len(seats)
    # a game won jointly by k seats (equal total and tiebreak) counts 1/k to each of them and
    # to the bot in each: no seat gains from its number, and every game counts 1 in all
    seat_wins: defaultdict[int, Fraction] = defaultdict(Fraction)
    bot_wins: defaultdict[str, Fraction] = defaultdict(Fraction)
    bot_games: Counter[str] = Counter()
    bot_scores: dict[str, list[float]] = defaultdict(list)
    ties = 0
    rotated = any("seats" in r for r in records)
    for r in records:
        by_seat = r.get("seats", seats)
        winners = winners_of(r)
        ties += len(winners) > 1
        for seat in winners:
            seat_wins[seat] += Fraction(1, len(winners))
            bot_wins[by_seat[seat]] += Fraction(1, len(winners))
        for seat, name in enumerate(by_seat):
            bot_games[name] += 1
            bot_scores[name].append(r["totals"][seat])
    seat_rows = []
    for seat in range(players):
        bot = "(rotated)" if rotated else seats[seat]
        row = {"seat": seat, "bot": bot, **_rate(seat_wins[seat], n)}
        row["score"] = describe([r["totals"][seat] for r in records])
        seat_rows.append(row)
    bot_rows = {}
    for name in sorted(bot_games):
        row = _rate(bot_wins[name], bot_games[name])
        row["share"] = row["rate"]  # the same figure, by the name seat-rotated runs use
        row["share_ci95"] = row["ci95"]
        row["fair_share"] = round(1 / players, 6)  # per seat played, like the share
        row["seats"] = [i for i, s in enumerate(seats) if s == name]
        row["score"] = describe(bot_scores[name])
        bot_rows[name] = row
    component_names: list[str] = []
    for r in records[:1]:
        component_names = list(r["components"][0]) if r["components"] else []
    components = {
        c: describe([comp[c] for r in records for comp in r["components"]]) for c in component_names
    }
    triggers = Counter(str(r["trigger"]) for r in records)
    by_rank: dict[int, list[float]] = defaultdict(list)
    for r in records:
        for rank, total in enumerate(sorted(r["totals"], reverse=True)):
            by_rank[rank].append(total)
    return {
        "games": n,
        "win_rate": {"seats": seat_rows, "bots": bot_rows},
        "ties": {
            "count": ties,
            "rate": round(ties / n, 6) if n else None,
            "ci95": [round(x, 6) for x in wilson(ties, n)],
        },
        "scores": {
            "all": describe([t for r in records for t in r["totals"]]),
            "winner": describe(by_rank[0]) if n else {"n": 0},
            "margin": describe(
                [
                    sorted(r["totals"], reverse=True)[0] - sorted(r["totals"], reverse=True)[1]
                    for r in records
                    if len(r["totals"]) > 1
                ]
            ),
            "components": components,
        },
        "length": {
            "rounds": describe([r["rounds"] for r in records]),
            "decisions": describe([r["decisions"] for r in records]),
        },
        "triggers": {
            t: {
                "count": c,
                **{"rate": round(c / n, 6)},
                "ci95": [round(x, 6) for x in wilson(c, n)],
            }
            for t, c in sorted(triggers.items())
        },
        "choices": {
            "families": _per_game(records, "families"),
            "ids": _per_game(records, "ids"),
        },
    }


def result_document(
    run: Any,
    overlay_ids: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What ``rulebook simulate --out`` writes: config, how it ran, summary, per-game records.

    ``overlays`` are the overlays as given (files as absolute paths); ``overlay_ids`` the ids
    they declare, for people to read (the paths by default). ``options`` are every option the
    games ran with, defaults included (the ones given by default), so a result stays pinned to
    its rules when a default later changes.
    """
    spec = run.spec
    return {
        "format": FORMAT,
        "config": {
            "game": spec.game,
            "players": spec.players,
            "overlays": list(spec.overlays),
            "overlay_ids": list(overlay_ids if overlay_ids is not None else spec.overlays),
            "options": dict(options if options is not None else spec.options),
            "seats": list(spec.seats),
            "seed": spec.seed,
            "games": spec.games,
            "rotate_seats": spec.rotate,
        },
        "run": {
            "finished": len(run.records),
            "not_ended": len(run.not_ended),
            "interrupted": run.interrupted,
            "jobs": run.jobs,
            "executor": run.executor,
            "elapsed_s": round(run.elapsed, 3),
            "games_per_s": round(len(run.records) / run.elapsed, 2) if run.elapsed else None,
        },
        "summary": summarise(run.records, spec.seats),
        "games": run.records,
        "not_ended": run.not_ended,
    }
