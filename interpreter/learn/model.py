"""A small policy-and-value network in plain numpy, its loss, gradients, Adam, and its file.

The network reads a seat's observation vector (interpreter/agents/spaces.py), standardised
with a mean and spread fixed from the first training data, through one or two ``tanh`` hidden
layers into two heads:

* **policy**: one logit per action of the fixed action space; a softmax over the *legal*
  actions only (the others masked out) gives the move probabilities;
* **value**: one logit per seat, counted from the observer on (own seat first); its softmax is
  the expected share of the game's reward (a winner's 1, split among tied winners), so the
  shares of a game add up to 1 as the targets do.

The loss is the cross-entropy of each head against its target (the search's visit shares, the
game's final reward shares) plus a small L2 penalty on the weights. numpy alone keeps the
model small, dependency-free and fast enough at this size (a forward pass of one observation
is a few matrix-vector products: well under a millisecond).

The file is a compressed numpy ``.npz`` (weights in single precision): the arrays plus
``header``, a JSON text naming the composition the model was trained on (game, players,
overlays, options) and the feature/action sizes, so that loading it for another composition
is refused with a clear message.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from interpreter.diagnostics.errors import ConfigError

__all__ = ["FORMAT", "Adam", "PolicyValueNet", "load_model", "save_model"]

FORMAT = "rulebook-model/1"


class PolicyValueNet:
    """An MLP with a masked-softmax policy head and a softmax value head (see the module)."""

    def __init__(
        self,
        n_in: int,
        n_actions: int,
        n_values: int,
        hidden: Sequence[int] = (128,),
        seed: int = 0,
        l2: float = 1e-4,
    ) -> None:
        rng = np.random.default_rng(seed)
        self.n_in, self.n_actions, self.n_values = n_in, n_actions, n_values
        self.hidden = tuple(int(h) for h in hidden)
        self.l2 = l2
        self.params: dict[str, np.ndarray] = {}
        width = n_in
        for i, h in enumerate(self.hidden):
            self.params[f"W{i}"] = rng.normal(0, 1 / np.sqrt(width), (width, h))
            self.params[f"b{i}"] = np.zeros(h)
            width = h
        self.params["Wp"] = rng.normal(0, 0.1 / np.sqrt(width), (width, n_actions))
        self.params["bp"] = np.zeros(n_actions)
        self.params["Wv"] = rng.normal(0, 0.1 / np.sqrt(width), (width, n_values))
        self.params["bv"] = np.zeros(n_values)
        # input standardisation: not trained, fixed once from data (set_scale)
        self.mean = np.zeros(n_in)
        self.scale = np.ones(n_in)
        # the weights a frozen model plays with (see freeze); None while it may be trained
        self._play: tuple[Any, ...] | None = None  # (layers, policy w and b, value w and b)

    def set_scale(self, x: np.ndarray) -> None:
        """Fix the input standardisation from a batch of observations."""
        self.mean = x.mean(axis=0)
        self.scale = 1.0 / np.maximum(x.std(axis=0), 1e-3)
        self._play = None

    def freeze(self) -> PolicyValueNet:
        """Prepare the weights :meth:`policy` and :meth:`evaluate` play with: in single
        precision (a matrix-vector product at about twice the speed), the standardisation
        folded into the first layer, each matrix laid out for one observation at a time (what
        bots ask for). Training (:meth:`loss_and_grads`) thaws the model again."""
        f32 = np.float32
        p = self.params
        layers = []
        for i in range(len(self.hidden)):
            w = p["W0"] * self.scale[:, None] if i == 0 else p[f"W{i}"]
            b = p["b0"] - (self.mean * self.scale) @ p["W0"] if i == 0 else p[f"b{i}"]
            layers.append((np.ascontiguousarray(w.T, dtype=f32), b.astype(f32)))
        policy_w = p["Wp"] if self.hidden else p["Wp"] * self.scale[:, None]
        policy_b = p["bp"] if self.hidden else p["bp"] - (self.mean * self.scale) @ p["Wp"]
        value_w = p["Wv"] if self.hidden else p["Wv"] * self.scale[:, None]
        value_b = p["bv"] if self.hidden else p["bv"] - (self.mean * self.scale) @ p["Wv"]
        self._play = (
            tuple(layers),
            np.ascontiguousarray(policy_w.T, dtype=f32),
            policy_b.astype(f32),
            np.ascontiguousarray(value_w.T, dtype=f32),
            value_b.astype(f32),
        )
        return self

    def _trunk(self, x: np.ndarray) -> list[np.ndarray]:
        acts = [(x - self.mean) * self.scale]
        for i in range(len(self.hidden)):
            acts.append(np.tanh(acts[-1] @ self.params[f"W{i}"] + self.params[f"b{i}"]))
        return acts

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits (batch x actions) and value logits (batch x seats) of ``x``."""
        h = self._trunk(np.atleast_2d(x))[-1]
        return h @ self.params["Wp"] + self.params["bp"], h @ self.params["Wv"] + self.params["bv"]

    def _heads_one(self, x: np.ndarray, actions: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The policy logits over ``actions`` and the value logits of one observation."""
        play = self._play
        if play is None:
            h = self._trunk(x[None, :])[-1][0]
            logits = h @ self.params["Wp"][:, actions] + self.params["bp"][actions]
            return logits, h @ self.params["Wv"] + self.params["bv"]
        layers, policy_w, policy_b, value_w, value_b = play
        h = x.astype(np.float32, copy=False)
        for w, b in layers:
            h = np.tanh(w @ h + b)
        logits = policy_w.take(actions, axis=0) @ h + policy_b.take(actions)
        return logits.astype(np.float64), (value_w @ h + value_b).astype(np.float64)

    def policy(self, x: np.ndarray, actions: Sequence[int]) -> np.ndarray:
        """The move probabilities over ``actions`` (the legal ones) for one observation."""
        return _softmax(self._heads_one(x, actions)[0])

    def evaluate(self, x: np.ndarray, actions: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The move probabilities over ``actions`` and the value shares, for one observation."""
        logits, value = self._heads_one(x, actions)
        return _softmax(logits), _softmax(value)

    def loss_and_grads(
        self,
        x: np.ndarray,
        mask: np.ndarray,
        pi: np.ndarray,
        z: np.ndarray,
        w: np.ndarray | None = None,
    ) -> tuple[float, dict[str, np.ndarray]]:
        """Mean loss over the batch and its gradient for every parameter.

        ``mask`` (batch x actions, bool) marks the legal actions, ``pi`` the policy targets
        (zero off the mask, rows adding up to 1), ``z`` the value targets (rows adding to 1).
        ``w`` (optional, one per row) weighs each row's policy term: a row of weight 0 teaches
        the value head only (a position played without the full search), and the policy term
        is the weighted mean over the rows that have one."""
        self._play = None  # the weights are about to change
        n = x.shape[0]
        rows: float | np.ndarray
        if w is None:
            rows, n_policy = 1.0, n
        else:
            rows, n_policy = w[:, None], float(w.sum()) or 1.0
        acts = self._trunk(x)
        h = acts[-1]
        lp = h @ self.params["Wp"] + self.params["bp"]
        lp = np.where(mask, lp, -1e30)
        p = _softmax(lp)
        lv = h @ self.params["Wv"] + self.params["bv"]
        q = _softmax(lv)
        eps = 1e-12
        loss = -(rows * pi * np.log(np.where(mask, p, 1.0) + eps)).sum() / n_policy
        loss += -(z * np.log(q + eps)).sum() / n
        weights = [k for k in self.params if k.startswith("W")]
        loss += 0.5 * self.l2 * sum(float((self.params[k] ** 2).sum()) for k in weights)
        dlp = rows * np.where(mask, p - pi, 0.0) / n_policy
        dlv = (q - z) / n
        grads = {
            "Wp": h.T @ dlp,
            "bp": dlp.sum(axis=0),
            "Wv": h.T @ dlv,
            "bv": dlv.sum(axis=0),
        }
        dh = dlp @ self.params["Wp"].T + dlv @ self.params["Wv"].T
        for i in reversed(range(len(self.hidden))):
            da = dh * (1.0 - acts[i + 1] ** 2)
            grads[f"W{i}"] = acts[i].T @ da
            grads[f"b{i}"] = da.sum(axis=0)
            dh = da @ self.params[f"W{i}"].T
        for k in weights:
            grads[k] = grads[k] + self.l2 * self.params[k]
        return float(loss), grads


class Adam:
    """Adam (Kingma & Ba 2015) over a parameter dict, updated in place."""

    def __init__(self, params: dict[str, np.ndarray], lr: float = 1e-3) -> None:
        self.lr, self.b1, self.b2, self.t = lr, 0.9, 0.999, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        """One update of every parameter from its gradient."""
        self.t += 1
        c1, c2 = 1 - self.b1**self.t, 1 - self.b2**self.t
        for k, g in grads.items():
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            params[k] -= self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-8)


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def save_model(path: str | Path, net: PolicyValueNet, header: dict[str, Any]) -> None:
    """Write the model and its header (composition, sizes, training notes) to ``path``."""
    head = {
        **_files_relative(header, _folder(path)),
        "format": FORMAT,
        "features": net.n_in,
        "actions": net.n_actions,
        "seats": net.n_values,
        "hidden": list(net.hidden),
        "l2": net.l2,
    }
    # single precision, compressed: a third of the file, and the play of a model read back
    # differs from the fitted one only in rounding far below the policy's margins
    arrays: dict[str, Any] = {k: v.astype(np.float32) for k, v in net.params.items()}
    # written beside it and renamed over it: a reader (a search playing the last iteration's
    # model, a measurement while training runs) or a Ctrl-C never meets a half-written file
    target = Path(path)
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        with open(part, "wb") as fh:  # a file object: numpy would otherwise add '.npz'
            np.savez_compressed(
                fh,
                header=np.array(json.dumps(head, sort_keys=True)),
                mean=net.mean.astype(np.float32),
                scale=net.scale.astype(np.float32),
                **arrays,
            )
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)


