"""A stack of overlays that does not load, said where each file of it can be changed.

``validate`` checks a folder's house rules in every stack a game may lay them in
(``check/stacks.py``) and ``validate --smoke`` plays those stacks (``simulate/smoke.py``); both
say of a stack that does not load that it is *refused*, the same way: each reason at its own
position, and again at each other file's position its message names (the entry the overlay
clashes with), so that either side can be changed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from interpreter.diagnostics.errors import Diagnostic

__all__ = ["Refused", "same_file", "shown_path"]


@dataclass
class Refused:
    """A stack of overlays that does not load, and why (the diagnostics of loading it)."""

    base: str
    stack: tuple[str, ...]  # overlay files, in the order composed (the overlay checked last)
    diagnostics: list[Diagnostic]
    base_id: str | None = None  # the base's ruleset id (else its file's name)

    @property
    def label(self) -> str:
        base = self.base_id or Path(self.base).stem
        return " + ".join([base, *(Path(o).stem for o in self.stack)])

    def lines(self) -> list[str]:
        """Compiler-style lines: each reason at its own position, and a second line at each
        other file's position its message names (the entry the overlay clashes with)."""
        out = []
        for d in self.diagnostics:
            at = ":".join(
                [shown_path(d.file or self.stack[-1]), *(str(n) for n in (d.line, d.column) if n)]
            )
            out.append(f"{at}: refused[{d.code}]: stack {self.label}: {d.message}{d.details()}")
            for file, line, col in _places(d.message):
                if not d.file or not same_file(file, d.file):
                    where = f"{shown_path(file)}:{line}:{col}"
                    out.append(f"{where}: refused[{d.code}]: stack {self.label}: clashes with {at}")
        return out

    def warnings(self) -> list[Diagnostic]:
        """The refusal as warnings (what ``--json`` and ``--format github`` carry): each reason
        at its own position, and one at each other file's position its message names."""
        out = []
        for d in self.diagnostics:
            file = d.file or self.stack[-1]
            at = ":".join([shown_path(file), *(str(n) for n in (d.line, d.column) if n)])
            out.append(
                replace(
                    d,
                    file=file,
                    severity="warning",
                    message=f"stack {self.label} refused: {d.message}",
                )
            )
            for other, line, col in _places(d.message):
                if not d.file or not same_file(other, d.file):
                    message = f"stack {self.label} refused: clashes with {at}"
                    out.append(
                        Diagnostic(
                            d.code,
                            message,
                            file=shown_path(other),
                            line=int(line),
                            column=int(col),
                            severity="warning",
                        )
                    )
        return out


_PLACE = re.compile(r"\(([^()\s]+?\.ya?ml):(\d+):(\d+)\)")


def _places(message: str) -> list[tuple[str, str, str]]:
    """The ``(file:line:col)`` positions a message names (a conflict names both sides)."""
    return _PLACE.findall(message)


def shown_path(path: str) -> str:
    """A path as the user can open it: relative to the current folder when below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (by their real paths)."""
    return os.path.realpath(a) == os.path.realpath(b)
