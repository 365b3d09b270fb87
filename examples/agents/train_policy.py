"""Train a small policy through the Gymnasium environment and measure it against random bots.

    python examples/agents/train_policy.py --game san-juan --players 2 --episodes 200

A linear softmax policy over the legal actions (plain numpy), trained by REINFORCE with a
running-mean baseline on the reward the environment pays at the end of a game (the seat's
share of the win). Before and after training it plays --eval games against random bots and
prints its win share (sampling its actions, so the untrained policy is a uniform random
bot); the figures are seeded, so a run repeats exactly.
"""

from __future__ import annotations

import argparse

import numpy as np

from interpreter.agents import make_gym_env


def features(obs: dict[str, np.ndarray]) -> np.ndarray:
    x = obs["observation"]
    return np.concatenate([np.sign(x) * np.log1p(np.abs(x)), [1.0]]).astype(np.float64)


class LinearPolicy:
    def __init__(self, n_actions: int, n_features: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_actions, n_features))
        self.rng = rng

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        legal = np.flatnonzero(mask)
        logits = self.w[legal] @ x
        p = np.exp(logits - logits.max())
        return legal, p / p.sum()

    def act(self, obs: dict[str, np.ndarray], greedy: bool = False) -> tuple[int, tuple]:
        x = features(obs)
        legal, p = self.probabilities(x, obs["action_mask"])
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), (x, legal, p, i)


def play(env, policy: LinearPolicy, seed: int, greedy: bool) -> tuple[float, list[tuple]]:
    obs, _ = env.reset(seed=seed)
    steps = []
    done = False
    reward = 0.0
    while not done:
        action, trace = policy.act(obs, greedy)
        if len(trace[1]) > 1:  # one legal action (a lone pass) has nothing to learn from
            steps.append(trace)
        obs, reward, done, _, _ = env.step(action)
    return reward, steps


def evaluate(env, policy: LinearPolicy, games: int, seed: int) -> float:
    """The policy's win share, sampling its actions (untrained, it is a uniform random bot)."""
    policy.rng = np.random.default_rng(seed)
    return sum(play(env, policy, seed + g, greedy=False)[0] for g in range(games)) / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="san-juan")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--eval", type=int, default=50)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    env = make_gym_env(args.game, players=args.players, opponents="random", seat=0)
    n_features = env.observation_space["observation"].shape[0] + 1
    policy = LinearPolicy(env.action_space.n, n_features, np.random.default_rng(args.seed))
    before = evaluate(env, policy, args.eval, seed=10_000)
    policy.rng = np.random.default_rng(args.seed)
    baseline = 1.0 / args.players
    for episode in range(args.episodes):
        reward, steps = play(env, policy, seed=args.seed * 100_000 + episode, greedy=False)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, legal, p, i in steps:
            grad = -p[:, None] * x[None, :]
            grad[i] += x
            policy.w[legal] += args.lr * advantage * grad / max(1, len(steps)) ** 0.5
    after = evaluate(env, policy, args.eval, seed=10_000)
    print(f"{args.game}, {args.players} players, seat 0 against random bots")
    print(f"win share before training: {before:.3f} ({args.eval} games)")
    print(f"win share after {args.episodes} episodes: {after:.3f} ({args.eval} games)")
    print(f"fair share: {1 / args.players:.3f}")


if __name__ == "__main__":
    main()
