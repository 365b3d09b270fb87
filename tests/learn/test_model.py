"""The numpy policy/value model: its gradients against finite differences, Adam lowering the
loss, and the model file (round trip, a foreign file refused)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from interpreter.diagnostics.errors import ConfigError
from interpreter.learn.model import Adam, PolicyValueNet, load_model, save_model


def _batch(rng: np.random.Generator, n: int, f: int, a: int, s: int) -> tuple[np.ndarray, ...]:
    x = rng.normal(size=(n, f))
    mask = rng.random((n, a)) < 0.5
    mask[:, 0] = True  # every row has a legal action
    pi = np.where(mask, rng.random((n, a)), 0.0)
    pi /= pi.sum(axis=1, keepdims=True)
    z = rng.random((n, s))
    z /= z.sum(axis=1, keepdims=True)
    return x, mask, pi, z


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("hidden", [(7,), (6, 5)])
def test_gradients_match_finite_differences(hidden: tuple[int, ...], weighted: bool) -> None:
    rng = np.random.default_rng(3)
    net = PolicyValueNet(5, 4, 3, hidden, seed=1, l2=0.01)
    x, mask, pi, z = _batch(rng, 6, 5, 4, 3)
    # rows of policy weight 0 teach the value head only
    w = np.array([1.0, 0.0, 1.0, 0.0, 0.0, 1.0]) if weighted else None
    net.set_scale(x)
    _, grads = net.loss_and_grads(x, mask, pi, z, w)
    eps = 1e-6
    for name, param in net.params.items():
        for idx in list(np.ndindex(param.shape))[:12]:
            old = param[idx]
            param[idx] = old + eps
            up, _ = net.loss_and_grads(x, mask, pi, z, w)
            param[idx] = old - eps
            down, _ = net.loss_and_grads(x, mask, pi, z, w)
            param[idx] = old
            numeric = (up - down) / (2 * eps)
            assert grads[name][idx] == pytest.approx(numeric, rel=1e-4, abs=1e-7), (name, idx)


def test_adam_lowers_the_loss_and_policy_is_masked() -> None:
    rng = np.random.default_rng(5)
    net = PolicyValueNet(8, 6, 2, (16,), seed=2)
    x, mask, pi, z = _batch(rng, 40, 8, 6, 2)
    net.set_scale(x)
    opt = Adam(net.params, lr=1e-2)
    first, _ = net.loss_and_grads(x, mask, pi, z)
    for _ in range(200):
        _, grads = net.loss_and_grads(x, mask, pi, z)
        opt.step(net.params, grads)
    last, _ = net.loss_and_grads(x, mask, pi, z)
    assert last < first - 0.1
    probs = net.policy(x[0], [0, 3])
    assert probs.shape == (2,) and probs.sum() == pytest.approx(1.0)


def test_a_row_of_policy_weight_0_leaves_the_policy_head_alone() -> None:
    rng = np.random.default_rng(9)
    net = PolicyValueNet(5, 4, 3, (6,), seed=1)
    x, mask, pi, z = _batch(rng, 4, 5, 4, 3)
    net.set_scale(x)
    w = np.zeros(4)
    _, grads = net.loss_and_grads(x, mask, pi, z, w)
    assert not grads["bp"].any()
    np.testing.assert_allclose(grads["Wp"], net.l2 * net.params["Wp"])  # the L2 penalty only
    assert grads["Wv"].any()
    # weights of 1 are the unweighted loss
    a, _ = net.loss_and_grads(x, mask, pi, z, np.ones(4))
    b, _ = net.loss_and_grads(x, mask, pi, z)
    assert a == pytest.approx(b)


def test_model_file_round_trip(tmp_path) -> None:
    net = PolicyValueNet(4, 3, 2, (5,), seed=4)
    net.set_scale(np.arange(8.0).reshape(2, 4))
    path = tmp_path / "m.npz"
    save_model(path, net, {"game": "g", "identity": "x"})
    again, head = load_model(path)
    assert head["game"] == "g" and head["features"] == 4 and head["actions"] == 3
    x = np.ones(4)
    assert np.allclose(again.forward(x)[0], net.forward(x)[0])
    assert np.allclose(again.forward(x)[1], net.forward(x)[1])


def test_the_files_a_header_names_are_kept_relative_to_the_model(tmp_path, monkeypatch) -> None:
    """A ruleset or overlay file is written from the model's folder and found from it again,
    whatever the working folder; a name stays a name."""
    rules = tmp_path / "games" / "mine"
    rules.mkdir(parents=True)
    (rules / "ruleset.yaml").write_text("x")
    (rules / "house.yaml").write_text("x")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models").mkdir()
    head = {"game": str(rules / "ruleset.yaml"), "overlays": ["games/mine/house.yaml", "nobles"]}
    save_model("models/m.npz", PolicyValueNet(4, 3, 2, (5,), seed=4), {**head, "identity": "x"})
    with np.load(tmp_path / "models" / "m.npz") as data:
        written = json.loads(str(data["header"]))
    assert written["game"] == "../games/mine/ruleset.yaml"
    assert written["overlays"] == ["../games/mine/house.yaml", "nobles"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    _net, read = load_model("../models/m.npz")
    assert read["game"] == str(rules / "ruleset.yaml")
    assert read["overlays"] == [str(rules / "house.yaml"), "nobles"]


def test_a_file_that_is_not_a_model_is_a_clear_error(tmp_path) -> None:
    path = tmp_path / "junk.npz"
    path.write_text("not a model")
    with pytest.raises(ConfigError, match="not a model written by 'rulebook train'"):
        load_model(path)
    with pytest.raises(ConfigError, match="does not exist"):
        load_model(tmp_path / "missing.npz")