def load_model(path: str | Path) -> tuple[PolicyValueNet, dict[str, Any]]:
    """Read a model file; a missing, unreadable or foreign file is a ConfigError."""
    try:
        with np.load(path, allow_pickle=False) as data:
            head = json.loads(str(data["header"]))
            arrays = {k: data[k] for k in data.files if k != "header"}
    except FileNotFoundError:
        raise ConfigError(f"model file {str(path)!r} does not exist") from None
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigError(
            f"{str(path)!r} is not a model written by 'rulebook train' ({exc})"
        ) from None
    if head.get("format") != FORMAT:
        raise ConfigError(f"{str(path)!r}: format {head.get('format')!r}, expected {FORMAT!r}")
    head = _files_found(head, _folder(path))
    net = PolicyValueNet(head["features"], head["actions"], head["seats"], head["hidden"], 0)
    net.l2 = float(head.get("l2", net.l2))
    net.mean = arrays.pop("mean").astype(np.float64)
    net.scale = arrays.pop("scale").astype(np.float64)
    for k in net.params:
        if k not in arrays or arrays[k].shape != net.params[k].shape:
            raise ConfigError(f"{str(path)!r}: weights {k!r} missing or of the wrong shape")
        net.params[k] = arrays[k].astype(np.float64)
    return net.freeze(), head


