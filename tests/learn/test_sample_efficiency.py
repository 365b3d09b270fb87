"""What makes training use its games better, and the look-ahead learned bot, through the real
engine: the replay buffer thins older iterations, the value target blends the search's root
estimate, early stopping keeps the best held-out pass, and ``learned:FILE:lookahead=K`` values
options on determinisations of its own information set (never on the true state)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from interpreter.bots import make_bot
from interpreter.infoset.worlds import SeatView
from interpreter.learn.fitting import fit, replay_buffer, stack_records
from interpreter.learn.model import Adam, PolicyValueNet, save_model
from interpreter.learn.model_spaces import composition, spaces_of
from interpreter.simulate.batch import play_game
from tests.bots.test_search import _mid_game, _poison

ROOT = Path(__file__).resolve().parents[2]
TOY = str(ROOT / "tests" / "toy" / "ruleset.yaml")


def _model(tmp_path: Path, game: str, players: int, seed: int = 1) -> str:
    """An untrained model of one composition, written as 'rulebook train' writes one."""
    spaces = spaces_of({"game": game, "players": players, "overlays": [], "options": {}})
    net = PolicyValueNet(spaces.observations.size, spaces.actions.size, players, (16,), seed)
    net.params["Wv"] *= 50  # values that differ between states, so look-ahead choices differ
    path = tmp_path / f"{Path(game).stem}-{players}-{seed}.npz"
    save_model(path, net, composition(game, players, [], {}, spaces.game))
    return str(path)


def test_replay_keeps_the_newest_iteration_whole_and_thins_older_ones() -> None:
    history = [(np.full((400, 1), k),) for k in range(3)]  # iteration k's rows hold k
    rng = np.random.default_rng(0)
    (rows,) = replay_buffer(history, 0.5, rng)
    counts = [int((rows == k).sum()) for k in range(3)]
    assert counts[2] == 400
    assert 150 < counts[1] < 250 and 60 < counts[0] < 140  # about 0.5 and 0.25 of 400
    assert len(replay_buffer(history, 0.0, rng)[0]) == 400
    assert len(replay_buffer(history, 1.0, rng)[0]) == 1200


def test_value_target_blends_the_result_with_the_search_estimate() -> None:
    record = {
        "obs": [np.zeros(3), np.zeros(3)],
        "acts": [[0, 1], [1, 2]],
        "targets": [[0.5, 0.5], [1.0, 0.0]],
        "movers": [0, 1],
        "rewards": [1.0, 0.0],
        # each seat's root estimate counted from the mover; the second decision had none
        "roots": [[0.6, 0.2], []],
    }
    _x, mask, pi, z, w = stack_records([record], 4, 2, value_mix=0.5)
    assert w.tolist() == [1.0, 1.0]
    assert mask[0].tolist() == [True, True, False, False]
    assert pi[1].tolist() == [0.0, 1.0, 0.0, 0.0]
    # decision 0: half the result (1, 0) and half the estimate made shares (0.75, 0.25)
    assert z[0] == pytest.approx([0.875, 0.125])
    assert z[1].tolist() == [0.0, 1.0]  # mover 1 lost (own seat first); no estimate: the result
    assert stack_records([record], 4, 2, value_mix=0.0)[3][0].tolist() == [1.0, 0.0]


def test_a_quick_searchs_position_teaches_the_value_only() -> None:
    record = {
        "obs": [np.zeros(3), np.zeros(3)],
        "acts": [[0, 1], [1, 2]],
        "targets": [[0.5, 0.5], []],  # the second was played by the quick search
        "movers": [0, 1],
        "rewards": [0.0, 1.0],
        "roots": [[], []],
    }
    _x, _mask, pi, z, w = stack_records([record], 4, 2)
    assert w.tolist() == [1.0, 0.0]
    assert not pi[1].any()
    assert z[1].tolist() == [1.0, 0.0]  # mover 1 won: a value target all the same


def test_early_stopping_keeps_the_best_held_out_pass() -> None:
    # labels a rule gives for 60% of the rows, noise for the rest: the held-out loss first
    # falls, then rises as the net learns the noise; the fitting stops there
    rng = np.random.default_rng(1)
    n, k = 300, 6
    x = rng.normal(size=(n, 10))
    mask = np.ones((n, k), dtype=bool)
    label = np.where(rng.random(n) < 0.6, x[:, :k].argmax(axis=1), rng.integers(0, k, n))
    pi = np.eye(k)[label]
    z = np.eye(2)[rng.integers(0, 2, n)]
    net = PolicyValueNet(10, k, 2, (64,), seed=0, l2=0.0)
    out = fit(net, Adam(net.params, 1e-2), (x, mask, pi, z), 200, 32, rng, 0.2, 2)
    assert out["epochs"] < 200
    assert out["holdout_after"] < out["holdout_before"]
    assert out["loss_after"] < out["loss_before"]


def test_lookahead_plays_a_full_game_from_determinisations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _model(tmp_path, TOY, 2)
    spaces = spaces_of({"game": TOY, "players": 2, "overlays": [], "options": {}})
    calls = []
    original = SeatView.determinise

    def counted(self: SeatView, rng: random.Random):  # type: ignore[no-untyped-def]
        calls.append(self.seat)
        return original(self, rng)

    monkeypatch.setattr(SeatView, "determinise", counted)
    seats = [f"learned:{path}:lookahead=2", f"learned:{path}:temperature=1"]
    record = play_game(spaces.game, seats, seed=5, index=0)
    assert record["winners"]
    assert calls and set(calls) == {0}  # only the look-ahead seat drew, from its own view


def test_lookahead_never_reads_other_seats_hidden_information(tmp_path: Path) -> None:
    path = _model(tmp_path, "san-juan", 3, seed=2)
    state = _mid_game("san-juan", 3, [], seed=11, decisions=25)
    seat = state.to_move
    poisoned = _poison(state, seat, random.Random(99))
    assert state.view(seat) == poisoned.view(seat)
    legal = state.legal_options()
    shares = []
    for s in (state, poisoned):
        bot = make_bot(f"learned:{path}:lookahead=3", seat, 7)
        shares.append(bot._look_ahead(SeatView(s, seat), legal))
    # the same value for every option whatever the seat cannot see, and not one flat value
    assert shares[0].tolist() == shares[1].tolist()
    assert len(set(shares[0].tolist())) > 1


def test_lookahead_parameters_are_checked(tmp_path: Path) -> None:
    path = _model(tmp_path, TOY, 2)
    from interpreter.diagnostics.errors import ConfigError

    with pytest.raises(ConfigError, match="lookahead and prior must be >= 0"):
        make_bot(f"learned:{path}:lookahead=-1", 0, 0)


def test_train_refuses_fractions_out_of_range(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from interpreter.cli.main import main

    out = str(tmp_path / "m.npz")
    for flag, value, says in [
        ("--holdout", "0.9", "--holdout must lie in 0..0.5"),
        ("--replay", "1.5", "--replay must lie in 0..1"),
        ("--value-mix", "-0.1", "--value-mix must lie in 0..1"),
    ]:
        code = main(["train", TOY, "-p", "2", "--out", out, flag, value])
        assert code == 2 and says in capsys.readouterr().err, flag
