"""A model of one composition as the start of another's: what carries over, by name.

A house rule mostly keeps its base game's features and actions (the same fields, the same
option families) and adds or drops a few. Training its bot from the base game's model, rather
than from nothing, starts it from everything the two share: each feature of the new
composition that the old one had keeps its first-layer weights and standardisation, each
action the old one had keeps its policy weights and bias, and the deeper layers and the value
head are kept whole. A feature or action new to this composition starts at zero weight (it
changes nothing until training gives it a weight); its standardisation is set from the first
self-play data. The seat count must match (the value head has a share per seat).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from interpreter.learn.model import PolicyValueNet

__all__ = ["carry_over"]


def carry_over(
    old: PolicyValueNet,
    old_features: Sequence[str],
    old_actions: Sequence[str],
    features: Sequence[str],
    actions: Sequence[str],
    seed: int = 0,
) -> tuple[PolicyValueNet, np.ndarray, int, int]:
    """A network for ``features`` and ``actions`` that starts from ``old`` where names match;
    with the mask of features it has no weights for, and how many features and actions carried
    over."""
    net = PolicyValueNet(len(features), len(actions), old.n_values, old.hidden, seed, old.l2)
    was_feature = {name: i for i, name in enumerate(old_features)}
    was_action = {name: i for i, name in enumerate(old_actions)}
    new_f = [j for j, name in enumerate(features) if name in was_feature]
    old_f = [was_feature[features[j]] for j in new_f]
    new_a = [j for j, name in enumerate(actions) if name in was_action]
    old_a = [was_action[actions[j]] for j in new_a]
    p, q = net.params, old.params
    # the layer that reads the features (the first hidden one, or the heads when there is none)
    reads = ["W0"] if old.hidden else ["Wp", "Wv"]
    for name in reads:
        p[name] = np.zeros_like(p[name])
    for name in p:
        if name in reads:
            continue
        p[name] = q[name].copy()
    if old.hidden:
        p["W0"][new_f] = q["W0"][old_f]
        p["Wp"] = np.zeros((old.hidden[-1], len(actions)))
        p["Wp"][:, new_a] = q["Wp"][:, old_a]
    else:
        p["Wv"][new_f] = q["Wv"][old_f]
        p["Wp"] = np.zeros((len(features), len(actions)))
        p["Wp"][np.ix_(new_f, new_a)] = q["Wp"][np.ix_(old_f, old_a)]
    p["bp"] = np.zeros(len(actions))
    p["bp"][new_a] = q["bp"][old_a]
    net.mean = np.zeros(len(features))
    net.scale = np.ones(len(features))
    net.mean[new_f] = old.mean[old_f]
    net.scale[new_f] = old.scale[old_f]
    fresh = np.ones(len(features), dtype=bool)
    fresh[new_f] = False
    return net, fresh, len(new_f), len(new_a)
