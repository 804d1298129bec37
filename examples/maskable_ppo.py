"""Train sb3-contrib's MaskablePPO on one seat of euchre, save it, and evaluate it.

Needs the optional extra ``rl`` (``pip install -e '.[rl]'``: sb3-contrib, CPU PyTorch,
OpenSpiel).  For example, four-handed against the ``basic`` bot for 200 000 steps::

    python examples/maskable_ppo.py --players 4 --opponents basic \\
        --timesteps 200000 --out artifacts/ppo.zip

then seat the saved policy in a tournament::

    euchre tournament --bots policy:artifacts/ppo.zip,basic --deals 200

The learner plays seat 0 of ``euchre/Euchre-v0`` (deal episodes, reward: its side's
points); the legal actions reach the algorithm through the environment's
``action_masks()``.  The evaluation plays ``--eval-deals`` deals with the masked argmax
and prints the mean points per deal and, for comparison, a uniformly random learner's.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4, help="2 to 5 (default 4)")
    p.add_argument("--opponents", default="basic", help="the bot at the other seats: "
                   "random, basic, ... (default basic)")
    p.add_argument("--timesteps", type=int, default=100_000,
                   help="learner decisions to train on (default 100000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="artifacts/maskable_ppo.zip",
                   help="where to save the policy (an sb3 .zip)")
    p.add_argument("--eval-deals", type=int, default=200,
                   help="deals to evaluate on after training (0: none)")
    p.add_argument("--threads", type=int, default=2, help="PyTorch threads (default 2)")
    return p


def _masks(env: Any) -> Any:
    """The legal actions, through Gymnasium's wrappers."""
    return env.unwrapped.action_masks()


def evaluate(model: Any, env: Any, deals: int, seed: int, learner: bool = True) -> float:
    """Mean points per deal of the masked-argmax policy (or, with ``learner=False``, of a
    uniformly random legal action) over ``deals`` deal episodes."""
    rng = np.random.default_rng(seed)
    total = 0.0
    for i in range(deals):
        obs, _ = env.reset(seed=seed + i)
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            if learner:
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            else:
                action = rng.choice(np.flatnonzero(mask))
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
    return total / max(deals, 1)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, save and evaluate; returns (and prints) the figures as JSON."""
    args = _parser().parse_args(argv)
    try:
        import gymnasium
        import torch
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.wrappers import ActionMasker
    except ImportError as e:
        raise SystemExit("this example needs the optional extra rl: "
                         "pip install -e '.[rl]'") from e

    import euchre.envs.gymnasium  # noqa: F401  (registers euchre/Euchre-v0)

    torch.set_num_threads(args.threads)

    def make_env() -> Any:
        env = gymnasium.make("euchre/Euchre-v0", players=args.players, seat=0,
                             opponents=args.opponents)
        return ActionMasker(env, _masks)

    env = make_env()
    small = args.timesteps < 2048
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, device="cpu",
                        n_steps=64 if small else 2048, batch_size=64,
                        policy_kwargs={"net_arch": [256, 256]})
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    train_seconds = time.perf_counter() - start
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)

    start = time.perf_counter()
    figures: dict[str, Any] = {
        "players": args.players, "opponents": args.opponents, "timesteps": args.timesteps,
        "seed": args.seed, "out": args.out, "train_seconds": round(train_seconds, 1),
        "steps_per_second": round(args.timesteps / train_seconds, 1),
    }
    if args.eval_deals > 0:
        eval_env = make_env()
        figures["eval_deals"] = args.eval_deals
        figures["policy_points_per_deal"] = round(
            evaluate(model, eval_env, args.eval_deals, 10_000_000), 3)
        figures["random_points_per_deal"] = round(
            evaluate(model, eval_env, args.eval_deals, 10_000_000, learner=False), 3)
        figures["eval_seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    main()
