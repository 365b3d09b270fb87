"""Fitting: self-play records stacked into arrays, the replay buffer that mixes iterations, and
the minibatch fit of the network to them with a held-out early stop (learn/train.py's second
half of each expert-iteration round; the first is the self-play that makes the records)."""

from __future__ import annotations

from typing import Any

import numpy as np

from interpreter.diagnostics.errors import ConfigError
from interpreter.learn.model import Adam, PolicyValueNet

__all__ = ["fit", "replay_buffer", "stack_records"]


def stack_records(
    records: list[dict], n_actions: int, players: int, value_mix: float = 0.0
) -> tuple[np.ndarray, ...]:
    """Stack game records into observations, legal masks, policy targets, value targets (the
    result, blended with ``value_mix`` of the search's root estimate where one was made) and
    each row's policy weight (0 for a position played by the quick search: no policy target)."""
    rows = sum(len(r["movers"]) for r in records)
    if rows == 0:
        raise ConfigError("self-play recorded no decisions with a choice: nothing to learn")
    x = np.stack([o for r in records for o in r["obs"]]).astype(np.float64)
    mask = np.zeros((rows, n_actions), dtype=bool)
    pi = np.zeros((rows, n_actions))
    z = np.zeros((rows, players))
    w = np.ones(rows)
    i = 0
    for r in records:
        roots = r.get("roots") or [[]] * len(r["movers"])
        for acts, target, mover, root in zip(
            r["acts"], r["targets"], r["movers"], roots, strict=True
        ):
            mask[i, acts] = True
            if target:
                pi[i, acts] = target
            else:
                w[i] = 0.0
            z[i] = [r["rewards"][(mover + k) % players] for k in range(players)]
            total = sum(root)
            if value_mix and total > 0:
                # a cut playout's seat scores need not add up to 1: made shares first
                z[i] = (1 - value_mix) * z[i] + value_mix * np.asarray(root) / total
            i += 1
    return x, mask, pi, z, w


def fit(
    net: PolicyValueNet,
    opt: Adam,
    data: tuple[np.ndarray, ...],
    epochs: int,
    batch: int,
    rng: np.random.Generator,
    holdout: float = 0.0,
    patience: int = 3,
) -> dict[str, Any]:
    """Fit ``net`` to ``data`` by minibatch Adam, stopped early on a held-out slice.

    With ``holdout`` > 0 that fraction of the rows (at least one) is kept out of the fitting;
    after each pass its loss is measured, and the fitting stops once it has not improved for
    ``patience`` passes, keeping the weights of the best pass. Returns the loss on the fitted
    rows before and after, the held-out loss before and at its best, and the passes made."""
    n = len(data[0])
    order = rng.permutation(n)
    cut = min(n - 1, max(1, round(n * holdout))) if holdout > 0 and n > 1 else 0
    held = tuple(a[order[:cut]] for a in data) if cut else None
    fitted = tuple(a[order[cut:]] for a in data) if cut else data
    x, mask, pi, z, *weights = fitted  # the policy weights are optional
    w = weights[0] if weights else np.ones(len(x))
    m = len(x)
    before, _ = net.loss_and_grads(x, mask, pi, z, w)
    held_before = best = net.loss_and_grads(*held)[0] if held else 0.0
    best_params = {k: v.copy() for k, v in net.params.items()}
    stale = passes = 0
    for _ in range(epochs):
        perm = rng.permutation(m)
        for start in range(0, m, batch):
            at = perm[start : start + batch]
            _, grads = net.loss_and_grads(x[at], mask[at], pi[at], z[at], w[at])
            opt.step(net.params, grads)
        passes += 1
        if held is None:
            continue
        loss = net.loss_and_grads(*held)[0]
        if loss < best - 1e-6:
            best, stale = loss, 0
            best_params = {k: v.copy() for k, v in net.params.items()}
        else:
            stale += 1
            if stale >= patience:
                break
    if held is not None:
        net.params.update(best_params)
    after, _ = net.loss_and_grads(x, mask, pi, z, w)
    return {
        "loss_before": before,
        "loss_after": after,
        "holdout_before": held_before,
        "holdout_after": best if held else 0.0,
        "epochs": passes,
    }


def replay_buffer(
    history: list[tuple[np.ndarray, ...]], keep: float, rng: np.random.Generator
) -> tuple[np.ndarray, ...]:
    """The replay buffer: every iteration's rows, an iteration ``a`` iterations old thinned
    to a ``keep ** a`` share (the newest kept whole)."""
    parts = []
    for age, arrays in enumerate(reversed(history)):
        if age == 0:
            parts.append(arrays)
            continue
        rows = rng.random(len(arrays[0])) < keep**age
        if rows.any():
            parts.append(tuple(a[rows] for a in arrays))
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))
