"""Each house-rule knob of San Juan (a table under `tables:`, described in `presentation: docs:`)
changes the game as its description says, through the real engine: an overlay that replaces the
one table, then a few plays against the same plays of the base game."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from helpers.asking import Asking
from helpers.moves import pass_until_role, play
from interpreter.engine.loader import load_game

from .cities import city, give_building, goods, scores, set_city
from .conftest import start
from .helpers import check_cards, give_hand, hand, random_game

_games: dict[tuple, Any] = {}
ROOT = Path(__file__).resolve().parents[2]
_dir = Path(tempfile.mkdtemp(prefix="sj-knobs-"))


def knob(players: int = 4, **tables: Any) -> Any:
    """A fresh state of San Juan with an overlay that replaces each named table (`start_hand`
    is the table `start-hand`), dealt with seed 1."""
    key = (players, json.dumps(tables, sort_keys=True))
    if key not in _games:
        path = _dir / f"knob-{len(_games)}.yaml"
        replace = {f"tables/{k.replace('_', '-')}": v for k, v in tables.items()}
        overlay = {"overlay": f"knob-{len(_games)}", "extends": "san-juan", "replace": replace}
        path.write_text(yaml.safe_dump(overlay))
        _games[key] = Asking(load_game("san-juan", players, overlays=[str(path)]))
    return _games[key].new_state(1)


def test_every_knob_has_a_doc_line():
    data = yaml.safe_load((ROOT / "rulesets/san-juan/ruleset.yaml").read_text())
    missing = set(data["tables"]) - set(data["presentation"]["docs"])
    assert not missing, f"tables without a line in presentation/docs: {sorted(missing)}"


# -- setup -----------------------------------------------------------------------------------
def test_start_hand():
    assert [hand(start(), i) for i in range(4)] == [4, 4, 4, 4]
    s = knob(start_hand=5)
    assert [hand(s, i) for i in range(4)] == [5, 5, 5, 5]
    check_cards(s)


def test_start_extra_cards_by_seat():
    s = knob(start_extra_cards={0: 0, 1: 1, 2: 0, 3: 2})
    assert [hand(s, i) for i in range(4)] == [4, 5, 4, 6]
    s = knob(2, start_extra_cards={0: 2, 1: 0, 2: 0, 3: 0})
    assert [hand(s, i) for i in range(2)] == [6, 4]


def test_start_building():
    s = knob(start_building="coffee-roaster")
    assert [city(s, i) for i in range(4)] == [["coffee-roaster"]] * 4
    assert (
        s.g["deck"].count("coffee-roaster") + sum(p["hand"].count("coffee-roaster") for p in s.p)
        == 4
    )
    check_cards(s)


# -- rounds and the end ----------------------------------------------------------------------
def test_roles_per_round():
    s = knob(roles_per_round={2: 3, 3: 3, 4: 2})
    play(s, "role:prospector")
    pass_until_role(s)
    play(s, "role:trader")
    pass_until_role(s)
    assert s.g["governor"] == 1 and s.to_move == 1  # a new round after two roles


def test_city_size_ends_the_game_sooner_as_city_full():
    game = _games_for(city_size=4)
    s = random_game(game, 3)
    assert s.result().trigger == "city-full"
    assert max(len(p["city"]) for p in s.p) >= 4
    assert max(len(p["city"]) for p in s.p) < 12


def _games_for(**tables: Any) -> Any:
    knob(**tables)
    return _games[(4, json.dumps(tables, sort_keys=True))]


def test_hand_limits():
    for limit in (7, 9):
        s = knob(normal_hand_limit=limit)
        give_hand(s, 1, *["sugar-mill"] * 8, "coffee-roaster", "coffee-roaster")
        for role in ("role:prospector", "role:trader", "role:producer", "role:builder"):
            play(s, role)
            pass_until_role(s)
        # the next round's start discarded seat 1's 10 cards down to the limit
        assert s.g["governor"] == 1 and hand(s, 1) == limit


def test_same_building_limit():
    s = start()
    set_city(s, 0, "indigo-plant", "well")
    give_hand(s, 0, "indigo-plant", "well", "hero", "palace")
    play(s, "role:builder")
    assert "build:indigo-plant" in s.legal_options() and "build:well" not in s.legal_options()
    s = knob(same_building_limit={"production": 1, "city": 2})
    set_city(s, 0, "indigo-plant", "well")
    give_hand(s, 0, "indigo-plant", "well", "hero", "palace")
    play(s, "role:builder")
    assert "build:indigo-plant" not in s.legal_options() and "build:well" in s.legal_options()
    play(s, "build:well", "pay:hero")
    assert city(s, 0).count("well") == 2
    check_cards(s)


# -- privileges and the roles' numbers -------------------------------------------------------
def test_builder_privilege():
    for s, paid in ((start(), 2), (knob(builder_privilege=2), 1)):
        give_hand(s, 0, "tobacco-storage", "statue", "hero", "palace")
        play(s, "role:builder", "build:tobacco-storage")
        while s.to_move == 0:
            play(s, next(o for o in s.legal_options() if o.startswith("pay:")))
        assert hand(s, 0) == 3 - paid


@pytest.mark.parametrize(
    "tables,chooser,other",
    [({}, 2, 1), ({"producer_privilege": 2}, 3, 1), ({"goods_per_producer": 2}, 3, 2)],
)
def test_producer_privilege_and_goods_per_producer(tables, chooser, other):
    s = knob(**tables) if tables else start()
    for seat in (0, 1):
        set_city(s, seat, *["indigo-plant"] * 4)
    play(s, "role:producer")
    for seat in (0, 1):
        while s.to_move == seat and "produce:indigo-plant" in s.legal_options():
            play(s, "produce:indigo-plant")
    assert (goods(s, 0), goods(s, 1)) == (chooser, other)


@pytest.mark.parametrize(
    "tables,chooser,other",
    [({}, 2, 1), ({"trader_privilege": 2}, 3, 1), ({"goods_per_trader": 2}, 3, 2)],
)
def test_trader_privilege_and_goods_per_trader(tables, chooser, other):
    s = knob(**tables) if tables else start()
    for seat in (0, 1):
        set_city(s, seat)
        for _ in range(4):
            give_building(s, seat, "indigo-plant", good=True)
    play(s, "role:trader")
    for seat in (0, 1):
        while s.to_move == seat and "sell:indigo-plant" in s.legal_options():
            play(s, "sell:indigo-plant")
    assert (4 - goods(s, 0), 4 - goods(s, 1)) == (chooser, other)


def test_councillor_draw_privilege_and_keep():
    for tables, drawn in (({}, 5), ({"councillor_draw": 3}, 6), ({"councillor_privilege": 1}, 3)):
        s = knob(**tables) if tables else start()
        play(s, "role:councillor")
        assert len(s.p[0]["drawn"]) == drawn
    s = knob(councillor_keep=2)
    play(s, "role:councillor")
    play(s, s.legal_options()[0], s.legal_options()[0])
    assert hand(s, 0) == 6


def test_prospector_privilege():
    for s, drawn, line in (
        (start(), 1, "seat 0 draws 1 card (prospector)"),
        (knob(prospector_privilege=3), 3, "seat 0 draws 3 cards (prospector)"),
    ):
        play(s, "role:prospector")
        assert hand(s, 0) == 4 + drawn
        assert line in [text for _r, _s, text in s.log]  # the log says the knob's amount


def test_gold_mine_draw():
    for s, turned in ((start(), 4), (knob(gold_mine_draw=2), 2)):
        set_city(s, 1, "gold-mine")
        before = len(s.g["deck"])
        play(s, "role:prospector")
        pass_until_role(s)
        assert before - len(s.g["deck"]) == 1 + turned
        check_cards(s)


def test_building_draws():
    for s, extra in (
        (start(), 1),
        (
            knob(
                building_draws={
                    "well": 3,
                    "poor-house": 1,
                    "market-stand": 1,
                    "carpenter": 1,
                    "market-hall": 1,
                }
            ),
            3,
        ),
    ):
        set_city(s, 1, "aqueduct", "indigo-plant", "indigo-plant", "well")
        play(s, "role:producer", "pass", "produce:indigo-plant", "produce:indigo-plant")
        assert hand(s, 1) == 4 + extra
        drew = "seat 1 draws 1 card (Well)" if extra == 1 else f"seat 1 draws {extra} cards (Well)"
        assert drew in [text for _r, _s, text in s.log]


# -- scoring ---------------------------------------------------------------------------------
def test_scoring_values():
    monuments = ("indigo-plant", "statue", "victory-column", "triumphal-arch")
    for s, bonus in ((start(), 6), (knob(arch_points=[0, 5, 8, 12]), 8)):
        set_city(s, 0, *monuments)
        assert scores(s, 0)["components"]["bonus"] == bonus
    production = ("indigo-plant", "indigo-plant", "sugar-mill", "guild-hall")
    for tables, bonus in (
        ({}, 5),
        ({"guild_hall_per_building": 2}, 8),
        ({"guild_hall_per_kind": 3}, 9),
    ):
        s = knob(**tables) if tables else start()
        set_city(s, 0, *production)
        assert scores(s, 0)["components"]["bonus"] == bonus
    for s, bonus in ((start(), 2), (knob(city_hall_per_building=3), 6)):
        set_city(s, 0, "indigo-plant", "well", "city-hall")
        assert scores(s, 0)["components"]["bonus"] == bonus
    palace = ("silver-smelter", "silver-smelter", "hero", "victory-column", "palace")  # 3+3+5+4
    for s, vp in ((start(), 3), (knob(palace_divisor=3), 5)):
        set_city(s, 0, *palace)
        assert scores(s, 0)["components"]["palace"] == vp
