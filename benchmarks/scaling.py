"""How the match runner scales: the parent's share of a match's CPU, and weak scaling.

    python benchmarks/scaling.py [--workers 1,2] [--games 300] [--game backgammon]
                                 [-p fuzzy] [--opponent pubeval]

For each worker count N, two measurements in the same run, each in fresh processes:

- **the runner**: one match of N x ``--games`` games with ``--workers N`` through
  ``run_match`` (history writes included), timed by the wall clock; the parent's CPU and
  its workers' CPU are read from ``getrusage``, so the parent's share is what the one
  writer costs (target: <= 5 % at 2 workers, backgammon refined vs pubeval);
- **the baseline**: N independent 1-worker matches of ``--games`` games each, started
  together, each into its own database: what N cores do with no parent to share.

Weak-scaling efficiency = the runner's games per second / the baseline's (1.0: the runner
costs nothing). Where 16 cores are at hand, ``--workers 1,2,4,8,16`` states the
16-worker efficiency (target: >= 85 %).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, resource, sys, time
from fuzzeval.play.executors import executor_for
from fuzzeval.play.match import MatchSpec, PlayerSpec
from fuzzeval.play.registry import load_game
from fuzzeval.play.store import History, run_match
game_name, player, opponent, games, workers, db, seed = sys.argv[1:8]
from fuzzeval.play.match import play_indexed
game = load_game(game_name)
spec = MatchSpec(game.name, PlayerSpec.parse(player), PlayerSpec.parse(opponent),
                 int(games), int(seed))
game.prepare()
# warm up here: kernels compiled (workers fork after it and inherit them), tables loaded
play_indexed(game, MatchSpec(spec.game, spec.player, spec.opponent, 1, 10**6), 0)
# ... but a match's parent reads its rule bases once (its players, its fingerprint): not
# here before it
from fuzzeval.loading import _PARSED
_PARSED.clear()
print("ready", flush=True)
sys.stdin.readline()  # all of a measurement's processes start their games at once
own0 = resource.getrusage(resource.RUSAGE_SELF)
kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
with executor_for(int(workers)) as pool, History(db) as h:
    run_match(h, game, spec, pool)
wall = time.perf_counter() - t0
own = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = lambda a, b: (b.ru_utime - a.ru_utime) + (b.ru_stime - a.ru_stime)
print(json.dumps({"wall": wall, "parent": cpu(own0, own), "workers": cpu(kids0, kids)}))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "NUMBA_NUM_THREADS"):
        env[var] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _start(args: argparse.Namespace, games: int, workers: int, db: Path,
           seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, args.game, args.player,
                             args.opponent, str(games), str(workers), str(db), str(seed)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=_env())


def _go(procs: list[subprocess.Popen[str]]) -> None:
    """Start the games of processes that have warmed up, together: N cores busy at once
    for the whole of the baseline, not a process alone while the others still import."""
    for proc in procs:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"a measurement failed (exit {proc.wait()})")
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()


def _result(proc: subprocess.Popen[str]) -> dict[str, float]:
    out, _ = proc.communicate()
    if proc.returncode:
        raise SystemExit(f"a measurement failed (exit {proc.returncode})")
    result: dict[str, float] = json.loads(out)
    return result


def runner(args: argparse.Namespace, n: int, tmp: Path) -> dict[str, float]:
    """One match of n x games with n workers."""
    proc = _start(args, n * args.games, n, tmp / f"runner{n}.sqlite", 1)
    _go([proc])
    return _result(proc)


def baseline(args: argparse.Namespace, n: int, tmp: Path) -> float:
    """Games per second of n independent 1-worker matches of ``games`` games, run together:
    the sum of each one's rate over its own timed games (start-up and warm-up excluded, as
    in the runner's measurement)."""
    procs = [_start(args, args.games, 1, tmp / f"alone{n}_{k}.sqlite", 1 + k)
             for k in range(n)]
    _go(procs)
    return sum(args.games / _result(p)["wall"] for p in procs)


def measure(args: argparse.Namespace, n: int, tmp: Path) -> tuple[float, float, float]:
    """One runner and its baseline, in a folder of their own (a history already holding
    the match would play nothing): games/s, the baseline's games/s, the parent's share."""
    tmp.mkdir()
    r = runner(args, n, tmp)
    rate, rate_alone = n * args.games / r["wall"], baseline(args, n, tmp)
    share = r["parent"] / (r["parent"] + r["workers"]) if n > 1 else float("nan")
    return rate, rate_alone, share


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2", help="worker counts, e.g. 1,2,4,8,16")
    parser.add_argument("--games", type=int, default=300, help="games per worker")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measurements of each count: the median, and the range")
    parser.add_argument("--game", default="backgammon")
    parser.add_argument("-p", "--player", default="fuzzy")
    parser.add_argument("--opponent", default="pubeval")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.workers.split(",")]
    print(f"{args.game}: {args.player} vs {args.opponent}, {args.games} games a worker, "
          f"{os.cpu_count()} cores, median of {args.repeat}")
    print(f"{'workers':>7} {'games/s':>8} {'alone':>8} {'efficiency':>10} {'range':>13} "
          f"{'share':>6}")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        # Not reported: a first match fills numba's cache, so no measured process compiles
        # a kernel that the warm-up's one game did not need.
        runner(args, 1, tmp)
        for i, n in enumerate(counts):
            runs = [measure(args, n, tmp / f"{i}_{k}") for k in range(args.repeat)]
            eff = sorted(rate / alone for rate, alone, _ in runs)
            rate, alone, share = (statistics.median(x) for x in zip(*runs, strict=True))
            print(f"{n:>7} {rate:>8.1f} {alone:>8.1f} {statistics.median(eff):>10.1%} "
                  f"{eff[0]:>6.1%}-{eff[-1]:<6.1%} "
                  f"{'-' if n == 1 else f'{share:.1%}':>6}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
