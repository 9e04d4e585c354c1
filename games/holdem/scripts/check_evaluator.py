"""phevaluator against the pure-Python treys on seeded random 7-card hands: the same rank
(1 best to 7462 worst, both the Cactus Kev classes) for every hand.

    python -m fuzzeval.games.holdem.scripts.check_evaluator --hands 100000
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from fuzzeval.games.holdem.cards import DECK, card_str
from fuzzeval.games.holdem.evaluate import hand_class, hand_ranks


@dataclass(frozen=True)
class Comparison:
    hands: int
    different: int  # hands whose ranks differ
    classes: dict[str, int]  # how many hands of each class (treys' names)
    misnamed: int = 0  # hands whose class (``hand_class``) is not treys' class


def compare(hands: int, seed: int = 0) -> Comparison:
    """Rank ``hands`` seeded 7-card hands with both evaluators."""
    from treys import Card, Evaluator

    ids = [Card.new(card_str(c)) for c in range(DECK)]
    rng = np.random.default_rng(seed)
    cards = rng.permuted(np.tile(np.arange(DECK), (hands, 1)), axis=1)[:, :7]
    ours = hand_ranks(cards)
    evaluator = Evaluator()
    theirs = np.array([evaluator.evaluate([ids[c] for c in row[:2]],
                                          [ids[c] for c in row[2:]])
                       for row in cards.tolist()], dtype=np.int64)
    names = [evaluator.class_to_string(evaluator.get_rank_class(int(r))) for r in theirs]
    classes = {n: names.count(n) for n in dict.fromkeys(names)}
    # treys names the best straight flush a royal flush; ours is a straight flush
    misnamed = sum(hand_class(int(r)) != n.lower().replace("royal", "straight")
                   for r, n in zip(ours, names, strict=True))
    return Comparison(hands, int((ours != theirs).sum()), classes, misnamed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    result = compare(args.hands, args.seed)
    print(f"{result.hands} seeded 7-card hands: {result.different} differ, "
          f"{result.misnamed} misnamed ({time.perf_counter() - start:.1f} s)")
    for name, count in sorted(result.classes.items(), key=lambda kv: kv[1]):
        print(f"  {name:<16} {count:>7}")
    return 0 if result.different == result.misnamed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
