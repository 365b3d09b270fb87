"""The secrets trace remembers where a code object's text is per origins object: the same code
object runs in every build of the same rules (dsl/emit/emitter.py keeps it), each build with
its own positions, and an origins object freed must not answer for the next one."""

from __future__ import annotations

from typing import Any

from interpreter.check.secrets_trace import _origin


class _Origins:
    def __init__(self, where: str) -> None:
        self.where = where

    def get(self, code: Any, line: int | None = None) -> tuple[str, int, int, str]:
        return (self.where, 1, 1, "")


def _code() -> None:
    pass


def test_each_origins_answers_for_its_own_build() -> None:
    code = _code.__code__
    seen: set[int] = set()
    for i in range(50):  # a new object soon takes the address of one freed before it
        origins = _Origins(f"build-{i}.yaml")
        again = id(origins) in seen
        seen.add(id(origins))
        assert _origin(origins, code) == (f"build-{i}.yaml", 1, 1, "")
        del origins
        if again:
            return
    raise AssertionError("no address was taken again: the case this guards did not arise")
