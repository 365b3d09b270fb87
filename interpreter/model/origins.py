"""Where a rule text's generated code came from: the rule file's lines, read once per file,
and the map from a generated code object back to file:line:col of the text it runs (used
only when a rule fails, to point the error at the rule file)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.load.locate import json_pointer

if TYPE_CHECKING:
    from interpreter.model.host import DslHost

__all__ = ["TextOrigins", "source_lines"]

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


class TextOrigins:
    """Generated code object -> (file, line, column, JSON path) of the rule text it runs: where
    the text itself starts (a block scalar's first line, not its `|`). Looked up only when a
    rule fails, so loading a game pays nothing for it."""

    def __init__(self, host: DslHost) -> None:
        self._host = host

    def get(
        self, code: Any, python_line: int | None = None
    ) -> tuple[str | None, int | None, int | None, str] | None:
        """Where the text `code` was generated from is: at the statement of it that
        `python_line` (a line of the generated code) runs, else at the text's start."""
        path = self._host.texts.get(code)
        if path is None:
            return None
        generator = self._host.c.generator
        line_map = generator.line_maps.get(code) if generator is not None else None
        line, column = (line_map or {}).get(python_line, (1, 1))
        return (*self._host.position(path, line, column), json_pointer(list(path)))

    def inner(
        self, code: Any, python_line: int | None
    ) -> tuple[str | None, int | None, int | None, str] | None:
        """Where the statement of an inlined procedure that `python_line` of `code` runs is,
        in the procedure's own text (None: the line is not inside an inlined procedure)."""
        if code not in self._host.texts:
            return None
        generator = self._host.c.generator
        found = generator.inner_maps.get(code, {}).get(python_line) if generator else None
        if found is None:
            return None
        place, line, column = found
        path = generator.inner_texts[place]
        return (*self._host.position(path, line, column), json_pointer(list(path)))
