"""How long TD(λ) learning takes: games a second, and a 200,000-game run extrapolated.

    python benchmarks/learning.py [--games hearts=2000,backgammon=1000] [--repeats 2]

For each game, in the same run, the CPU seconds (``time.process_time``, one process) of

- **learning**: ``run_learning`` of ``--games`` games with the settings the shipped base
  was learned with (``--order 2``, the start generated from 100 sampled games, one game an
  update, no learning curve), each block committed to a history database;
  (after an untimed 20-game learn that compiles the engine's kernels);
- **the baseline**: the same number of games between the game's own players (``heuristic``
  in Hearts, ``pubeval`` in backgammon), no learning and no database: what playing alone
  costs.

The ratio is learning over the baseline. A 200,000-game run's time is the learning rate
extrapolated (the start's generation, measured apart, added once). Target: each
200,000-game run within an hour on two cores. The learner steps after every game, so one
core does the work; ``--workers 2`` learns with two games an update, one a worker (their
steps added together: docs/learning.md), timed by the wall clock.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from fuzzeval.learn.td_runs import LearnSettings, run_learning, start_source
from fuzzeval.play.executors import executor_for
from fuzzeval.play.match import make_player, play_game
from fuzzeval.play.registry import load_game
from fuzzeval.play.store import History

#: the settings of the shipped bases (docs/learning.md), less the learning curve
SETTINGS = {"hearts": {"opponent": "heuristic", "alpha": 0.3},
            "backgammon": {"opponent": "self", "alpha": 0.1}}
BASELINE = {"hearts": "heuristic", "backgammon": "pubeval"}
RUN = 200_000
TARGET_S = 3600.0


def learning_seconds(name: str, games: int, folder: Path, workers: int = 1
                     ) -> tuple[float, float]:
    """Seconds of generating the start (CPU) and of learning ``games`` games (CPU with one
    worker, else the wall clock: ``workers`` games an update, one a worker)."""
    game = load_game(name)
    game.prepare()
    settings = LearnSettings(name, order=2, sample_games=100, measure_every=0, block=games,
                             update=workers, **SETTINGS[name])  # type: ignore[arg-type]
    t0 = time.process_time()
    source = start_source(game, settings, "benchmark")
    t1, w1 = time.process_time(), time.perf_counter()
    with History(folder / f"{name}_{time.monotonic_ns()}.sqlite") as history, \
            executor_for(workers) as pool:
        run_learning(history, game, settings, source, games, pool if workers > 1 else None)
    took = time.process_time() - t1 if workers == 1 else time.perf_counter() - w1
    return t1 - t0, took


def baseline_seconds(name: str, games: int) -> float:
    """CPU seconds of ``games`` games between the game's own players."""
    game = load_game(name)
    game.prepare()
    players = [make_player(game, BASELINE[name]) for _ in range(game.seats)]
    t0 = time.process_time()
    for index in range(games):
        play_game(game, players, 1, index)
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="hearts=2000,backgammon=1000",
                        help="GAME=N,...: games learned from, each game")
    parser.add_argument("--repeats", type=int, default=2, help="best of this many")
    parser.add_argument("--workers", type=int, default=1,
                        help="learn with this many workers, as many games an update (wall "
                             "clock seconds when above 1)")
    args = parser.parse_args(argv)
    plan = {k: int(v) for k, v in (item.split("=") for item in args.games.split(","))}
    print(f"{'game':<11} {'games':>6} {'learn g/s':>10} {'plain g/s':>10} {'ratio':>6} "
          f"{'start s':>8} {'200k run':>9}  target <= 1 h")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for name, games in plan.items():
            learning_seconds(name, 20, Path(tmp))  # untimed: compiles the kernels
            best_learn, best_plain, start = float("inf"), float("inf"), float("inf")
            for _ in range(args.repeats):
                gen, learn = learning_seconds(name, games, Path(tmp), args.workers)
                best_learn, start = min(best_learn, learn), min(start, gen)
                best_plain = min(best_plain, baseline_seconds(name, games))
            run = start + RUN * best_learn / games
            met = run <= TARGET_S
            ok &= met
            print(f"{name:<11} {games:>6,} {games / best_learn:>10.0f} "
                  f"{games / best_plain:>10.0f} {best_learn / best_plain:>6.2f} "
                  f"{start:>8.1f} {run / 60:>6.0f} min  {'met' if met else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
