"""A model read from its file plays from frozen weights (single precision, standardisation
folded in): the same probabilities as the trained weights to rounding, for one hidden layer,
two or none; and a frozen model that is trained again plays from its new weights."""

from __future__ import annotations

import numpy as np
import pytest

from interpreter.learn.model import Adam, PolicyValueNet, load_model, save_model


def _net(hidden: tuple[int, ...]) -> PolicyValueNet:
    rng = np.random.default_rng(7)
    net = PolicyValueNet(40, 12, 3, hidden, seed=1)
    net.set_scale(rng.random((30, 40)) * 6)
    for name in net.params:
        net.params[name] = net.params[name] + rng.normal(0, 0.3, net.params[name].shape)
    return net


@pytest.mark.parametrize("hidden", [(16,), (16, 8), ()])
def test_frozen_weights_play_as_the_trained_ones(hidden, tmp_path) -> None:
    net = _net(hidden)
    x = np.round(np.random.default_rng(3).random(40) * 5).astype(np.float32)
    actions = [0, 4, 5, 11]
    probs, value = net.evaluate(x, actions)
    save_model(tmp_path / "m.npz", net, {"identity": "x"})
    loaded, _ = load_model(tmp_path / "m.npz")
    assert loaded._play is not None  # what a file is read for: play
    p2, v2 = loaded.evaluate(x, actions)
    np.testing.assert_allclose(p2, probs, atol=1e-5)
    np.testing.assert_allclose(v2, value, atol=1e-5)
    np.testing.assert_allclose(loaded.policy(x, actions), probs, atol=1e-5)
    assert abs(p2.sum() - 1) < 1e-9 and abs(v2.sum() - 1) < 1e-9


def test_training_a_frozen_model_thaws_it() -> None:
    net = _net((16,)).freeze()
    rng = np.random.default_rng(4)
    x = rng.random((20, 40))
    mask = np.ones((20, 12), dtype=bool)
    pi = np.full((20, 12), 1 / 12)
    z = np.full((20, 3), 1 / 3)
    before = net.evaluate(x[0], [1, 2, 3])[0]
    opt = Adam(net.params, lr=0.05)
    for _ in range(5):
        _, grads = net.loss_and_grads(x, mask, pi, z)
        opt.step(net.params, grads)
    after = net.evaluate(x[0], [1, 2, 3])[0]
    assert net._play is None
    assert not np.allclose(before, after)
    # the plain path is what the weights now say
    h = np.tanh(((x[0] - net.mean) * net.scale) @ net.params["W0"] + net.params["b0"])
    logits = h @ net.params["Wp"][:, [1, 2, 3]] + net.params["bp"][[1, 2, 3]]
    expect = np.exp(logits - logits.max())
    np.testing.assert_allclose(after, expect / expect.sum(), atol=1e-12)
