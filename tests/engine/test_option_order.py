"""Options keep their places: a decision lists the options it shares with the last time it was
asked in the same order, so a typed number or a finger on a button picks the same thing at the
next step of a Mayor phase, a payment, or the next round.

Whole random games of every shipped game (each composition a few seeds, small): every prompt
is compared with the previous prompt of the same `choose` step, whoever it was asked of.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from interpreter.engine.loader import load_game

GAMES = [
    ("puerto-rico", 3, ()),
    ("puerto-rico", 4, ("new-buildings", "nobles")),
    ("san-juan", 2, ()),
    ("san-juan", 4, ("new-buildings",)),
    ("san-juan", 3, ("setup-variation",)),
]
SEEDS = (1, 2)


def prompts(rules: Any, seed: int) -> Iterator[Any]:
    """(seat, step, its label, options) of every decision asked in one random game, in turn."""
    rng = random.Random(seed)
    s = rules.new_state(seed)
    while not s.over:
        options = s.legal_options()
        step = s.pending[options[0]][0]  # the ChooseSpec: compared by identity
        yield s.to_move, id(step), step.label, options
        s.apply(rng.choice(options))


def moved(before: list[str], after: list[str]) -> int:
    """How many of the options listed both times are not at the same place among them."""
    kept = set(before) & set(after)
    first = [o for o in before if o in kept]
    second = [o for o in after if o in kept]
    return sum(a != b for a, b in zip(first, second, strict=True))


def test_moved_counts_the_options_that_changed_places() -> None:
    assert moved(["quarry", "indigo"], ["indigo", "quarry", "corn"]) == 2
    assert moved(["a", "b", "c"], ["a", "c"]) == 0


@pytest.mark.parametrize(("game", "players", "overlays"), GAMES, ids=lambda x: str(x))
def test_a_step_lists_the_options_it_shares_with_its_last_prompt_in_order(
    game: str, players: int, overlays: tuple[str, ...]
) -> None:
    in_a_row = 0  # the same seat asked the same step twice in a row (a Mayor phase, a payment)
    compared = 0
    faults: list[str] = []
    rules = load_game(game, players, overlays)
    for seed in SEEDS:
        last: dict[int, list[str]] = {}  # step -> its options when last asked
        previous: tuple[int | None, int] | None = None
        for seat, step, label, options in prompts(rules, seed):
            before = last.get(step)
            if before is not None:
                compared += 1
                in_a_row += previous == (seat, step)
                if moved(before, options) and len(faults) < 3:
                    faults.append(f"seed {seed}, {label}: {before} then {options}")
            last[step] = options
            previous = (seat, step)
    assert compared > 100 and in_a_row > 5, (compared, in_a_row)
    assert not faults, "\n".join(faults)
