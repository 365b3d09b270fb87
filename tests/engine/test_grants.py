"""What a seat's active pieces grant is summed an ability at a time (engine/machine.py
ability_reader) and kept until a piece changes: the totals are those of the plain definition
(for each piece of the seat that grants the ability and is active, its amount) at every
decision of random games, and a piece that moves into or out of a list drops them."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from interpreter.dsl.runtime.builtins import BUILTINS
from interpreter.engine.loader import load_game
from interpreter.engine.machine import is_active


def plain_total(rules: Any, s: Any, who: int, name: str) -> int:
    total = 0
    for area in rules.player_areas:
        for piece in s.p[who][area]:
            amount = rules.env.abilities[name].get(piece["type"])
            if amount and is_active(rules, s, piece):
                total += amount
    return total


@pytest.mark.parametrize(
    ("name", "overlays"),
    [("puerto-rico", ("nobles", "new-buildings")), ("san-juan", ("new-buildings",))],
)
def test_every_total_is_the_plain_sum_at_every_decision(name, overlays):
    game = load_game(name, 3, list(overlays))
    rules = game.rules
    abilities = sorted(rules.env.abilities)
    assert abilities
    granted = 0
    for seed in range(2):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_over:
            for seat in range(game.players):
                for ability in abilities:
                    total = game.ability(s, seat, ability)
                    assert total == plain_total(rules, s, seat, ability), (ability, seat)
                    granted += total > 0
            s.apply(rng.choice(s.legal_options()))
    assert granted, "no piece granted anything in these games"


@pytest.mark.parametrize("builtin", ["push", "draw", "clear"])
def test_a_piece_moving_drops_the_kept_totals(builtin):
    fn = BUILTINS[builtin].func
    for moved, dropped in (({"type": "x"}, True), ("an-id", False)):
        s = SimpleNamespace(ab={0: {"discount": 1}})
        pile = [moved] if builtin != "push" else []
        fn(s, pile, moved) if builtin == "push" else fn(s, pile)
        assert (s.ab == {}) is dropped
