"""Compare two simulation results metric by metric and flag the real differences.

Rates (win rate per seat and per bot, a tie's win shared among its winners; how often games
tied; how often each end trigger fired) are compared with the pooled two-proportion z-test;
means (scores, game length, options chosen per game) with Welch's t-test. A difference is
flagged when it is significant at 95% *after* the Benjamini-Hochberg correction over all the
metrics compared (false discovery rate 5%), so that comparing two runs of the same game
(dozens of metrics) does not flag one in twenty by chance: when nothing differs, the chance of
any flag is at most 5%. The raw p-value is shown as well.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from interpreter.simulate.stats import benjamini_hochberg, two_proportion_p, welch_p

__all__ = ["ALPHA", "Row", "compare", "format_comparison"]

ALPHA = 0.05


@dataclass
class Row:
    metric: str
    test: str  # "proportion" or "mean"
    a: float | None
    b: float | None
    diff: float | None
    p: float
    significant: bool = False
    group: str = "main"  # "main", "family" (options chosen by family) or "entry" (by full id)


def _prop(name: str, ka: float, na: int, kb: float, nb: int) -> Row:
    a = ka / na if na else None
    b = kb / nb if nb else None
    diff = None if a is None or b is None else b - a
    return Row(name, "proportion", a, b, diff, two_proportion_p(ka, na, kb, nb))


def _mean(name: str, da: dict[str, Any], db: dict[str, Any]) -> Row | None:
    if not da.get("n") or not db.get("n"):
        return None
    p = welch_p(da["mean"], da["sd"], da["n"], db["mean"], db["sd"], db["n"])
    return Row(name, "mean", da["mean"], db["mean"], db["mean"] - da["mean"], p)


def _rows(a: dict[str, Any], b: dict[str, Any]) -> Iterator[Row]:
    sa, sb = a["summary"], b["summary"]
    na, nb = sa["games"], sb["games"]
    seats_a = {r["seat"]: r for r in sa["win_rate"]["seats"]}
    seats_b = {r["seat"]: r for r in sb["win_rate"]["seats"]}
    for seat in sorted(set(seats_a) & set(seats_b)):
        ra, rb = seats_a[seat], seats_b[seat]
        label = ra["bot"] if ra["bot"] == rb["bot"] else f"{ra['bot']}/{rb['bot']}"
        yield _prop(f"win rate seat {seat} ({label})", ra["wins"], ra["n"], rb["wins"], rb["n"])
    bots_a, bots_b = sa["win_rate"]["bots"], sb["win_rate"]["bots"]
    for bot in sorted(set(bots_a) & set(bots_b)):
        ra, rb = bots_a[bot], bots_b[bot]
        yield _prop(f"win rate bot {bot}", ra["wins"], ra["n"], rb["wins"], rb["n"])
    if "ties" in sa and "ties" in sb:
        yield _prop("tied games", sa["ties"]["count"], na, sb["ties"]["count"], nb)
    for key, label in (("all", "score"), ("winner", "winner's score"), ("margin", "margin")):
        row = _mean(f"{label} mean", sa["scores"][key], sb["scores"][key])
        if row:
            yield row
    for seat in sorted(set(seats_a) & set(seats_b)):
        row = _mean(f"score mean seat {seat}", seats_a[seat]["score"], seats_b[seat]["score"])
        if row:
            yield row
    ca, cb = sa["scores"]["components"], sb["scores"]["components"]
    for comp in [c for c in ca if c in cb]:
        row = _mean(f"score {comp} mean", ca[comp], cb[comp])
        if row:
            yield row
    for key in ("rounds", "decisions"):
        row = _mean(f"{key} per game", sa["length"][key], sb["length"][key])
        if row:
            yield row
    ta, tb = sa["triggers"], sb["triggers"]
    for trig in sorted(set(ta) | set(tb)):
        ka = ta.get(trig, {}).get("count", 0)
        kb = tb.get(trig, {}).get("count", 0)
        yield _prop(f"end trigger {trig}", ka, na, kb, nb)
    for kind, group in (("families", "family"), ("ids", "entry")):
        xa, xb = sa["choices"][kind], sb["choices"][kind]
        for name in sorted(set(xa) | set(xb)):
            da = _picks(xa.get(name), na)
            db = _picks(xb.get(name), nb)
            row = _mean(f"chosen {name} per game", da, db)
            if row:
                row.group = group
                yield row


def _picks(entry: dict[str, Any] | None, games: int) -> dict[str, Any]:
    if entry is None:
        return {"n": games, "mean": 0.0, "sd": 0.0}
    return {"n": games, "mean": entry["per_game"], "sd": entry["sd"]}


def compare(a: dict[str, Any], b: dict[str, Any], alpha: float = ALPHA) -> list[Row]:
    """Every comparable metric of two results; ``significant``: Benjamini-Hochberg at ``alpha``."""
    rows = list(_rows(a, b))
    for row, flagged in zip(rows, benjamini_hochberg([r.p for r in rows], alpha), strict=True):
        row.significant = flagged
    return rows


def _describe(doc: dict[str, Any]) -> str:
    c = doc["config"]
    seats = ",".join(c["seats"])
    overlays = ",".join(c.get("overlay_ids", c["overlays"])) or "none"
    done = doc["run"]["finished"]
    extra = " (interrupted)" if doc["run"].get("interrupted") else ""
    ties = doc["summary"].get("ties")
    tied = f" ({ties['count']} tied)" if ties else ""
    return (
        f"{c['game']}, {c['players']} players, overlays: {overlays}, bots: {seats}, "
        f"{done} games{tied}{extra}, seed {c['seed']}"
    )


def _fmt(x: float | None, rate: bool) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if rate else f"{x:.2f}"


def format_comparison(
    a: dict[str, Any],
    b: dict[str, Any],
    rows: list[Row],
    names: tuple[str, str],
    show_all: bool = False,
) -> str:
    """The side-by-side table ``rulebook compare`` prints.

    Rows of single entries (``chosen build:x per game``) are many; unless ``show_all``, only
    those with a significant difference are shown (the counts of the others are given).
    """
    out = [f"A: {names[0]}: {_describe(a)}", f"B: {names[1]}: {_describe(b)}", ""]
    shown = [r for r in rows if show_all or r.group != "entry" or r.significant]
    hidden = len(rows) - len(shown)
    width = max([len(r.metric) for r in shown] + [6])
    out.append(f"  {'metric':<{width}}  {'A':>9}  {'B':>9}  {'B-A':>9}  {'p':>8}")
    for r in shown:
        rate = r.test == "proportion"
        diff = "-" if r.diff is None else (f"{r.diff:+.3f}" if rate else f"{r.diff:+.2f}")
        mark = "*" if r.significant else " "
        out.append(
            f"{mark} {r.metric:<{width}}  {_fmt(r.a, rate):>9}  {_fmt(r.b, rate):>9}  "
            f"{diff:>9}  {r.p:8.4f}"
        )
    flagged = sum(r.significant for r in rows)
    out.append("")
    if hidden:
        out.append(
            f"({hidden} rows of single entries without a significant difference hidden; "
            "--all shows them)"
        )
    out.append(
        f"{flagged} of {len(rows)} differences significant at 95% (marked *): two-proportion "
        "z-test for rates, Welch t-test for means, Benjamini-Hochberg over all rows."
    )
    return "\n".join(out)


def rows_to_json(rows: list[Row]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]
