"""Whole cribbage games per second: one core, then two worker processes, same games.

    python benchmarks/cribbage_games.py [--games 400] [--repeats 3] [--quick]

For random vs random and exhaustive vs random (both with greedy pegging) it plays the same
seeded games three ways, interleaved and repeated (best of ``--repeats`` is kept, since a
shared machine only ever makes a run slower):

- one core: in this process, one game after another;
- two workers: the match runner's streaming path (one game per task, results committed as
  they come), which is what ``fuzzeval match --workers 2`` does;
- split: the games cut in two halves, each half played in one worker with no traffic in
  between. This is the most two processes can give on this machine at this moment (the
  baseline for the runner's overhead), measured in the same run.

It checks that the streamed games are identical to the one-core games and prints games/s
and the ratios. Targets: >= 50 games/s per core when neither player is exhaustive; two
workers >= 1.8x one core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from concurrent.futures import Executor  # noqa: E402

from fuzzeval.games.cribbage.game import GAME  # noqa: E402
from fuzzeval.play.executors import executor_for  # noqa: E402
from fuzzeval.play.match import MatchSpec, play_indexed, run_games  # noqa: E402
from fuzzeval.play.spec import PlayerSpec  # noqa: E402

Result = tuple[object, ...]


def play_block(spec: MatchSpec, indices: Sequence[int]) -> list[Result]:
    """A block of games played back to back (the one-core and split paths)."""
    return [_result(play_indexed(GAME, spec, i)) for i in indices]


def _result(record: object) -> Result:
    outcome = record.outcome  # type: ignore[attr-defined]
    return (record.index, outcome.winner, outcome.scores)  # type: ignore[attr-defined]


def streamed(spec: MatchSpec, pool: Executor) -> list[Result]:
    return sorted(_result(r) for r in run_games(GAME, spec, range(spec.games), pool))


def split(spec: MatchSpec, pool: Executor) -> list[Result]:
    half = spec.games // 2
    blocks = [range(half), range(half, spec.games)]
    return [r for block in pool.map(play_block, [spec, spec], blocks) for r in block]


def best_rate(games: int, runs: list[float]) -> float:
    return games / min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="100 games per case, 2 repeats")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games, repeats = (100, 2) if args.quick else (args.games, args.repeats)
    GAME.prepare()
    cases = [("random", "random", 50.0), ("exhaustive", "random", None)]
    print(f"best of {repeats}, {games} games each, on {os.cpu_count()} cores")
    print(f"{'match':<22}{'1 core':>9}{'2 workers':>11}{'split':>9}{'speed-up':>10}"
          f"{'of split':>10}  targets")
    ok = True
    with executor_for(workers=2) as pool:
        assert pool is not None
        list(pool.map(abs, range(8)))  # start both workers before timing
        for player, opponent, per_core_target in cases:
            spec = MatchSpec("cribbage", PlayerSpec(player), PlayerSpec(opponent), games,
                             args.seed)
            list(pool.map(play_block, [spec, spec], [[0], [1]]))  # players built in workers
            reference = play_block(spec, range(games))
            ways: dict[str, Callable[[], list[Result]]] = {
                "one": lambda: play_block(spec, range(games)),  # noqa: B023
                "two": lambda: streamed(spec, pool),  # noqa: B023
                "split": lambda: split(spec, pool),  # noqa: B023
            }
            times: dict[str, list[float]] = {k: [] for k in ways}
            for _ in range(repeats):
                for name, run in ways.items():
                    t0 = time.perf_counter()
                    got = run()
                    times[name].append(time.perf_counter() - t0)
                    if got != reference:
                        raise SystemExit(f"{name}: different games from the one-core run")
            one, two, half = (best_rate(games, times[k]) for k in ("one", "two", "split"))
            verdicts = []
            if per_core_target is not None:
                hit = one >= per_core_target
                ok &= hit
                verdicts.append(f">= {per_core_target:.0f} g/s/core {'PASS' if hit else 'MISS'}")
            hit = two / one >= 1.8
            ok &= hit
            verdicts.append(f">= 1.8x {'PASS' if hit else 'MISS'}")
            print(f"{player + ' vs ' + opponent:<22}{one:>9.1f}{two:>11.1f}{half:>9.1f}"
                  f"{two / one:>9.2f}x{two / half:>9.2f}x  {'; '.join(verdicts)}")
    print("games/s; 'split' = each worker plays half the games with no traffic: the most two")
    print("processes give on this machine now. All targets met." if ok else
          "processes give on this machine now. Some targets missed (see 'split').")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
