"""A plain progress line with an ETA on stderr: no dependency, redrawn with ``\\r``.

``simulate  412/2000  20.6%  [#####.................]  131.2 games/s  ETA 0:12``

On a terminal it is redrawn at most ten times a second; when stderr is not a terminal (CI, a
pipe) it prints nothing until the final line, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressLine", "format_eta"]


def format_eta(seconds: float) -> str:
    """``h:mm:ss`` or ``m:ss``.

    >>> format_eta(75), format_eta(3725)
    ('1:15', '1:02:05')
    """
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ProgressLine:
    """Call with (done, total) after each batch of finished games; :meth:`close` at the end."""

    def __init__(
        self, label: str = "simulate", stream: TextIO | None = None, live: bool | None = None
    ) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self.start = time.perf_counter()
        self.last_draw = 0.0
        self.done = 0
        self.total = 0
        self.width = 0

    def text(self, done: int, total: int, now: float | None = None) -> str:
        elapsed = (now if now is not None else time.perf_counter()) - self.start
        frac = done / total if total else 1.0
        bar = "#" * int(frac * 24)
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = format_eta((total - done) / rate) if rate > 0 else "?"
        return (
            f"{self.label}  {done}/{total}  {frac * 100:5.1f}%  [{bar:<24}]  "
            f"{rate:.1f} games/s  ETA {eta}"
        )

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if not self.live:
            return
        now = time.perf_counter()
        if done < total and now - self.last_draw < 0.1:
            return
        self.last_draw = now
        line = self.text(done, total, now)
        pad = max(0, self.width - len(line))
        self.width = len(line)
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()

    def close(self, note: str = "") -> None:
        """Finish the line (live) or print one summary line (not live)."""
        elapsed = time.perf_counter() - self.start
        line = (
            f"{self.label}  {self.done}/{self.total} games in {format_eta(elapsed)} "
            f"({self.done / elapsed if elapsed > 0 else 0:.1f} games/s){note}"
        )
        if self.live:
            pad = max(0, self.width - len(line))
            self.stream.write("\r" + line + " " * pad + "\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
