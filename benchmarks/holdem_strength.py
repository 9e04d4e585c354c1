"""What Loki's measures cost (games/holdem/strength.py), and the error of the cheap ones.

    python benchmarks/holdem_strength.py [--spots 40] [--repeats 3] [--seed 1]

Speed: CPU microseconds a call (``time.process_time``, one core, best of ``--repeats``)
over ``--spots`` seeded spots a street, each against a range re-weighted after a raise.
"cold" is a new spot (the tables of the spot computed: what the first decision on a street
pays), "warm" the same spot with other weights (the tables cached: later decisions, a
range update). The baseline, measured in the same run: hand strength by a plain Python
loop over the holdings, one phevaluator call each (``py HS``); ratios are against it.
The fuzzy player's ``strength`` feature is none of these but ``equity_estimate`` (EHS with
its potentials to the river, 300 pairs); benchmarks/holdem.py times a whole decision.

Error: over the flop spots, the cheap stand-ins for the exact two-card potentials
(one card ahead, and the ``sampled`` estimate at 500 and 2,000 pairs) against the exact
values: mean and largest absolute error of PPOT, NPOT and EHS.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from functools import partial

import numpy as np
from phevaluator import _pheval  # type: ignore[import-untyped, unused-ignore]

from fuzzeval.games.holdem import strength as S
from fuzzeval.games.holdem.range import HOLDINGS, Range

Spot = tuple[list[int], list[int], Range, Range]
TARGET_US = 200.0


def spots(count: int, board_cards: int, seed: int) -> list[Spot]:
    """(hole, board, range after a raise, uniform range) at ``count`` seeded spots."""
    rng = np.random.default_rng(seed + board_cards)
    out: list[Spot] = []
    for _ in range(count):
        cards = [int(c) for c in rng.permutation(52)[:2 + board_cards]]
        hole, board = cards[:2], cards[2:]
        raised = Range.uniform(board).updated("r", False, S.holding_strengths(board))
        out.append((hole, board, raised.without(hole), Range.uniform(cards)))
    return out


def python_hs(hole: list[int], board: list[int], weights: Range) -> float:
    """The baseline: every holding ranked by one phevaluator call from Python."""
    evaluate = {3: _pheval.evaluate_5cards, 4: _pheval.evaluate_6cards,
                5: _pheval.evaluate_7cards}[len(board)]
    ours = evaluate(*board, *hole)
    dead = set(hole) | set(board)
    won = total = 0.0
    for (a, b), w in zip(HOLDINGS.tolist(), weights.weights.tolist(), strict=True):
        if w == 0.0 or a in dead or b in dead:
            continue
        r = evaluate(*board, a, b)
        won += w * (1.0 if ours < r else 0.5 if ours == r else 0.0)
        total += w
    return won / total


def sampled(case: Spot, pairs: int) -> S.Estimate:
    return S.sampled(case[0], case[1], case[2], pairs=pairs)


def clear() -> None:
    S._outcomes.cache_clear()


def timed(cases: list[Spot], call: Callable[[Spot], object], repeats: int,
          cold: bool) -> float:
    """Best over ``repeats`` of the mean CPU microseconds a call."""
    best = math.inf
    for _ in range(repeats):
        if cold:
            clear()
        else:
            for case in cases:  # fill the caches first
                call(case)
        start = time.process_time()
        for case in cases:
            call(case)
        best = min(best, (time.process_time() - start) / len(cases) * 1e6)
    return best


def speed(count: int, repeats: int, seed: int) -> bool:
    rows: list[tuple[str, str, float]] = []
    for street, k in (("flop", 3), ("turn", 4), ("river", 5)):
        cases = spots(count, k, seed)
        base = timed(cases, lambda c: python_hs(c[0], c[1], c[2]), repeats, cold=True)
        rows.append((street, "py HS (baseline)", base))
        rows.append((street, "HS cold", timed(
            cases, lambda c: S.hand_strength(c[0], c[1], c[2]), repeats, cold=True)))
        rows.append((street, "HS warm", timed(
            cases, lambda c: S.hand_strength(c[0], c[1], c[2]), repeats, cold=False)))
        if k < 5:
            rows.append((street, "PPOT/NPOT river cold", timed(
                cases, lambda c: S.potentials(c[0], c[1], c[2]), max(1, repeats - 2)
                if k == 3 else repeats, cold=True)))
            rows.append((street, "PPOT/NPOT river warm", timed(
                cases, lambda c: S.potentials(c[0], c[1], c[3]), repeats, cold=False)))
        if k == 3:
            rows.append((street, "PPOT/NPOT 1 card cold", timed(
                cases, lambda c: S.potentials(c[0], c[1], c[2], ahead=1), repeats,
                cold=True)))
        rows.extend((street, f"sampled {pairs} pairs", timed(
            cases, partial(sampled, pairs=pairs), repeats, cold=True)) for pairs in (500, 2000))
        rows.append((street, "equity 300 pairs", timed(
            cases, lambda c: S.equity_estimate(c[0], c[1], 300, 1), repeats, cold=True)))
        rows.append((street, "holding strengths", timed(
            cases, lambda c: S._holding_strengths.__wrapped__(tuple(c[1]), 0), repeats,
            cold=True)))
        rows.append((street, "range update (warm)", timed(
            cases, lambda c: c[3].updated("c", True, S.holding_strengths(c[1])), repeats,
            cold=False)))
    pre = spots(count, 0, seed)
    rows.append(("preflop", "HS = sampled 500", timed(
        pre, lambda c: S.hand_strength(c[0], []), repeats, cold=True)))
    print(f"{'street':<8} {'measure':<24} {'us/call':>10} {'x baseline':>11}")
    baseline = {street: us for street, name, us in rows if name.startswith("py HS")}
    for street, name, us in rows:
        ratio = f"{us / baseline[street]:>11.3f}" if street in baseline else f"{'':>11}"
        print(f"{street:<8} {name:<24} {us:>10.1f} {ratio}")
    cost = {(street, name): us for street, name, us in rows}
    decision = max(cost[street, "equity 300 pairs"] for street in ("flop", "turn", "river"))
    ok = decision <= TARGET_US
    print(f"target: the fuzzy player's strength (equity 300 pairs) within a decision's "
          f"{TARGET_US:.0f} us on every street: {'met' if ok else 'NOT met'} (slowest "
          f"street {decision:.0f} us)")
    return ok


def errors(count: int, seed: int) -> None:
    cases = spots(count, 3, seed)
    exact = []
    stand_ins: dict[str, list[tuple[float, float, float]]] = {
        "1 card ahead": [], "sampled 500": [], "sampled 2000": []}
    for hole, board, raised, _ in cases:
        hs = S.hand_strength(hole, board, raised)
        ppot, npot = S.potentials(hole, board, raised)
        exact.append((ppot, npot, S.effective_strength(hs, ppot, npot)))
        one = S.potentials(hole, board, raised, ahead=1)
        stand_ins["1 card ahead"].append((*one, S.effective_strength(hs, *one)))
        for pairs in (500, 2000):
            est = S.sampled(hole, board, raised, pairs=pairs)
            stand_ins[f"sampled {pairs}"].append(
                (est.ppot, est.npot, S.effective_strength(est.hs, est.ppot, est.npot)))
    truth = np.array(exact)
    print(f"\nflop, {count} spots, range after a raise: error against the exact "
          "two-card potentials")
    print(f"{'stand-in':<14} {'PPOT mean':>9} {'max':>6} {'NPOT mean':>9} {'max':>6} "
          f"{'EHS mean':>9} {'max':>6}")
    for name, values in stand_ins.items():
        err = np.abs(np.array(values) - truth)
        cells = " ".join(f"{err[:, i].mean():>9.4f} {err[:, i].max():>6.3f}"
                         for i in range(3))
        print(f"{name:<14} {cells}")
    print(f"exact means: PPOT {truth[:, 0].mean():.3f}, NPOT {truth[:, 1].mean():.3f}, "
          f"EHS {truth[:, 2].mean():.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    S.hand_strength([0, 1], [2, 3, 4])  # compile (or load) the kernels before timing
    S.sampled([0, 1], [2, 3, 4], pairs=10)
    S.equity_estimate([0, 1], [2, 3, 4], 10, 1)
    ok = speed(args.spots, args.repeats, args.seed)
    errors(args.spots, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
