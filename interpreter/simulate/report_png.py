"""``simulate --report FILE.png``: the charts of the HTML report as one PNG figure.

The same content as :func:`interpreter.simulate.report_html.render_html`, drawn with matplotlib
(the optional extra ``plot``): win rate per seat and per bot with their 95% intervals as error
bars and the fair share as a dashed line, the final score and game length histograms (the same
bins as the page), the statistics of scores, rounds and decisions as a table, which end trigger
fired, the option families chosen per game and the 30 most picked entries.

matplotlib is imported inside :func:`write_png` only, so importing this module never needs it.
Drawing uses the Agg canvas directly (no pyplot, no display, no change to the process-wide
backend) under matplotlib's default style, so a user's matplotlibrc cannot change the picture,
and the PNG carries no "Software" tag: the same document gives the same bytes on one machine.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from interpreter.diagnostics.errors import ConfigError
from interpreter.simulate.figures import (
    BAR,
    SEAT_RATES,
    STAT_KEYS,
    Charts,
    Item,
    bin_counts,
    charts,
)

__all__ = ["MATPLOTLIB_MISSING", "write_png"]

MATPLOTLIB_MISSING = (
    "--report FILE.png needs matplotlib: pip install 'rulebook-games[plot]' (in a checkout: "
    "pip install -e '.[plot]'), or give a .html file name"
)

FAIR = "#cc4444"
WIDTH_IN = 12.0  # inches; at DPI that is 1200 pixels wide
DPI = 100
ROW_IN = 0.26  # height of one horizontal bar
MIN_ROWS = 4  # a panel with fewer bars leaves the rest empty instead of widening them


def _hbars(
    ax: Any,
    title: str,
    items: Sequence[Item],
    *,
    vmax: float | None = None,
    fmt: str = "{:.3f}",
    marker: float | None = None,
) -> None:
    """Horizontal bars, first item on top, with interval whiskers and a dashed reference line."""
    ax.set_title(title, loc="left", fontsize=11, fontweight="bold")
    if not items:
        _no_data(ax)
        return
    labels = [label for label, _, _ in items]
    values = [value for _, value, _ in items]
    ys = list(range(len(items)))
    lows = [max(0.0, v - ci[0]) if ci else 0.0 for _, v, ci in items]
    highs = [max(0.0, ci[1] - v) if ci else 0.0 for _, v, ci in items]
    has_ci = any(ci for _, _, ci in items)
    ax.barh(
        ys,
        values,
        height=0.7,
        color=BAR,
        xerr=[lows, highs] if has_ci else None,
        error_kw={"ecolor": "black", "elinewidth": 1, "capsize": 3},
    )
    top = vmax if vmax is not None else max([*values, *(ci[1] for _, _, ci in items if ci), 1e-9])
    for y, (_, value, ci) in zip(ys, items, strict=True):
        end = max(value, ci[1] if ci else value)
        ax.text(end + top * 0.01, y, fmt.format(value), va="center", fontsize=8)
    if marker is not None:
        ax.axvline(marker, color=FAIR, linestyle="--", linewidth=1.2, label="fair share")
        ax.legend(loc="best", fontsize=8, frameon=False)
    ax.set_yticks(ys, labels, fontsize=9)
    pad = max(0.0, (MIN_ROWS - len(items)) / 2)  # one or two bars keep their thickness
    ax.set_ylim(len(items) - 0.5 + pad, -0.5 - pad)  # first item on top
    ax.set_xlim(0, top * 1.14)  # room for the value labels
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)


def _histogram(ax: Any, title: str, values: Sequence[float], bins: int, xlabel: str) -> None:
    """Bars of how many values fall in each bin; the same bins as the HTML page."""
    from matplotlib.ticker import MaxNLocator

    ax.set_title(title, loc="left", fontsize=11, fontweight="bold")
    if not values:
        _no_data(ax)
        return
    lo, width, counts = bin_counts(values, bins)
    # whole numbers: centre each bar on the values it holds (bin [20, 21) is drawn around 20)
    shift = -0.5 if all(float(v).is_integer() for v in values) else 0.0
    lefts = [lo + shift + b * width for b in range(len(counts))]
    ax.bar(lefts, counts, width=width, align="edge", color=BAR, edgecolor="white", linewidth=0.5)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel("count", fontsize=9)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(labelsize=8)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return "" if value is None else str(value)


def _stats_table(ax: Any, rows: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """The statistics tables of the page (score, winner's score, rounds, decisions) as one."""
    ax.set_title("Statistics", loc="left", fontsize=11, fontweight="bold")
    ax.axis("off")
    table = ax.table(
        cellText=[[_cell(d.get(k)) for k in STAT_KEYS] for _, d in rows],
        rowLabels=[name for name, _ in rows],
        colLabels=list(STAT_KEYS),
        loc="center",
        cellLoc="right",
    )
    table.auto_set_font_size(False)
    table.set_fontsize(9)
    table.scale(1, 1.3)


def _no_data(ax: Any) -> None:
    ax.text(0.5, 0.5, "no games", ha="center", va="center", fontsize=10, color="#777777")
    ax.set_xticks([])
    ax.set_yticks([])


def _rows_in(n: int) -> float:
    """Height in inches of a bar panel holding ``n`` rows (title and axis included)."""
    return max(1.6, ROW_IN * n + 1.0)


def write_png(path: str, doc: dict[str, Any]) -> None:
    """Draw a ``simulate`` result document as one PNG figure of several panels at ``path``."""
    try:
        from matplotlib import style
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ConfigError(MATPLOTLIB_MISSING) from exc

    ch = charts(doc)
    heights = [
        0.9,  # header
        _rows_in(max(len(ch.seats), len(ch.bot_rates))),
        3.0,  # histograms
        1.9,  # statistics table
        _rows_in(max(len(ch.triggers), len(ch.families))),
        _rows_in(len(ch.ids)),
    ]
    with style.context("default"):
        fig = Figure(figsize=(WIDTH_IN, sum(heights)), dpi=DPI, layout="constrained")
        FigureCanvasAgg(fig)
        grid = fig.add_gridspec(len(heights), 2, height_ratios=heights)
        _header(fig.add_subplot(grid[0, :]), ch)
        fair = 1 / ch.players
        _hbars(
            fig.add_subplot(grid[1, 0]),
            SEAT_RATES,
            ch.seats,
            vmax=1.0,
            marker=fair,
        )
        _hbars(fig.add_subplot(grid[1, 1]), "Win rate per bot", ch.bot_rates, vmax=1.0, marker=fair)
        _histogram(
            fig.add_subplot(grid[2, 0]), "Final score, every seat", ch.scores, 24, "final score"
        )
        _histogram(
            fig.add_subplot(grid[2, 1]), "Game length (rounds)", ch.rounds, ch.round_bins, "rounds"
        )
        _stats_table(fig.add_subplot(grid[3, :]), ch.stats)
        _hbars(fig.add_subplot(grid[4, 0]), "End trigger (share of games)", ch.triggers, vmax=1.0)
        _hbars(
            fig.add_subplot(grid[4, 1]),
            "Options chosen per game, by family",
            ch.families,
            fmt="{:.1f}",
        )
        _hbars(
            fig.add_subplot(grid[5, :]), "Entries picked per game (top 30)", ch.ids, fmt="{:.2f}"
        )
        fig.savefig(path, format="png", dpi=DPI, metadata={"Software": None})


def _header(ax: Any, ch: Charts) -> None:
    """The title and, under it, what was played: overlays, bots, seed, games."""
    interrupted = " (interrupted)" if ch.interrupted else ""
    subtitle = (
        f"overlays: {ch.overlays}; bots: {ch.bots}; seed {ch.seed}; "
        f"{ch.finished} of {ch.planned} games{interrupted}; {ch.ties_text}"
    )
    ax.axis("off")
    ax.text(0, 0.95, ch.title, fontsize=16, fontweight="bold", va="top")
    ax.text(0, 0.35, textwrap.fill(subtitle, 150), fontsize=10, va="top", color="#333333")
