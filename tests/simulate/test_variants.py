"""Every example house rule loads, validates, and changes what it says it changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.loader import load_game
from interpreter.simulate.batch import SimSpec, run_simulation

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "examples" / "variants"
PR = "puerto-rico"


def variant(name: str) -> str:
    return str(VARIANTS / f"{name}.yaml")


def all_variants() -> list[Path]:
    return sorted(VARIANTS.glob("*.yaml"))


def test_there_are_at_least_six_variants():
    assert len(list(VARIANTS.glob("*.yaml"))) >= 6


@pytest.mark.parametrize("path", all_variants(), ids=lambda p: p.stem)
def test_each_variant_loads_and_plays(path):
    """Composes, passes the schema and the DSL checks, and plays whole games."""
    game = PR if path.name.startswith("pr-") else "san-juan"
    run = run_simulation(
        SimSpec(game, 4, seats=("random",) * 4, overlays=(str(path),), games=2, seed=5), jobs=1
    )
    assert len(run.records) == 2 and all(r["trigger"] for r in run.records)


def test_rich_start_gives_more_doubloons_after_setup():
    base = load_game(PR, 4).new_state(1)
    rich = load_game(PR, 4, overlays=[variant("pr-rich-start")]).new_state(1)
    assert [p["doubloons"] for p in base.p] == [3, 3, 3, 3]
    assert [p["doubloons"] for p in rich.p] == [5, 5, 5, 5]
    for players, expected in ((3, 4), (5, 6)):
        state = load_game(PR, players, overlays=[variant("pr-rich-start")]).new_state(1)
        assert {p["doubloons"] for p in state.p} == {expected}


def test_big_ship_sails_a_larger_ship():
    for players, big in ((3, 8), (4, 9), (5, 10)):
        game = load_game(PR, players, overlays=[variant("pr-big-ship")])
        ships = [x["type"] for x in game.new_state(1).g["ships"]]
        capacities = [game.env.attrs[s]["capacity"] for s in ships]
        base = load_game(PR, players)
        base_caps = [base.env.attrs[x["type"]]["capacity"] for x in base.new_state(1).g["ships"]]
        assert max(capacities) == big == max(base_caps) + 2
        assert capacities[:2] == base_caps[:2]


def test_no_prospector_is_never_offered():
    for players in (4, 5):
        game = load_game(PR, players, overlays=[variant("pr-no-prospector")])
        state = game.new_state(2)
        assert "prospector" not in state.g["roles-in-play"]
        assert len(state.g["roles-in-play"]) == 6
    run = run_simulation(
        SimSpec(
            PR, 5, seats=("random",) * 5, overlays=(variant("pr-no-prospector"),), games=3, seed=9
        ),
        jobs=1,
    )
    chosen = {i for r in run.records for i in r["ids"]}
    assert "role:settler" in chosen
    assert not {i for i in chosen if i.startswith("role:prospector")}
    base = run_simulation(SimSpec(PR, 5, seats=("random",) * 5, games=3, seed=9), jobs=1)
    assert any(i.startswith("role:prospector") for r in base.records for i in r["ids"])


def test_cheap_harbor_is_affordable_at_five_with_the_privilege():
    def harbor_legal(overlays):
        state = load_game(PR, 4, overlays=overlays).new_state(3)
        state.p[state.to_move]["doubloons"] = 5
        state.apply("role:builder")
        return "build:harbor" in state.legal_options()

    assert not harbor_legal([])
    assert harbor_legal([variant("pr-cheap-harbor")])
    game = load_game(PR, 4, overlays=[variant("pr-cheap-harbor")])
    assert game.env.attrs["harbor"]["cost"] == 6 and game.env.attrs["harbor"]["vp"] == 3


def test_lighthouse_is_a_new_building_with_a_hook_and_a_grant():
    game = load_game(PR, 4, overlays=[variant("pr-lighthouse")])
    state = game.new_state(4)
    assert state.g["building-supply"]["cape-lighthouse"] == 2
    seat = 1
    state.p[seat]["city"].append({"type": "cape-lighthouse", "workers": 1})
    state.ab.clear()
    assert game.ability(state, seat, "sale-bonus") == 1
    before = state.p[seat]["doubloons"]
    game.fire(state, "shipped", [seat, 2])
    assert state.p[seat]["doubloons"] == before
    game.fire(state, "shipped", [seat, 3])
    assert state.p[seat]["doubloons"] == before + 1
    # unmanned, it does nothing
    state.p[seat]["city"][-1]["workers"] = 0
    state.ab.clear()
    game.fire(state, "shipped", [seat, 5])
    assert state.p[seat]["doubloons"] == before + 1
    assert game.ability(state, seat, "sale-bonus") == 0


def test_lighthouse_gets_built_in_play():
    run = run_simulation(
        SimSpec(
            PR,
            4,
            seats=("random",) * 4,
            overlays=(variant("pr-lighthouse"),),
            games=4,
            seed=1,
        ),
        jobs=1,
    )
    assert sum(r["ids"].get("build:cape-lighthouse", 0) for r in run.records) > 0


def test_short_game_starts_with_fewer_chips_and_ends_sooner():
    short = load_game(PR, 4, overlays=[variant("pr-short-game")]).new_state(1)
    assert short.g["vp-chips"] == 65 and short.g["colonist-supply"] < 75
    spec = dict(players=4, seats=("random",) * 4, games=6, seed=2)
    base = run_simulation(SimSpec(PR, **spec), jobs=1)
    fast = run_simulation(SimSpec(PR, overlays=(variant("pr-short-game"),), **spec), jobs=1)
    mean = lambda run: sum(r["rounds"] for r in run.records) / len(run.records)  # noqa: E731
    assert mean(fast) < mean(base)


def test_variants_stack_and_conflicts_name_both_files(tmp_path):
    game = load_game(PR, 4, overlays=[variant("pr-rich-start"), variant("pr-big-ship")])
    state = game.new_state(1)
    assert state.p[0]["doubloons"] == 5 and state.g["ships"][-1]["type"] == "ship-9"
    clash = tmp_path / "poor-start.yaml"
    clash.write_text(
        "overlay: poor-start\nextends: puerto-rico\npatch:\n  tables/start-doubloons: {4: 1}\n"
    )
    from interpreter.diagnostics.errors import RulesError

    with pytest.raises(RulesError) as err:
        load_game(PR, 4, overlays=[variant("pr-rich-start"), str(clash)])
    text = str(err.value)
    assert "pr-rich-start.yaml" in text and "poor-start.yaml" in text and "O008" in text


SJ = "san-juan"


def _play_random(game, seed, watch=None):
    import random

    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_options()
        if watch is not None:
            watch(state, legal)
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("limit, overlays", [(7, []), (8, [variant("sj-hand-limit-8")])])
def test_sj_hand_limit_8_lets_hands_keep_eight_cards(limit, overlays):
    """At the first role choice of a round every hand is within the limit (no tower), and
    some hand sits exactly at it: the variant's 8, the base game's 7."""
    game = load_game(SJ, 4, overlays=overlays)
    seen: list[int] = []
    last = {"round": -1}

    def watch(state, legal):
        if state.round != last["round"] and any(o.startswith("role:") for o in legal):
            last["round"] = state.round
            for p in state.p:
                if not any(c["type"] == "tower" for c in p["city"]):
                    seen.append(len(p["hand"]))

    for seed in range(4):
        _play_random(game, seed, watch)
    assert max(seen) == limit


def test_sj_short_city_ends_at_ten_buildings():
    base = [_play_random(load_game(SJ, 3), s) for s in range(2)]
    short = [
        _play_random(load_game(SJ, 3, overlays=[variant("sj-short-city")]), s) for s in range(2)
    ]
    assert {max(len(p["city"]) for p in s.p) for s in base} == {12}
    assert {max(len(p["city"]) for p in s.p) for s in short} == {10}
    assert sum(s.round for s in short) < sum(s.round for s in base)
