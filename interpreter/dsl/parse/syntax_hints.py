"""Syntax errors said at their cause: what the author most likely meant, not only which token
the parser did not expect.

Each hint looks at the unexpected token and the text just before it:

* ``b.cost-privilege(p)``: a hyphen joins names, so ``cost-privilege`` is one name and a field
  cannot be called; to subtract, put spaces around ``-``;
* ``1 <= n <= 2``: comparisons do not chain; ``1 <= n and n <= 2``;
* a line under an ``if ...:`` (or ``for``/``else``) that is not indented more than it (a
  dedent to no open block's column is :func:`indentation_message`).
"""

from __future__ import annotations

import re

__all__ = ["hint_for_token", "indentation_message"]

_NAME_BEFORE = re.compile(r"(\.)?([a-zA-Z_][a-zA-Z0-9_]*(?:-[a-zA-Z0-9_]+)+)\s*$")


def hint_for_token(source: str, pos: int, token_type: str, expected: set[str]) -> str | None:
    """A sentence to add to "unexpected X" for the common slips above (None: no hint)."""
    before = source[:pos]
    if token_type == "LPAR":
        m = _NAME_BEFORE.search(before)
        if m is not None:
            name = m.group(2)
            left, _, right = name.rpartition("-")
            return (
                f"'{name}' is one name (a hyphen between letters joins a name); to subtract, "
                f"put spaces around the minus: `{left} - {right}(...)`"
            )
        if re.search(r"\.\s*[a-zA-Z_][\w-]*\s*$", before):
            return "a field cannot be called; only functions and builtins take `(...)`"
    if token_type == "COMP_OP" and "COMP_OP" not in expected:
        return "comparisons do not chain: write `a <= n and n <= b` instead of `a <= n <= b`"
    return _block_not_indented(before)


def _block_not_indented(before: str) -> str | None:
    """The token starts a line right after a line ending in ':' without being indented more."""
    lines = before.split("\n")
    if len(lines) < 2 or lines[-1].strip():
        return None
    opener = next(
        (
            (i, line)
            for i, line in reversed(list(enumerate(lines[:-1])))
            if line.split("#")[0].strip()
        ),
        None,
    )
    if opener is None or not opener[1].split("#")[0].rstrip().endswith(":"):
        return None
    i, line = opener
    indent = len(line) - len(line.lstrip())
    if len(lines[-1]) > indent:
        return None
    return (
        f"the block after the ':' of line {i + 1} must be indented more than that line "
        f"(more than {indent} space(s)), here it has {len(lines[-1])}"
    )


def indentation_message(indent: int, levels: list[int]) -> str:
    """A dedent to a column no open block starts at."""
    allowed = " or ".join(str(n) for n in sorted(set(levels)))
    return (
        f"this line is indented by {indent} space(s), which matches no open block; "
        f"expected an indentation of {allowed}"
    )
