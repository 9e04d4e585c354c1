"""Exhaustive discard evaluation speed: ms per six-card hand for all 15 throws, exact.

    python benchmarks/discard.py [--hands 500] [--baseline-hands 2]

Prints the median over random hands of fuzzeval.games.cribbage.discard.evaluate_discards and of a
straightforward per-combination loop (every throw x starter x opponent pair, scored one by
one with score_hand) measured in the same run, and their ratio. One core. Target: <= 2 ms.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from itertools import combinations  # noqa: E402

import numpy as np  # noqa: E402

from fuzzeval.games.cribbage.discard import THROWS, evaluate_discards, uniform_weights  # noqa: E402
from fuzzeval.games.cribbage.scoring import score_hand  # noqa: E402


def straightforward(cards6: tuple[int, ...]) -> list[float]:
    """E[hand + crib] per throw by brute force, one five-card score at a time."""
    unknown = [c for c in range(52) if c not in cards6]
    out = []
    for t in THROWS:
        keep = [cards6[i] for i in range(6) if i not in t]
        throw = [cards6[i] for i in t]
        total, n = 0.0, 0
        for s in unknown:
            hand = score_hand(keep, s)
            rest = [c for c in unknown if c != s]
            for a, b in combinations(rest, 2):
                total += hand + score_hand([*throw, a, b], s, crib=True)
                n += 1
        out.append(total / n)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--baseline-hands", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    hands = [tuple(int(c) for c in rng.choice(52, 6, replace=False)) for _ in range(args.hands)]
    weights = uniform_weights()
    evaluate_discards(hands[0], "mine", weights)  # build the tables once
    times = []
    for hand in hands:
        t0 = time.perf_counter()
        evaluate_discards(hand, "mine", weights)
        times.append(time.perf_counter() - t0)
    ours = statistics.median(times) * 1000
    base = []
    for hand in hands[: args.baseline_hands]:
        t0 = time.perf_counter()
        slow = straightforward(hand)
        base.append(time.perf_counter() - t0)
        fast = evaluate_discards(hand, "mine", weights).ev
        assert np.allclose(slow, fast), "the two methods disagree"
    baseline = statistics.median(base) * 1000
    print(f"{'method':<34}{'hands':>7}{'ms/hand':>12}")
    print(f"{'evaluate_discards (keys, numpy)':<34}{len(hands):>7}{ours:>12.3f}")
    print(f"{'per-combination loop':<34}{len(base):>7}{baseline:>12.1f}")
    print(f"speed-up: {baseline / ours:,.0f}x   target <= 2 ms/hand: "
          f"{'PASS' if ours <= 2.0 else 'MISS'}   (p90 {np.percentile(times, 90) * 1000:.3f} ms)")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
