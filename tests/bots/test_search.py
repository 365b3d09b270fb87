"""The search bot: legal choices, its budget, its seed, and no peeking at hidden information."""

from __future__ import annotations

import random

import pytest

from interpreter.bots import UnknownBotError, make_bot
from interpreter.bots.search import SearchBot
from interpreter.engine.loader import load_game
from interpreter.infoset.worlds import SeatView, determinise


def _mid_game(name: str, players: int, overlays: list[str], seed: int, decisions: int):
    game = load_game(name, players, overlays)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while state.decisions < decisions or len(state.legal_options()) < 2:
        state.apply(rng.choice(state.legal_options()))
    return state


def _choose(state, bot_seed: int = 5, **params):
    seat = state.to_move
    bot = SearchBot(seat, bot_seed, **params)
    return bot.choose(SeatView(state, seat), state.legal_options()), bot


@pytest.mark.parametrize(
    ("name", "overlays"),
    [
        ("puerto-rico", []),
        ("puerto-rico", ["nobles", "new-buildings"]),
        ("san-juan", []),
        ("san-juan", ["new-buildings", "setup-variation"]),
        ("tests/toy/ruleset.yaml", []),
    ],
)
def test_search_picks_a_legal_option_within_its_iterations(name, overlays):
    # the toy game is short: 18 decisions with seed 3 (forced ones are taken by the engine)
    toy = "toy" in name
    state = _mid_game(name, 2 if toy else 3, overlays, seed=3, decisions=10 if toy else 20)
    choice, bot = _choose(state, iterations=12, depth=15)
    assert choice in state.legal_options()
    assert bot.last_iterations == 12


def test_search_is_deterministic_for_a_seed():
    state = _mid_game("san-juan", 3, [], seed=8, decisions=30)
    first = [_choose(state, bot_seed=s, iterations=25)[0] for s in (1, 2)]
    again = [_choose(state, bot_seed=s, iterations=25)[0] for s in (1, 2)]
    assert first == again


def test_search_stops_at_its_time_budget():
    state = _mid_game("puerto-rico", 3, [], seed=4, decisions=40)
    choice, bot = _choose(state, seconds=0.05)
    assert choice in state.legal_options()
    # it stops once its CPU budget is spent, long before the open-ended iteration cap
    assert 1 <= bot.last_iterations < 10**6
    # with both budgets, whichever ends first: here the iteration count
    _, capped = _choose(state, seconds=1000.0, iterations=7)
    assert capped.last_iterations == 7


def _poison(state, seat: int, rng: random.Random):
    """The same state for `seat`, with everything it cannot see scrambled: by hand where the
    seat remembers nothing, by the engine's own sampler (with the seat's memory taken over)
    where it does, plus another seat's face-down points that the seat does not count."""
    rules = state.game.rules
    if state.remembered() is not None and state.rec.memory(seat):
        other = determinise(state, seat, random.Random(rng.random()))
        other.rec = state.rec.rebase(other)
    else:
        other = state.copy()
        other.rng = random.Random(rng.random())
        unseen = []
        for name in sorted(rules.hidden_global):
            if type(other.g.get(name)) is list:
                unseen.append((other.g, name))
        for pl in other.p:
            if pl["seat"] == seat:
                continue
            for name in sorted(rules.hidden_player):
                if type(pl.get(name)) is list:
                    unseen.append((pl, name))
        by_collection: dict[str, list] = {}
        for box, name in unseen:
            by_collection.setdefault(rules.collections.get(name, name), []).append((box, name))
        for boxes in by_collection.values():
            pool = [x for box, name in boxes for x in box[name]]
            rng.shuffle(pool)
            for box, name in boxes:
                size = len(box[name])
                box[name] = pool[:size]
                del pool[:size]
        if state.rec is not None:
            other.rec = state.rec.rebase(other)
    for pl in other.p:
        if pl["seat"] != seat:
            for name in sorted(rules.hidden_player):
                if type(pl.get(name)) is int and name not in rules.remember:
                    pl[name] = pl[name] + rng.randrange(1, 9)  # face-down points not counted
    return other


@pytest.mark.parametrize(
    ("name", "overlays", "decisions"),
    [("san-juan", [], 25), ("san-juan", ["new-buildings"], 60), ("puerto-rico", [], 50)],
)
def test_search_never_reads_other_seats_hidden_information(name, overlays, decisions):
    state = _mid_game(name, 3, overlays, seed=11, decisions=decisions)
    seat = state.to_move
    poisoned = _poison(state, seat, random.Random(99))
    assert state.view(seat) == poisoned.view(seat)  # the seat cannot tell them apart
    changed = [
        (pl["seat"], k)
        for pl, ql in zip(state.p, poisoned.p, strict=True)
        for k in pl
        if pl[k] != ql[k]
    ] + [k for k in state.g if state.g[k] != poisoned.g[k]]
    assert changed, "the poisoning changed nothing: the test would prove nothing"
    a = determinise(state, seat, random.Random(3))
    b = determinise(poisoned, seat, random.Random(3))
    assert (a.g, a.p, a.rng.getstate()) == (b.g, b.p, b.rng.getstate())
    assert _choose(state, iterations=30)[0] == _choose(poisoned, iterations=30)[0]


