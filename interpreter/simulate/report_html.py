"""``simulate --report FILE.html``: one self-contained page of charts (inline SVG, no JavaScript).

No plotting library is needed, the page opens in any browser and works offline, and CI draws it
without a display. Charts: win rate per seat and per bot with their 95% intervals (and the
fair share as a dashed line), the score distribution, game length in rounds, which end trigger
fired, and the option families chosen per game.

``FILE.png`` draws the same charts as one figure instead (report_png.py, needs matplotlib:
the ``plot`` extra); :func:`write_report` chooses by the suffix.
"""

from __future__ import annotations

import html
import importlib.util
from collections.abc import Sequence
from typing import Any

from interpreter.diagnostics.errors import ConfigError
from interpreter.simulate.figures import BAR, SEAT_RATES, STAT_KEYS, Item, bin_counts, charts
from interpreter.simulate.report_png import MATPLOTLIB_MISSING, write_png

__all__ = ["REPORT_SUFFIXES", "check_report_path", "render_html", "write_report"]

# what ``--report FILE`` accepts (compared in lower case): a page, or a figure (needs matplotlib)
REPORT_SUFFIXES = (".html", ".htm", ".png")

W = 640


def _esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def hbars(
    title: str,
    items: Sequence[Item],
    *,
    vmax: float | None = None,
    fmt: str = "{:.3f}",
    marker: float | None = None,
) -> str:
    """Horizontal bars with optional interval whiskers and a dashed reference line."""
    label_w, row_h, top = 190, 22, 28
    plot_w = W - label_w - 70
    top_value = vmax if vmax is not None else max([v for _, v, _ in items] + [1e-9])
    if vmax is None:
        top_value = max([top_value] + [ci[1] for _, _, ci in items if ci])
    h = top + row_h * len(items) + 10

    def x(v: float) -> float:
        return label_w + plot_w * (v / top_value if top_value else 0)

    parts = [f'<svg width="{W}" height="{h}" role="img" aria-label="{_esc(title)}">']
    parts.append(f'<text x="4" y="18" font-weight="bold">{_esc(title)}</text>')
    for i, (label, value, ci) in enumerate(items):
        y = top + i * row_h
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end">{_esc(label)}</text>'
            f'<rect x="{label_w}" y="{y + 3}" width="{max(0.0, x(value) - label_w):.1f}" '
            f'height="{row_h - 6}" fill="{BAR}"/>'
        )
        if ci:
            lo, hi = x(ci[0]), x(ci[1])
            mid = y + row_h / 2
            parts.append(
                f'<line x1="{lo:.1f}" y1="{mid}" x2="{hi:.1f}" y2="{mid}" stroke="black"/>'
                f'<line x1="{lo:.1f}" y1="{mid - 5}" x2="{lo:.1f}" y2="{mid + 5}" stroke="black"/>'
                f'<line x1="{hi:.1f}" y1="{mid - 5}" x2="{hi:.1f}" y2="{mid + 5}" stroke="black"/>'
            )
        text_x = max(x(value), x(ci[1]) if ci else 0) + 4
        parts.append(f'<text x="{text_x:.1f}" y="{y + 15}">{_esc(fmt.format(value))}</text>')
    if marker is not None:
        mx = x(marker)
        parts.append(
            f'<line x1="{mx:.1f}" y1="{top}" x2="{mx:.1f}" y2="{h - 8}" stroke="#c44" '
            'stroke-dasharray="4 3"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def histogram(title: str, values: Sequence[float], bins: int = 24) -> str:
    """Vertical bars of how many values fall in each of ``bins`` equal ranges."""
    height, left, bottom, top = 190, 40, 30, 28
    plot_w, plot_h = W - left - 10, height - top - bottom
    parts = [f'<svg width="{W}" height="{height}" role="img" aria-label="{_esc(title)}">']
    parts.append(f'<text x="4" y="18" font-weight="bold">{_esc(title)}</text>')
    if values:
        lo, width, counts = bin_counts(values, bins)
        bins = len(counts)
        hi = lo + bins * width
        peak = max(counts)
        bw = plot_w / bins
        for b in range(bins):
            c = counts[b]
            bh = plot_h * c / peak
            parts.append(
                f'<rect x="{left + b * bw:.1f}" y="{top + plot_h - bh:.1f}" '
                f'width="{bw - 1:.1f}" height="{bh:.1f}" fill="{BAR}"><title>'
                f"{lo + b * width:.1f}-{lo + (b + 1) * width:.1f}: {c}</title></rect>"
            )
        y = top + plot_h + 16
        parts.append(f'<text x="{left}" y="{y}">{lo:g}</text>')
        parts.append(f'<text x="{left + plot_w}" y="{y}" text-anchor="end">{hi:g}</text>')
        parts.append(f'<text x="4" y="{top + 10}">{peak}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _table(stat: tuple[str, dict[str, Any]]) -> str:
    """One statistics table under its heading (the label capitalised: "Winner's score")."""
    label, d = stat
    head = "".join(f"<th>{k}</th>" for k in STAT_KEYS)
    cells = "".join(
        f"<td>{d[k]:.2f}</td>" if isinstance(d.get(k), float) else f"<td>{d.get(k, '')}</td>"
        for k in STAT_KEYS
    )
    return f"<h3>{label.capitalize()}</h3><table><tr>{head}</tr><tr>{cells}</tr></table>"


def render_html(doc: dict[str, Any]) -> str:
    """The whole page for a ``simulate`` result document."""
    ch = charts(doc)
    title = ch.title
    score, winner, rounds, decisions = ch.stats
    interrupted = " <b>(interrupted)</b>" if ch.interrupted else ""
    body = [
        f"<h1>{_esc(title)}</h1>",
        f"<p>overlays: {_esc(ch.overlays)}; bots: {_esc(ch.bots)}; seed "
        f"{_esc(ch.seed)}; {ch.finished} of {ch.planned} games{interrupted}; "
        f"{_esc(ch.ties_text)}</p>",
        hbars(
            f"{SEAT_RATES}; dashed: fair share",
            ch.seats,
            vmax=1.0,
            marker=1 / ch.players,
        ),
        hbars("Win rate per bot", ch.bot_rates, vmax=1.0, marker=1 / ch.players),
        histogram("Final score, every seat", ch.scores),
        _table(score),
        _table(winner),
        histogram("Game length (rounds)", ch.rounds, bins=ch.round_bins),
        _table(rounds),
        _table(decisions),
        hbars("End trigger", ch.triggers, vmax=1.0),
        hbars("Options chosen per game, by family", ch.families, fmt="{:.1f}"),
        hbars("Entries picked per game (top 30)", ch.ids, fmt="{:.2f}"),
    ]
    style = (
        "body{font-family:sans-serif;max-width:700px;margin:1em auto}svg{display:block;"
        "margin:1em 0;font-size:12px}table{border-collapse:collapse;font-size:12px}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_esc(title)}</title><style>{style}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _kind(path: str) -> str:
    """``"html"`` or ``"png"`` by the file name's suffix (any case); ConfigError otherwise."""
    name = path.lower()  # the same test as the command line's: name.endswith(REPORT_SUFFIXES)
    if name.endswith((".html", ".htm")):
        return "html"
    if name.endswith(".png"):
        return "png"
    raise ConfigError(
        f"--report {path}: give a file name ending in {', '.join(REPORT_SUFFIXES[:-1])} "
        f"or {REPORT_SUFFIXES[-1]}"
    )


def check_report_path(path: str) -> None:
    """Fail before any game is played if ``write_report(path, ...)`` could not draw.

    Checks the suffix and, for a PNG, that matplotlib can be found (without importing it).
    """
    if _kind(path) == "png" and importlib.util.find_spec("matplotlib") is None:
        raise ConfigError(MATPLOTLIB_MISSING)


def write_report(path: str, doc: dict[str, Any]) -> None:
    """Draw ``doc`` at ``path``: an HTML page for ``.html``/``.htm``, a figure for ``.png``."""
    if _kind(path) == "png":
        write_png(path, doc)
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(render_html(doc))
