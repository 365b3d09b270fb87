"""`rulebook test -k EXPR`: pick scenarios by words in their `file::name`, as pytest's `-k`."""

from __future__ import annotations

from collections.abc import Callable

from interpreter.scenario.format import Scenario

__all__ = ["select"]


def select(scenarios: list[Scenario], keyword: str | None) -> list[Scenario]:
    """pytest-like `-k`: words match (case-insensitively) inside `file::name`; `and`, `or`,
    `not` and parentheses combine them."""
    if not keyword:
        return scenarios
    return [sc for sc in scenarios if _match(keyword, sc.id.lower())]


def _match(expr: str, text: str) -> bool:
    tokens = expr.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def atom() -> bool:
        t = take() if peek() is not None else ""
        if t == "not":
            return not atom()
        if t == "(":
            v = disj()
            if peek() == ")":
                take()
            return v
        return t.lower() in text

    def chain(word: str, operand: Callable[[], bool]) -> bool:
        # every operand is evaluated (it consumes its tokens), then combined with the ones before
        v = operand()
        while peek() == word:
            take()
            w = operand()
            v = (w and v) if word == "and" else (w or v)
        return v

    def conj() -> bool:
        return chain("and", atom)

    def disj() -> bool:
        return chain("or", conj)

    return disj()