def test_determinisation_keeps_what_the_seat_sees():
    state = _mid_game("san-juan", 4, [], seed=2, decisions=40)
    for seat in range(4):
        d = determinise(state, seat, random.Random(seat))
        assert d.view(seat) == state.view(seat)
        assert d.legal_options() == state.legal_options()


def test_bot_specs_take_parameters():
    bot = make_bot("search:iterations=7:depth=9", 1, 3)
    assert (bot.iterations, bot.depth) == (7, 9)
    with pytest.raises(UnknownBotError, match="bad parameter 'speed=2'"):
        make_bot("search:speed=2", 0, 0)
    with pytest.raises(UnknownBotError, match="not a int"):
        make_bot("search:iterations=many", 0, 0)
    with pytest.raises(UnknownBotError, match="takes KEY=VALUE"):
        make_bot("random:fast=1", 0, 0)


def test_search_needs_the_engines_view():
    with pytest.raises(TypeError, match="seat view"):
        SearchBot(0, 0).choose({}, ["a", "b"])


def test_standings_score_a_running_game_without_changing_it():
    from interpreter.engine.standings import standings

    state = _mid_game("puerto-rico", 3, [], seed=6, decisions=120)
    before = state.to_json()
    table = standings(state.game.rules, state)
    assert state.to_json() == before
    assert [row["seat"] for row in table] == [0, 1, 2]
    for row in table:
        assert row["total"] == sum(row["components"].values())
    # something was scored by then (buildings, points from shipping)
    assert any(row["total"] > 0 for row in table)


@pytest.mark.parametrize(
    ("name", "rollout"), [("puerto-rico", "pr-heuristic"), ("san-juan", "sj-heuristic")]
)
def test_bot_guided_playouts_stay_legal_and_seeded(name, rollout):
    state = _mid_game(name, 3, [], seed=7, decisions=30)
    params = {"iterations": 10, "rollout": rollout, "depth": 40}
    choice, bot = _choose(state, **params)
    assert choice in state.legal_options()
    assert bot.last_iterations == 10
    assert _choose(state, **params)[0] == choice
    # the playout bot really played: its seats' bots were made and used
    assert bot._rollout_bots is not None and bot._rollout_bots._bots


def test_rollout_names_a_known_bot_without_parameters():
    with pytest.raises(UnknownBotError, match="unknown bot 'nope'"):
        make_bot("search:rollout=nope", 0, 0)
    with pytest.raises(ValueError, match="not search"):
        make_bot("search:rollout=search", 0, 0)
    assert make_bot("search:rollout=random", 0, 0)._rollout_bots is None


def test_cut_state_score_counts_the_tiebreak_when_asked():
    from interpreter.bots.search import playout_rewards

    state = _mid_game("puerto-rico", 3, [], seed=6, decisions=200)
    plain = playout_rewards(state.copy(), scale=5.0)
    weighted = playout_rewards(state.copy(), scale=5.0, tiebreak=1.0)
    # doubloons and goods differ between seats by then, so the weighted rewards differ
    assert plain != weighted
    assert all(0.0 < r < 1.0 for r in plain + weighted)


def test_a_playout_cut_by_rounds_stops_at_the_round_boundary():
    state = _mid_game("san-juan", 3, [], seed=9, decisions=20)
    bot = SearchBot(state.to_move, 1, rounds=1, depth=10**6)
    d = state.copy()
    bot._playout(d, 0, d.round)
    assert d.round == state.round + 1 or d.over


def test_a_playout_bot_that_does_not_know_the_ruleset_fails_with_a_clear_error():
    from interpreter.diagnostics.errors import ConfigError

    state = _mid_game("san-juan", 3, [], seed=7, decisions=30)
    with pytest.raises(ConfigError, match="playout bot 'pr-heuristic' failed on this ruleset"):
        _choose(state, iterations=3, rollout="pr-heuristic")


def test_the_playout_bots_shared_view_shows_what_the_copied_one_shows():
    from interpreter.engine.view import seat_view

    state = _mid_game("san-juan", 3, [], seed=4, decisions=40)
    for seat in range(3):
        shared = seat_view(state.game.rules, state, seat, shared=True)
        assert shared == state.view(seat)
        # the shared view's own hand is the state's list itself: no copy was made
        assert shared["players"][seat]["hand"] is state.p[seat]["hand"]
