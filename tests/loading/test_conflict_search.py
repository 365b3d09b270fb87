"""The conflict search of compose/conflicts.py finds, through its tree of paths, exactly the
pairs the plain definition gives: every earlier operation whose path is a prefix of a later
one's, or has it as a prefix, in order, the first conflicting one reported."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from interpreter.compose import conflicts


@dataclass
class _Op:
    kind: str
    segments: list[str]
    leaves: list[Any] = field(default_factory=list)
    pos: Any = None
    pointer: str = ""

    @property
    def text(self) -> str:
        return "/".join(self.segments)

    def where(self) -> str:
        return "here"


class _Report:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def error(self, code: str, message: str, *rest: Any) -> None:
        self.messages.append(message)


def _pairwise(ops: list[_Op]) -> tuple[set[int], list[str]]:
    """The definition, every pair compared (what the search replaced)."""
    skipped: set[int] = set()
    out: list[str] = []
    paths = [tuple(op.segments) for op in ops]
    for j, later in enumerate(ops):
        for i in range(j):
            a, b = paths[i], paths[j]
            if id(ops[i]) in skipped or not (
                conflicts.is_prefix(a, b) or conflicts.is_prefix(b, a)
            ):
                continue
            why = conflicts._conflict(ops[i], a, later, b)
            if why is not None:
                out.append(f"{later.text} vs {ops[i].text}: {why}")
                skipped.add(id(later))
                break
    return skipped, out


def test_the_path_tree_finds_the_pairs_the_definition_does():
    rng = random.Random(7)
    reported = 0
    for _ in range(1000):
        ops = [
            _Op(
                rng.choice(["add", "add", "replace", "remove"]),
                [rng.choice(["a", "b", "-"]) for _ in range(rng.randrange(1, 4))],
            )
            for _ in range(rng.randrange(1, 20))
        ]
        report = _Report()
        skipped = conflicts.find_conflicts(report, ops)
        want_skipped, want = _pairwise(ops)
        assert skipped == want_skipped
        assert len(report.messages) == len(want)
        for message, expected in zip(report.messages, want, strict=True):
            later, earlier = expected.split(": ")[0].split(" vs ")
            assert f"'{later}'" in message and f"'{earlier}'" in message
        reported += len(want)
    assert reported > 100  # the random lists do conflict, often
