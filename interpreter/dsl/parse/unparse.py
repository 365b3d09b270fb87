"""Effect-language expressions written back as text, for messages: `'b.size == 3': ...`."""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

__all__ = ["Lazy", "show_tree"]

_PREC = {"cond": 0, "or_": 1, "and_": 2, "not_": 3, "compare": 4, "neg": 7}


def _prec(t: Any) -> int:
    if not isinstance(t, Tree):
        return 9
    if t.data == "binop":
        return 6 if str(t.children[1]) in ("*", "//", "%") else 5
    return _PREC.get(t.data, 9)


class Lazy:
    """Expression trees (and plain texts) written out only if a message uses them."""

    def __init__(self, *parts: Any) -> None:
        self.parts = parts

    def __format__(self, spec: str) -> str:
        return "".join(format(p) if isinstance(p, str | Lazy) else show_tree(p) for p in self.parts)

    __str__ = __format__  # type: ignore[assignment]


def show_tree(t: Any) -> str:
    """An expression tree written back as text (brackets only where they are needed)."""
    if isinstance(t, Token):
        return str(t)
    k, ch = t.data, t.children

    def sub(c: Any, at_least: int) -> str:
        text = show_tree(c)
        return f"({text})" if _prec(c) <= at_least else text

    if k in ("true", "false", "none"):
        return k
    if k in ("number", "name", "string"):
        return str(ch[0])
    if k == "list_":
        return "[" + ", ".join(show_tree(c) for c in ch) + "]"
    if k == "attr":
        return f"{sub(ch[0], 8)}.{ch[1]}"
    if k == "index":
        return f"{sub(ch[0], 8)}[{show_tree(ch[1])}]"
    if k == "neg":
        return "-" + sub(ch[0], 6)
    if k == "not_":
        return "not " + sub(ch[0], 2)
    if k in ("or_", "and_"):
        return f" {k[:-1]} ".join(sub(c, _prec(t)) for c in ch)
    if k == "cond":
        return f"{sub(ch[0], 0)} if {sub(ch[1], 0)} else {show_tree(ch[2])}"
    if k in ("compare", "binop"):
        level = _prec(t)
        out = [sub(ch[0], level - 1)]
        for i in range(1, len(ch), 2):
            out += [str(ch[i]), sub(ch[i + 1], level)]
        return " ".join(out)
    if k in ("call", "call_stmt"):
        rest = ch[1:]
        args = rest[0].children if rest and isinstance(rest[0], Tree) else rest
        return f"{ch[0]}({', '.join(show_tree(a) for a in args)})"
    if k == "genexp":
        text = f"{show_tree(ch[0])} for {ch[1]} in {show_tree(ch[2])}"
        return text + (f" if {show_tree(ch[3])}" if len(ch) > 3 else "")
    if k == "kwarg":
        return f"{ch[0]}={show_tree(ch[1])}"
    return " ".join(show_tree(c) for c in ch)
