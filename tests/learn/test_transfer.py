"""``rulebook train --init BASE.npz`` for a house rule of the model's game: what the two
compositions share carries over by name (the rest starts at zero weight), training goes on
from there, and a model with another seat count is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from interpreter.diagnostics.errors import ConfigError
from interpreter.learn.model import PolicyValueNet
from interpreter.learn.model_spaces import load_cached, spaces_of
from interpreter.learn.train import train
from interpreter.learn.transfer import carry_over
from tests.helpers.training import TOY, toy_config

STREET = str(Path(TOY).parent / "overlay-short-street.yaml")


@pytest.mark.parametrize("hidden", [(4,), ()])
def test_shared_names_keep_their_weights_new_ones_start_at_zero(hidden) -> None:
    rng = np.random.default_rng(1)
    old = PolicyValueNet(3, 2, 2, hidden, seed=1)
    for name in old.params:
        old.params[name] = rng.normal(size=old.params[name].shape)
    old.mean, old.scale = np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.25, 2.0])
    net, fresh, features, actions = carry_over(
        old, ["a", "b", "c"], ["x", "y"], ["c", "new", "a"], ["y", "z", "x"]
    )
    assert (features, actions) == (2, 2)
    assert fresh.tolist() == [False, True, False]
    assert net.mean.tolist() == [3.0, 0.0, 1.0] and net.scale.tolist() == [2.0, 1.0, 0.5]
    assert not net.params["Wp"][:, 1].any() and net.params["bp"][1] == 0
    if hidden:
        np.testing.assert_array_equal(net.params["W0"][0], old.params["W0"][2])
        np.testing.assert_array_equal(net.params["W0"][2], old.params["W0"][0])
        assert not net.params["W0"][1].any()
        np.testing.assert_array_equal(net.params["Wp"][:, 0], old.params["Wp"][:, 1])
        np.testing.assert_array_equal(net.params["Wv"], old.params["Wv"])
    # the same observation through the shared names (the dropped feature at its mean, where
    # it adds nothing): the same policy and value
    x_old = np.array([4.0, 2.0, 6.0])
    x_new = np.array([6.0, 99.0, 4.0])  # the new feature has no weight yet
    p_old, v_old = old.evaluate(x_old, [0, 1])
    p_new, v_new = net.evaluate(x_new, [2, 0])
    np.testing.assert_allclose(p_new, p_old)
    np.testing.assert_allclose(v_new, v_old)


def test_a_house_rule_trains_on_from_its_base_games_model(tmp_path: Path) -> None:
    base = tmp_path / "base.npz"
    train(toy_config(base))
    lines: list[str] = []
    out = tmp_path / "street.npz"
    report = train(toy_config(out, overlays=[STREET], init=str(base)), None, lines.append)
    assert report.iterations[0]["decisions"] > 0
    assert any("77 of 83 features and 42 of 53 actions carried over" in x for x in lines), lines
    model = load_cached(str(out))  # a model of the house rule, its own spaces
    spaces = spaces_of({"game": TOY, "players": 2, "overlays": [STREET], "options": {}})
    assert model.net.n_in == spaces.observations.size
    assert model.head["trained"]["iterations"] == 1


def test_another_seat_count_is_refused(tmp_path: Path) -> None:
    base = tmp_path / "base.npz"
    train(toy_config(base))
    with pytest.raises(ConfigError, match="only with as many players"):
        train(toy_config(tmp_path / "three.npz", players=3, init=str(base)))
