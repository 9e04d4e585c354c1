"""Exhaustive discard evaluation speed: ms per six-card hand for all 15 throws, exact.

    python benchmarks/discard.py [--hands 500] [--baseline-hands 2]

Prints the median over random hands of fuzzeval.games.cribbage.discard.evaluate_discards and of a
straightforward per-combination loop (every throw x starter x opponent pair, scored one by
one with score_hand) measured in the same run, and their ratio. One core. Target: <= 2 ms.

Then the median of ``discard_table`` (the same statistics as a pandas DataFrame, best
first) on the same hands, in steady state (pandas imported and the tables built by an
untimed first call), and what it adds to evaluate_discards. Target: <= 1 ms a hand.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from itertools import combinations  # noqa: E402

import numpy as np  # noqa: E402

from fuzzeval.games.cribbage.discard import (  # noqa: E402
    THROWS,
    discard_table,
    evaluate_discards,
    uniform_weights,
)
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


TARGET_MS = 2.0  # evaluate_discards, a hand
TABLE_TARGET_MS = 1.0  # discard_table, a hand


def median_ms(hands: list[tuple[int, ...]], run: Callable[[tuple[int, ...]], object]
              ) -> tuple[float, list[float]]:
    """The median milliseconds of ``run`` on each hand, and every hand's seconds."""
    times = []
    for hand in hands:
        t0 = time.perf_counter()
        run(hand)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, times


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
    ours, times = median_ms(hands, lambda hand: evaluate_discards(hand, "mine", weights))
    discard_table(hands[0], "mine")  # imports pandas
    table, _ = median_ms(hands, lambda hand: discard_table(hand, "mine"))
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
    print(f"{'discard_table (pandas DataFrame)':<34}{len(hands):>7}{table:>12.3f}")
    print(f"speed-up: {baseline / ours:,.0f}x   target <= {TARGET_MS:g} ms/hand: "
          f"{'PASS' if ours <= TARGET_MS else 'MISS'}   "
          f"(p90 {np.percentile(times, 90) * 1000:.3f} ms)")
    print(f"discard_table: {table:.3f} ms/hand, {table - ours:.3f} ms over evaluate_discards "
          f"({table / ours:.2f}x)   target <= {TABLE_TARGET_MS:g} ms/hand: "
          f"{'PASS' if table <= TABLE_TARGET_MS else 'MISS'}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
