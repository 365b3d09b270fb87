"""Determinisations shuffle with an inlined copy of ``random.Random.shuffle`` (infoset/worlds.py,
for speed): it must give the same permutation and leave the generator in the same place, or
seeded searches would stop replaying as they did."""

from __future__ import annotations

import random

from interpreter.infoset.worlds import _shuffle


def test_the_inlined_shuffle_is_the_standard_one() -> None:
    for length in range(0, 140):
        for seed in range(4):
            ours, theirs = list(range(length)), list(range(length))
            a, b = random.Random(seed), random.Random(seed)
            _shuffle(a, ours)
            b.shuffle(theirs)
            assert ours == theirs, (length, seed)
            assert a.getrandbits(64) == b.getrandbits(64)


def test_another_generator_shuffles_itself() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    items = list(range(10))
    _shuffle(Counting(1), items)
    assert Counting.calls == 1 and sorted(items) == list(range(10))
