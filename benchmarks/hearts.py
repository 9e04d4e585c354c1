"""Hearts hands per second on one core, and heuristic against random in points per hand.

    python benchmarks/hearts.py [--hands 2000] [--repeats 3] [--points 0] [--decisions 5000]

Speed: self-play of ``heuristic`` (four copies), in standard rules and in Sturtevant & White's
variant, against the baseline measured in the same run: ``random`` self-play on the same
deals (the rules, the views and the legal moves alone). CPU seconds
(``time.process_time``), best of ``--repeats``, interleaved. Target: >= 500
heuristic self-play hands a second.

Decisions: the time of one ``fuzzy`` decision (the candidates' features and the rule
base's grades, ``rulebases/hearts.yaml``), its features alone (numpy's, a process's
first decisions, and the compiled kernel's, taken once numba is loaded), and one
``heuristic`` decision, over the same ``--decisions`` positions (those with two or more
legal cards, from heuristic self-play), best of ``--repeats``; the ratio is fuzzy over
heuristic.
Target: a fuzzy decision <= 50 us.

``--points N``: N deals, each played four times so the player under test sits in every
seat (card luck cancels), for 1 heuristic against 3 random and 1 random against 3
heuristic, in both rule sets: the test player's mean points per hand with a 95 % interval
over the deals (lower is better; even players take 6.5).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.features import compiled_features, numpy_features
from fuzzeval.games.hearts.fuzzy import fuzzy_player
from fuzzeval.games.hearts.players import Policy, heuristic_player, play_out, random_player
from fuzzeval.games.hearts.rules import STANDARD, STURTEVANT_WHITE, Options
from fuzzeval.games.hearts.view import View, view

RULES = (("standard", STANDARD), ("sturtevant-white", STURTEVANT_WHITE))
TARGET = 500.0
DECISION_TARGET_US = 50.0


def hands_per_second(seats: Sequence[Policy], options: Options, hands: int, seed: int
                     ) -> float:
    deal_rng = np.random.default_rng(seed)
    deals = [rules.deal(deal_rng) for _ in range(hands)]
    rng = np.random.default_rng(seed + 1)
    start = time.process_time()
    for number, deal in enumerate(deals):
        play_out(rules.new_hand(deal, options, number), seats, rng)
    return hands / (time.process_time() - start)


def speed(hands: int, repeats: int, seed: int) -> bool:
    print(f"{'rules':<16} {'random hands/s':>15} {'heuristic hands/s':>18} {'ratio':>6}")
    ok = True
    for name, options in RULES:
        best = {"random": 0.0, "heuristic": 0.0}
        for _ in range(repeats):
            for player, policy in (("random", random_player), ("heuristic", heuristic_player)):
                rate = hands_per_second([policy] * 4, options, hands, seed)
                best[player] = max(best[player], rate)
        ok &= best["heuristic"] >= TARGET
        print(f"{name:<16} {best['random']:>15.0f} {best['heuristic']:>18.0f} "
              f"{best['heuristic'] / best['random']:>6.2f}")
    print(f"target: heuristic >= {TARGET:.0f} hands/s: {'met' if ok else 'NOT met'}")
    return ok


def positions(count: int, seed: int) -> list[tuple[View, list[int]]]:
    """``count`` decisions with a choice (views and legal cards) from heuristic self-play."""
    rng = np.random.default_rng(seed)
    out: list[tuple[View, list[int]]] = []
    number = 0
    while len(out) < count:
        state = rules.new_hand(rules.deal(rng), STANDARD, number)
        number += 1
        while state.phase != "over":
            cards = rules.legal(state)
            v = view(state)
            if len(cards) > 1:
                out.append((v, cards))
            index = heuristic_player(v, cards, rng) if len(cards) > 1 else 0
            state = rules.apply(state, cards[index], rng)
    return out[:count]


def decision_speed(count: int, repeats: int, seed: int) -> bool:
    """Microseconds a decision: fuzzy, its features alone, heuristic (best of repeats)."""
    fuzzy = fuzzy_player()
    cases = positions(count, seed)
    rng = np.random.default_rng(seed)
    timed: dict[str, Callable[[View, list[int]], object]] = {
        "fuzzy": lambda v, c: fuzzy(v, c, rng),
        "features": numpy_features,
        "compiled": compiled_features,
        "heuristic": lambda v, c: heuristic_player(v, c, rng)}
    best = dict.fromkeys(timed, math.inf)
    for _ in range(repeats):
        for name, decide in timed.items():
            start = time.process_time()
            for v, cards in cases:
                decide(v, cards)
            best[name] = min(best[name], (time.process_time() - start) / len(cases) * 1e6)
    ok = best["fuzzy"] <= DECISION_TARGET_US
    print(f"{'decision':<10} {'fuzzy us':>9} {'features us':>12} {'compiled us':>12} "
          f"{'heuristic us':>13} {'ratio':>6}")
    print(f"{'standard':<10} {best['fuzzy']:>9.1f} {best['features']:>12.1f} "
          f"{best['compiled']:>12.1f} {best['heuristic']:>13.1f} "
          f"{best['fuzzy'] / best['heuristic']:>6.1f}")
    print(f"target: fuzzy decision <= {DECISION_TARGET_US:.0f} us: "
          f"{'met' if ok else 'NOT met'}")
    return ok


def points_table(deals: int, seed: int) -> None:
    print(f"{'rules':<16} {'test player':<11} {'opponents':<13} {'points/hand':>11} "
          f"{'95% interval':>16}")
    for name, options in RULES:
        for test, other, label in ((heuristic_player, random_player, ("heuristic", "3 random")),
                                   (random_player, heuristic_player,
                                    ("random", "3 heuristic"))):
            deal_rng = np.random.default_rng(seed)
            rng = np.random.default_rng(seed + 1)
            per_deal = np.empty(deals)
            for d in range(deals):
                deal = rules.deal(deal_rng)
                total = 0
                for seat in range(4):
                    seats = [other] * 4
                    seats[seat] = test
                    state = play_out(rules.new_hand(deal, options, d), seats, rng)
                    total += rules.points(state)[seat]
                per_deal[d] = total / 4
                if (d + 1) % 500 == 0:
                    print(f"  {name} {label[0]}: {d + 1}/{deals} deals", file=sys.stderr)
            mean = float(per_deal.mean())
            half = 1.96 * float(per_deal.std(ddof=1)) / math.sqrt(deals)
            print(f"{name:<16} {label[0]:<11} {label[1]:<13} {mean:>11.2f} "
                  f"{f'[{mean - half:.2f}, {mean + half:.2f}]':>16}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--points", type=int, default=0, metavar="DEALS")
    parser.add_argument("--decisions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ok = speed(args.hands, args.repeats, args.seed)
    if args.decisions:
        ok &= decision_speed(args.decisions, args.repeats, args.seed)
    if args.points:
        points_table(args.points, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
