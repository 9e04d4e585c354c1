"""Regenerate games/cribbage/data/opponent_throws.json: the expert opponent-throw table.

    python -m fuzzeval.games.cribbage.scripts.expert_weights --hands 20000 --seed 1

Cribbage Discard Pro's method: deal many random six-card hands, let the exhaustive player
throw (weighting the other side's throw by the current table), tabulate which rank pairs
(suited or not) it throws, as dealer and as pone, re-weight, and repeat until the table
stops changing. Starts from uniform weights. A small prior (``--prior`` pseudo-hands of
uniformly random throws) keeps types that were never observed possible.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

from fuzzeval.games.cribbage.cards import JACK
from fuzzeval.games.cribbage.discard import THROWS, CribOwner, best_throw, evaluate_discards
from fuzzeval.games.cribbage.scoring import rank_index5, rank_table
from fuzzeval.games.cribbage.weights import FloatArray, pair_type_counts, weights_from_frequencies

OUT = Path(__file__).resolve().parents[1] / "data" / "opponent_throws.json"


def throw_frequencies(
    hands: np.ndarray, crib: CribOwner, other: FloatArray, prior: float
) -> FloatArray:
    """Share of each (rank, rank, suited) type among the exhaustive player's throws."""
    counts = np.zeros((13, 13, 2))
    for hand in hands:
        stats = evaluate_discards(tuple(int(c) for c in hand), crib, other)
        a, b = (int(hand[i]) for i in THROWS[best_throw(stats)])
        r1, r2 = sorted((a // 4, b // 4))
        counts[r1, r2, int(a % 4 == b % 4)] += 1
    counts = counts + counts.transpose(1, 0, 2) * (1 - np.eye(13)[:, :, None])
    random_share = pair_type_counts() / 1326.0
    return (counts + prior * random_share) / (len(hands) + prior)


def iterate(
    n_hands: int, seed: int, max_iter: int, tol: float, prior: float
) -> tuple[FloatArray, FloatArray, list[float]]:
    rng = np.random.default_rng(seed)
    # The same deals every round: the change then measures the table, not sampling noise,
    # and is exactly 0 once no throw changes.
    hands = np.array([rng.choice(52, 6, replace=False) for _ in range(2 * n_hands)])
    uniform = pair_type_counts() / 1326.0
    dealer, pone = uniform.copy(), uniform.copy()
    changes: list[float] = []
    for it in range(max_iter):
        t0 = time.perf_counter()
        w_dealer, w_pone = weights_from_frequencies(dealer), weights_from_frequencies(pone)
        # The dealer weighs pone's throw to the dealer's crib, and vice versa.
        new_dealer = throw_frequencies(hands[:n_hands], "mine", w_pone, prior)
        new_pone = throw_frequencies(hands[n_hands:], "theirs", w_dealer, prior)
        # L1 distance between successive tables, over unordered types.
        change = float(max(_l1(new_dealer, dealer), _l1(new_pone, pone))) / 2
        dealer, pone = new_dealer, new_pone
        changes.append(change)
        print(f"iteration {it + 1}: L1 change {change:.4f} ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr)
        if it > 0 and change < tol:
            break
    return dealer, pone, changes


def _l1(a: FloatArray, b: FloatArray) -> float:
    upper = np.triu(np.ones((13, 13)))[:, :, None]
    return float((np.abs(a - b) * upper).sum())


def _rows(freq: FloatArray) -> list[list[float]]:
    return [
        [r1, r2, s, round(float(freq[r1, r2, s]), 8)]
        for r1 in range(13)
        for r2 in range(r1, 13)
        for s in (0, 1)
        if not (r1 == r2 and s == 1)
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per table per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-iter", type=int, default=8)
    parser.add_argument("--tol", type=float, default=0.002, help="stop below this L1 change")
    parser.add_argument("--prior", type=float, default=20.0)
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    dealer, pone, changes = iterate(args.hands, args.seed, args.max_iter, args.tol, args.prior)
    header = {
        "about": "Share of the exhaustive player's throws by type [rank1, rank2, suited, share]"
                 " (ranks 0=A..12=K, rank1 <= rank2), as dealer (to own crib) and as pone; "
                 "regenerate with python -m fuzzeval.games.cribbage.scripts.expert_weights",
        "hands_per_round": args.hands,
        "seed": args.seed,
        "prior": args.prior,
        "l1_change_per_round": [round(c, 5) for c in changes],
    }
    lines = [json.dumps(header, indent=1)[:-2] + ","]
    for name, freq in (("dealer", dealer), ("pone", pone)):
        rows = ",\n".join("  " + json.dumps(r) for r in _rows(freq))
        lines.append(f' "{name}": [\n{rows}\n ],')
    args.output.write_text("\n".join(lines)[:-1] + "\n}\n")
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()


def crib_averages(opponent: FloatArray) -> FloatArray:
    """Average crib when one side throws a rank pair [r1, r2] and the other side's throw is
    weighted by ``opponent``; the starter and the other throw come from the other 50 cards.
    Suited and unsuited throws are mixed in their natural 1 : 3 proportion.

    ``opponent`` is one weight table (13, 13, 2) or a stack of them (k, 13, 13, 2), which
    gives k tables (k, 13, 13) for the cost of one: the cribs are scored once."""
    table = rank_table()
    out = np.zeros((*opponent.shape[:-3], 13, 13))
    trip = np.array([(s, a, b) for a, b in combinations(range(50), 2) for s in range(50)
                     if s not in (a, b)])
    for r1 in range(13):
        for r2 in range(r1, 13):
            patterns = [((4 * r1, 4 * r2 + 1), 1.0)] if r1 == r2 else [
                ((4 * r1, 4 * r2), 0.25), ((4 * r1, 4 * r2 + 1), 0.75)]
            for (c1, c2), share in patterns:
                rest = np.array([c for c in range(52) if c not in (c1, c2)])
                s, a, b = rest[trip[:, 0]], rest[trip[:, 1]], rest[trip[:, 2]]
                w = opponent[..., a // 4, b // 4, (a % 4 == b % 4).astype(np.intp)]
                ranks = np.column_stack([np.full_like(s, r1), np.full_like(s, r2),
                                         a // 4, b // 4, s // 4])
                score = table[rank_index5(ranks)].astype(np.float64)
                cards = np.column_stack([np.full_like(s, c1), np.full_like(s, c2), a, b])
                score += ((cards // 4 == JACK) & (cards % 4 == (s % 4)[:, None])).any(axis=1)
                score += 5 * ((cards % 4) == (s % 4)[:, None]).all(axis=1)
                out[..., r1, r2] += share * (w @ score) / w.sum(axis=-1)
            out[..., r2, r1] = out[..., r1, r2]
    return out
