"""Hold'em speed on one core: fuzzy hands a second, a fuzzy decision, a sampling decision.

    python benchmarks/holdem.py [--hands 2000] [--decisions 2000] [--sampling 100]
                                [--repeats 3] [--seed 1]

CPU time (``time.process_time``), best of ``--repeats``, after a warm-up (the compiled
kernels loaded).

- Hands: ``fuzzy`` self-play (both seats the rule base's triple) against the baseline of
  the same run, ``call`` self-play on the same deals (the rules, the views and the legal
  actions alone). The strength cache is emptied before each run. Target:
  >= 2,000 fuzzy hands a second.
- Decision: one ``fuzzy`` decision (features, grades, the triple, the draw) over
  ``--decisions`` positions from fuzzy self-play, each a spot the player has not seen (the
  strength cache emptied before it: what the first decision of a round pays) and as in
  play (the cache kept). Target: <= 200 us at a new spot.
- Sampling: one ``sampling`` decision at 500 trials without the stop rule (every trial
  run) over ``--sampling`` positions with two or three actions, the compiled playouts,
  against the baseline of the same run: the game-agnostic playouts in Python at 50
  trials, times 10. Target: <= 50 ms.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np

from fuzzeval.games.holdem import features
from fuzzeval.games.holdem.game import GAME, State
from fuzzeval.play.game import Candidates, Player
from fuzzeval.play.match import make_player
from fuzzeval.search.sampling import playout_simulator

HANDS_TARGET = 2000.0
DECISION_TARGET_US = 200.0
SAMPLING_TARGET_MS = 50.0


def warm() -> None:
    """The process's one-time costs: the compiled kernels loaded."""
    self_play(make_player(GAME, "fuzzy"), 20, 0)


def self_play(player: Player, hands: int, seed: int,
              seen: Callable[[State, Candidates], None] | None = None) -> float:
    """CPU seconds of ``hands`` hands of ``player`` in both seats, the deals by ``seed``."""
    deal_rng, rng = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    features._strength.cache_clear()
    start = time.process_time()
    for hand in range(hands):
        state = GAME.new_game(deal_rng, hand % 2)
        while GAME.to_move(state) is not None:
            candidates = GAME.candidates(state)
            if seen is not None:
                seen(state, candidates)
            state = GAME.apply(state, player.choose(candidates, rng), rng)
    return time.process_time() - start


def hands_speed(hands: int, repeats: int, seed: int) -> bool:
    best = {"call": 0.0, "fuzzy": 0.0}
    players = {name: make_player(GAME, name) for name in best}
    for _ in range(repeats):
        for name, player in players.items():
            best[name] = max(best[name], hands / self_play(player, hands, seed))
    ok = best["fuzzy"] >= HANDS_TARGET
    print(f"{'self-play':<10} {'call hands/s':>13} {'fuzzy hands/s':>14} {'ratio':>6}")
    print(f"{'holdem':<10} {best['call']:>13.0f} {best['fuzzy']:>14.0f} "
          f"{best['fuzzy'] / best['call']:>6.2f}")
    print(f"target: fuzzy >= {HANDS_TARGET:.0f} hands/s: {'met' if ok else 'NOT met'}")
    return ok


def positions(count: int, seed: int, choices: int = 2) -> list[Candidates]:
    """``count`` decisions with at least ``choices`` actions, from fuzzy self-play."""
    out: list[Candidates] = []
    hand = 0
    while len(out) < count:
        def keep(state: State, candidates: Candidates) -> None:
            if len(candidates) >= choices and len(out) < count:
                out.append(candidates)
        self_play(make_player(GAME, "fuzzy"), 1, seed * 100_003 + hand, keep)
        hand += 1
    return out


def decision_speed(count: int, repeats: int, seed: int) -> bool:
    fuzzy = make_player(GAME, "fuzzy")
    cases = positions(count, seed)
    rng = np.random.default_rng(seed)
    best = {"new": math.inf, "play": math.inf}
    for _ in range(repeats):
        elapsed = 0.0
        for candidates in cases:
            features._strength.cache_clear()
            start = time.process_time()
            fuzzy.choose(candidates, rng)
            elapsed += time.process_time() - start
        best["new"] = min(best["new"], elapsed / count * 1e6)
        start = time.process_time()
        for candidates in cases:
            fuzzy.choose(candidates, rng)
        best["play"] = min(best["play"], (time.process_time() - start) / count * 1e6)
    ok = best["new"] <= DECISION_TARGET_US
    print(f"{'decision':<10} {'new spot us':>12} {'in play us':>11}")
    print(f"{'fuzzy':<10} {best['new']:>12.1f} {best['play']:>11.1f}")
    print(f"target: a fuzzy decision <= {DECISION_TARGET_US:.0f} us: "
          f"{'met' if ok else 'NOT met'}")
    return ok


def sampling_speed(count: int, repeats: int, seed: int) -> bool:
    player = make_player(GAME, "sampling", stop="none")
    fuzzy = make_player(GAME, "fuzzy")
    hooks = GAME.hidden_information
    cases = positions(count, seed + 1)
    rng = np.random.default_rng(seed)
    best = {"compiled": math.inf, "python": math.inf}
    for _ in range(repeats):
        start = time.process_time()
        for candidates in cases:
            player.decide(candidates, rng)  # type: ignore[attr-defined]
        best["compiled"] = min(best["compiled"],
                               (time.process_time() - start) / count * 1e3)
        start = time.process_time()
        for candidates in cases[: max(1, count // 10)]:
            playout_simulator(GAME, hooks, candidates, (fuzzy, fuzzy))(50, rng)
        best["python"] = min(best["python"], (time.process_time() - start)
                             / max(1, count // 10) * 10 * 1e3)
    ok = best["compiled"] <= SAMPLING_TARGET_MS
    print(f"{'sampling':<10} {'compiled ms':>12} {'python ms':>10} {'ratio':>6}")
    print(f"{'500 trials':<10} {best['compiled']:>12.1f} {best['python']:>10.0f} "
          f"{best['python'] / best['compiled']:>6.0f}")
    print(f"target: a sampling decision at 500 trials <= {SAMPLING_TARGET_MS:.0f} ms: "
          f"{'met' if ok else 'NOT met'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--sampling", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    warm()
    ok = hands_speed(args.hands, args.repeats, args.seed)
    if args.decisions:
        ok &= decision_speed(args.decisions, args.repeats, args.seed)
    if args.sampling:
        ok &= sampling_speed(args.sampling, args.repeats, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
