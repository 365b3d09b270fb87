"""How the searches end a decision: the plain search reports its estimate of each seat's share
(training blends it into the value target from the first iteration on), and the guided search
with few walks follows the policy where visits tie (its root is only expanded after one walk,
each option tried once after a few), not the first option or a one-leaf reward."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from interpreter.bots import UnknownBotError, make_bot
from interpreter.infoset.worlds import SeatView
from interpreter.learn.guided import GuidedSearchBot
from interpreter.learn.model import PolicyValueNet, save_model
from interpreter.learn.model_spaces import composition, spaces_of
from interpreter.simulate.batch import SimSpec, load_spec_game

TOY = str(Path(__file__).resolve().parents[1] / "toy" / "ruleset.yaml")


def _states(game, games: int = 3):
    """Decisions with a choice from a few random games (copies)."""
    out = []
    for seed in range(games):
        s = game.new_state(seed)
        s.log = None
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_options()
            if len(legal) > 1:
                out.append(s.copy())
            s.apply(rng.choice(legal))
    return out


def _skewed_model(tmp_path: Path) -> str:
    """A model of the toy game whose policy is far from uniform (so ties are rare)."""
    spaces = spaces_of({"game": TOY, "players": 2, "overlays": [], "options": {}})
    net = PolicyValueNet(spaces.observations.size, spaces.actions.size, 2, (16,), seed=3)
    net.params["bp"] = np.random.default_rng(2).normal(0, 3, spaces.actions.size)
    path = tmp_path / "toy.npz"
    save_model(path, net, composition(TOY, 2, [], {}, spaces.game))
    return str(path)


def test_the_plain_search_reports_each_seats_estimated_share() -> None:
    game = load_spec_game(SimSpec(game=TOY, players=2, seats=("random", "random")))
    bot = make_bot("search:iterations=30:depth=10", 0, 1)
    seen = set()
    for s in _states(game, 1)[:10]:
        seat = s.to_move
        bot.choose(SeatView(s, seat), s.legal_options())
        assert len(bot.last_root_value) == 2
        assert all(0.0 <= v <= 1.0 for v in bot.last_root_value)
        seen.add(tuple(round(v, 6) for v in bot.last_root_value))
    assert len(seen) > 1  # an estimate of each position, not a constant


def test_a_guided_search_of_one_or_two_walks_plays_the_policys_choice(tmp_path: Path) -> None:
    model = _skewed_model(tmp_path)
    game = load_spec_game(SimSpec(game=TOY, players=2, seats=("random", "random")))
    policy = [make_bot(f"learned:{model}", seat, 1) for seat in range(2)]
    states = _states(game)
    assert len(states) > 20
    for walks in (1, 2):
        guided = [make_bot(f"search:iterations={walks}:model={model}", s, 1) for s in range(2)]
        for s in states:
            seat, legal = s.to_move, s.legal_options()
            expect = policy[seat].choose(SeatView(s, seat), legal)
            assert guided[seat].choose(SeatView(s, seat), legal) == expect, (walks, legal)


def test_value_below_one_plays_each_new_leaf_out(tmp_path: Path, monkeypatch) -> None:
    model = _skewed_model(tmp_path)
    game = load_spec_game(SimSpec(game=TOY, players=2, seats=("random", "random")))
    state = _states(game, 1)[3]
    calls: list[int] = []
    original = GuidedSearchBot._playout

    def counted(self, d, steps, start_round):  # type: ignore[no-untyped-def]
        calls.append(steps)
        return original(self, d, steps, start_round)

    monkeypatch.setattr(GuidedSearchBot, "_playout", counted)
    seat, legal = state.to_move, state.legal_options()
    make_bot(f"search:iterations=12:model={model}", seat, 1).choose(SeatView(state, seat), legal)
    assert calls == []  # the value head alone
    mixed = make_bot(f"search:iterations=12:value=0.5:model={model}", seat, 1)
    mixed.choose(SeatView(state, seat), legal)
    assert len(calls) == 12  # a playout at every walk's new leaf
    estimate = mixed.last_root_value
    pure = make_bot(f"search:iterations=12:value=0:model={model}", seat, 1)
    pure.choose(SeatView(state, seat), legal)
    assert pure.last_root_value != estimate


def test_value_needs_a_model() -> None:
    with pytest.raises(UnknownBotError, match="model=FILE"):
        make_bot("search:iterations=5:value=0.5", 0, 1)
