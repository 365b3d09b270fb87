"""JSON as the web table writes it: orjson, several times the standard library's speed on the
table's messages, which carry a seat's board as HTML (docs/performance.md, "The web table"). Same
output as Starlette's compact encoding: numbers and texts of subclasses (YAML-typed numbers, own
log lines) as their plain values, non-text keys as texts."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse as _StarletteJSON

__all__ = ["MAX_DEPTH", "JSONResponse", "dumps", "too_deep"]

MAX_DEPTH = 16  # arrays and objects in one another (a save file is 4 deep)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_ONE_KIND = bytes.maketrans(b"{}", b"[]")


def too_deep(body: bytes | str) -> bool:
    """Whether arrays and objects nest more than :data:`MAX_DEPTH` deep in the JSON text
    ``body``, told without parsing it (a parser recurses once per level: 100,000 ``[`` would
    exhaust its stack), in a few passes over the bytes that each cost what a copy does.

    Brackets in strings do not count: escaped backslashes and quotes are dropped, and every
    other stretch between two quotes is a string (a string left open runs to the end, where a
    parser stops anyway). Then each pass strips the innermost bracket pairs, so a valid text
    is gone after as many passes as it is deep; more than :data:`MAX_DEPTH` unmatched
    openings are too deep as well."""
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    if len(data.translate(None, _NOT_BRACKET)) <= MAX_DEPTH:
        return False
    outside = b"".join(data.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')[0::2])
    brackets = outside.translate(_ONE_KIND, _NOT_BRACKET)
    for _ in range(MAX_DEPTH):
        inner = brackets.replace(b"[]", b"")
        if len(inner) == len(brackets):
            break
        brackets = inner
    return b"[]" in brackets or brackets.count(b"[") > MAX_DEPTH


_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: object) -> str:
    """The compact JSON text of `value` (for a websocket's text frame)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


class JSONResponse(_StarletteJSON):
    """Starlette's JSON response, encoded by orjson."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=_OPTIONS)