# The header names its composition's ruleset and overlays as the trainer was given them: a
# name (a ruleset or overlay under rulesets/) as it is, a file by its path from the model's
# own folder, so that a model and its house rule moved or checked out together (a model
# under examples/models/ and its overlay under examples/variants/) load from any working
# folder.


def _folder(path: str | Path) -> str:
    return os.path.dirname(os.path.abspath(path))


def _is_path(name: Any) -> bool:
    return isinstance(name, str) and (
        "/" in name or os.sep in name or name.endswith((".yaml", ".yml"))
    )


def _files_relative(header: dict[str, Any], folder: str) -> dict[str, Any]:
    """``header`` with its ruleset and overlay files written relative to ``folder``."""

    def rel(name: Any) -> Any:
        if _is_path(name) and os.path.exists(name):
            return os.path.relpath(os.path.abspath(name), folder).replace(os.sep, "/")
        return name

    return _each_file(header, rel)


def _files_found(head: dict[str, Any], folder: str) -> dict[str, Any]:
    """``head`` with each relative ruleset or overlay path found from ``folder`` (the model's)
    made absolute; one not there is left as written (a model written before paths were kept
    relative to it named them from the trainer's working folder)."""

    def found(name: Any) -> Any:
        if _is_path(name) and not os.path.isabs(name):
            there = os.path.normpath(os.path.join(folder, name))
            if os.path.exists(there):
                return there
        return name

    return _each_file(head, found)


def _each_file(head: dict[str, Any], change: Any) -> dict[str, Any]:
    """``head`` with ``change`` applied to its ruleset and to each overlay."""
    out = dict(head)
    if "game" in out:
        out["game"] = change(out["game"])
    if "overlays" in out:
        out["overlays"] = [change(o) for o in out["overlays"]]
    return out
