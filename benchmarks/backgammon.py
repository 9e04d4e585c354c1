"""Backgammon games per second on one core.

    python benchmarks/backgammon.py [--games 200] [--repeats 3]

Plays the same seeded games for pubeval vs pubeval and fuzzy vs pubeval (backgammon_simple,
and the refined base with its 45 inputs and 159 rules), best of ``--repeats``, and, as the
baseline measured in the same run, random vs random (move generation and the game alone, no
evaluation): the ratio says what the evaluators cost. Targets: >= 60 games/s pubeval vs
pubeval, >= 40 fuzzy vs pubeval.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

from fuzzeval.games.backgammon.game import GAME  # noqa: E402
from fuzzeval.match import MatchSpec, PlayerSpec, play_indexed  # noqa: E402


def rate(player: str, opponent: str, games: int, repeats: int, seed: int) -> float:
    spec = MatchSpec("backgammon", PlayerSpec.parse(player), PlayerSpec.parse(opponent),
                     games, seed)
    play_indexed(GAME, spec, 0)  # players built, caches warm
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for i in range(games):
            play_indexed(GAME, spec, i)
        best = min(best, time.perf_counter() - t0)
    return games / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    base = rate("random", "random", args.games, args.repeats, args.seed)
    print(f"one core, best of {args.repeats}, {args.games} games each")
    print(f"{'match':<36}{'games/s':>9}{'vs baseline':>13}  target")
    print(f"{'random vs random (baseline)':<36}{base:>9.1f}{1.0:>12.2f}x")
    ok = True
    for player, target in (("pubeval", 60.0), ("fuzzy:rulebase=backgammon_simple", 40.0),
                           ("fuzzy:rulebase=backgammon_refined", 40.0)):
        r = rate(player, "pubeval", args.games, args.repeats, args.seed)
        hit = r >= target
        ok &= hit
        print(f"{player + ' vs pubeval':<36}{r:>9.1f}{r / base:>12.2f}x  >= {target:.0f} "
              f"{'PASS' if hit else 'MISS'}")
    print("all targets met" if ok else "some targets missed")


if __name__ == "__main__":
    main()
