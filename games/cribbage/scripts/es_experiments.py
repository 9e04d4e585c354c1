"""Kendall & Shaw's experiments again, with our ES.

    python -m fuzzeval.games.cribbage.scripts.es_experiments

1. Nine training hands, hand only, p = 0.75: bounded values (their Fig. 1) against
   unbounded ones (Fig. 2), and the share of trained values sitting at the 0.9 bound.
2. The same nine hands: threshold p = 0.65 against co-evolution on the same hand (Fig. 5).
3. A sweep of p (their Fig. 3): average points over the last half of training.

"At the bound" is the share of values the training touched that ended at 0.89 or above
(for unbounded runs: above it).

Prints a table and writes the curves to ``plots/es_experiments.png`` (or ``--out``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from fuzzeval.games.cribbage.es import HIGH, ESConfig, learning_curve, train
from fuzzeval.plots import Curve, plot_curves


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=30_000, help="deals per curve")
    parser.add_argument("--sweep", type=int, default=250_000, help="deals per p (paper: 250k)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("plots/es_experiments.png"))
    args = parser.parse_args(argv)
    n, seed = args.iterations, args.seed
    runs = {
        "bounded, p = 0.75": ESConfig(hands=9, crib=False, p=0.75, bounded=True),
        "unbounded, p = 0.75": ESConfig(hands=9, crib=False, p=0.75),
        "unbounded, p = 0.65": ESConfig(hands=9, crib=False, p=0.65),
        "co-evolution (same hand)": ESConfig(hands=9, crib=False, variant="coevolution"),
    }
    curves, levels = [], {}
    print(f"nine random training hands (seed {seed}), hand only, {n:,} deals each")
    print(f"{'run':<28}{'first':>8}{'peak':>8}{'last 25%':>10}{'>= 0.89':>9}")
    for label, cfg in runs.items():
        result = train(cfg, n, seed)
        x, y = learning_curve(result.scores, 100)
        curves.append(Curve(label, x.tolist(), y.tolist()))
        levels = {"random throw": result.random_level,
                  "best throw (estimated)": result.best_level}
        moved = result.values != np.random.default_rng(seed).uniform(0.1, 0.9, (2, 18_395, 6))
        at_top = float(np.mean(result.values[moved] >= HIGH - 0.01)) if moved.any() else 0.0
        print(f"{label:<28}{y[0]:>8.2f}{y.max():>8.2f}{y[-25:].mean():>10.2f}{at_top:>9.0%}")
    plot_curves(curves, args.out,
                title="Kendall & Shaw's ES on nine hands (hand only): average points per "
                      f"deal, window of {n // 100:,}",
                xlabel="deals played", ylabel="average points per deal", levels=levels)
    m = args.sweep
    print(f"\np sweep (threshold, unbounded, same nine hands, {m:,} deals): average points "
          "over the last half")
    for p in (0.45, 0.55, 0.65, 0.75, 0.85, 0.95):
        result = train(ESConfig(hands=9, crib=False, p=p), m, seed)
        print(f"  p = {p:.2f}: {result.scores[m // 2:].mean():.2f}")
    print(f"curves: {args.out}")


if __name__ == "__main__":
    main()
