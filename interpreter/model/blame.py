"""Faults of a rule text that are a declaration's: reported where the declaration is written
(once, however many texts read it), with the text that reads it as a note.

* a table value of the wrong type (`coins-total: many` where a rule adds it): D008 at the
  value;
* a whole table (a list, a map) an overlay wrote where the rules of another file read one
  value (`board-size: [12, 13]` in a house rule, where the base compares it with a number):
  the overlay changed its shape under them, D008 at the overlay's value. A whole table read
  so by a text of its own file, or declared by the base ruleset, is the reading text's slip;
* a table by player count lacking a count a rule reads it with (K005, dsl/resolve/table_keys.py);
* an option whose default is a word where true or false is needed (`default: "false"`, a
  text in quotes): D008 at the default, unless a config chose the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from interpreter.diagnostics.errors import Diagnostic
from interpreter.dsl.parse.parser import DslSyntaxError
from interpreter.dsl.resolve import ir
from interpreter.dsl.resolve.table_keys import MissingCount
from interpreter.dsl.resolve.type_faults import found_words
from interpreter.dsl.resolve.types import BOOL, describe
from interpreter.load.locate import json_pointer
from interpreter.ruleset.header import Header

__all__ = ["Blame", "Declarations"]

Position = tuple[str | None, int | None, int | None]  # file, line, column


class Declarations(Protocol):
    """What blame reads of the compiler's host (model/host.py's ``DslHost``): where each
    declared name is declared, where a text starts, and the findings it adds to."""

    declared: dict[str, list]
    diagnostics: list[Diagnostic]

    def text_origin(
        self, path: Sequence[str | int]
    ) -> tuple[str | None, int | None, int | None]: ...


class Blame:
    """The declarations already blamed, and the rules that move a fault onto one. ``header``:
    the composed ruleset's (its base's file, the game options with their defaults)."""

    def __init__(self, host: Declarations, header: Header) -> None:
        self.host = host
        self.header = header
        self.blamed: set[str] = set()

    def declaration(self, err: DslSyntaxError, path: Sequence[str | int], used: Position) -> bool:
        """Report `err` (raised by the text at `path`, at `used`) at the declaration it is the
        fault of; whether it was one's."""
        culprit = getattr(err, "culprit", None)
        table = culprit
        while isinstance(table, ir.Index):  # a value read from a table: `t[players]`
            table = table.obj
        name = table.name if isinstance(table, ir.Const) else None
        if name is None or culprit is None:
            return False
        at = ":".join(str(x) for x in used if x is not None) or json_pointer(list(path))
        if isinstance(err, MissingCount):
            return self._report(name, ["tables", name], err.code, err.message, at, err.hint)
        if name.startswith("option.") and isinstance(culprit, ir.Const):
            return self._option(err, culprit, name.removeprefix("option."), at)
        return self._table(err, culprit, name, at, used[0])

    def _table(
        self, err: DslSyntaxError, culprit: ir.Expr, name: str, at: str, reader: str | None
    ) -> bool:
        declared = self.host.declared.get(name)
        if not declared or declared[0] != "tables":
            return False
        whole = isinstance(culprit, ir.Const)  # else one of its values (`t[players]`)
        value = culprit.value if isinstance(culprit, ir.Const) else None
        if (not whole or isinstance(value, dict | list | tuple)) and not self._reshaped(
            declared, reader
        ):
            # a whole table where one value is needed, or a value of a table whose shape its
            # own file or the base gave: the reading text's slip
            return False
        expected = getattr(err, "expected", None)
        want = f": {describe(expected)} is needed there" if expected is not None else ""
        verb = "is" if whole else "holds"
        message = f"table '{name}' {verb} {found_words(culprit)}{want}"
        hint = err.message + _unquote(value, expected)
        return self._report(name, declared, err.code, message, at, hint)

    def _option(self, err: DslSyntaxError, culprit: ir.Const, oname: str, at: str) -> bool:
        if getattr(err, "expected", None) != BOOL:
            return False
        declared = self.header.options.get(oname)
        default = declared.default if declared is not None else None
        if not isinstance(default, str) or default != culprit.value:
            return False  # a value a config chose, or not a word
        message = (
            f"option '{oname}' has a default of {found_words(culprit)}: "
            f"{describe(BOOL)} is needed there"
        )
        hint = err.message + _unquote(default, BOOL)
        where = ["options", oname, "default"]
        return self._report(f"option.{oname}", where, err.code, message, at, hint)

    def _reshaped(self, declared: Sequence[str | int], reader: str | None) -> bool:
        """Whether the table at `declared` was written by an overlay (not the base ruleset)
        other than the file that reads it (`reader`)."""
        written = self.host.text_origin(declared)[0]
        return written is not None and written not in (self.header.pos.file, reader)

    def _report(
        self, name: str, where: Sequence[str | int], code: str, message: str, at: str, hint: str
    ) -> bool:
        if name not in self.blamed:
            self.blamed.add(name)
            file, line, col = self.host.text_origin(where)
            self.host.diagnostics.append(
                Diagnostic(
                    code=code,
                    message=message,
                    file=file,
                    line=line,
                    column=col,
                    json_path=json_pointer(list(where)),
                    hint=f"read at {at}: {hint}",
                )
            )
        return True


def _unquote(value: Any, expected: Any) -> str:
    """How to mend a word in quotes where true or false is needed."""
    if expected == BOOL and isinstance(value, str) and value.lower() in ("true", "false"):
        return f"; write {value.lower()} without quotes: in quotes it is a text"
    return ""
