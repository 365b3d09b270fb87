"""Where a rule text's generated code came from: the rule file's lines, read once per file,
and the map from a generated code object back to file:line:col of the text it runs (used
only when a rule fails, to point the error at the rule file)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import CodeType
from typing import Protocol

from interpreter.dsl.compiler import Compiler
from interpreter.ruleset.nodes import TreePath

__all__ = ["CompiledTexts", "TextOrigins", "place_in_text", "source_lines"]

_source_cache: dict[str, list[str]] = {}


def source_lines(path: str | None) -> list[str]:
    """The lines of a rule file (none for a text without one, or one that cannot be read)."""
    if not path:
        return []
    if path not in _source_cache:
        try:
            _source_cache[path] = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError:
            _source_cache[path] = []
    return _source_cache[path]


def place_in_text(
    file: str | None, vline: int | None, vcol: int | None, text: str, line: int, column: int
) -> tuple[str | None, int | None, int | None]:
    """file:line:col of (line, column) inside `text`, an effect text that starts in `file` at
    (vline, vcol).

    YAML may fold, indent or quote the text (`|`, `>-`, plain over several lines, quotes);
    its non-blank characters still appear in the file in the same order, so the place is
    found by counting them.
    """
    if vline is None:
        return file, None, None
    lines = source_lines(file)
    if not lines or not text:
        return file, vline, vcol
    tlines = text.split("\n")
    line = max(1, min(line, len(tlines)))
    offset = sum(len(x) + 1 for x in tlines[: line - 1]) + max(0, column - 1)
    nonblank = [i for i, ch in enumerate(text) if not ch.isspace()]
    if not nonblank:
        return file, vline, vcol
    want = sum(1 for i in nonblank if i < offset)
    after_end = want >= len(nonblank)
    if after_end:
        want = len(nonblank) - 1
    head = lines[vline - 1] if 0 < vline <= len(lines) else ""
    col0 = (vcol or 1) - 1
    indicator = head[col0 : col0 + 1]
    if indicator in ("|", ">"):
        li, ci = vline, 0  # a block scalar starts on the next line
    else:
        li, ci = vline - 1, col0 + (1 if indicator in ("'", '"') else 0)
    count = 0
    while li < len(lines):
        row = lines[li]
        while ci < len(row):
            if not row[ci].isspace():
                if count == want:
                    return file, li + 1, ci + 1 + (1 if after_end else 0)
                count += 1
            ci += 1
        li += 1
        ci = 0
    return file, vline, vcol


class CompiledTexts(Protocol):
    """What the origins read of the compiler's host (model/host.py's ``DslHost``): which data
    path each generated code object was compiled from, the generator's line maps, the
    position of a line and column inside a text, and the JSON pointer a report names."""

    c: Compiler
    texts: dict[CodeType, TreePath]

    def position(self, path: Sequence[str | int], line: int, column: int) -> tuple: ...

    def pointer(self, path: Sequence[str | int]) -> str: ...


class TextOrigins:
    """Generated code object -> (file, line, column, JSON path) of the rule text it runs: where
    the text itself starts (a block scalar's first line, not its `|`). Looked up only when a
    rule fails, so loading a game pays nothing for it."""

    def __init__(self, host: CompiledTexts) -> None:
        self._host = host

    def get(
        self, code: CodeType, python_line: int | None = None
    ) -> tuple[str | None, int | None, int | None, str] | None:
        """Where the text `code` was generated from is: at the statement of it that
        `python_line` (a line of the generated code) runs, else at the text's start."""
        path = self._host.texts.get(code)
        if path is None:
            return None
        generator = self._host.c.generator
        line_map = generator.line_maps.get(code) if generator is not None else None
        line, column = (line_map or {}).get(python_line or 0, (1, 1))  # (no line 0)
        return (*self._host.position(path, line, column), self._host.pointer(path))

    def inner(
        self, code: CodeType, python_line: int | None
    ) -> tuple[str | None, int | None, int | None, str] | None:
        """Where the statement of an inlined procedure that `python_line` of `code` runs is,
        in the procedure's own text (None: the line is not inside an inlined procedure)."""
        if code not in self._host.texts:
            return None
        generator = self._host.c.generator
        found = generator.inner_maps.get(code, {}).get(python_line or 0) if generator else None
        if found is None or generator is None:
            return None
        place, line, column = found
        path = generator.inner_texts[place]
        return (*self._host.position(path, line, column), self._host.pointer(path))
