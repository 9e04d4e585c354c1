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
costs nothing): the baseline's rate is the sum of each process's own (``effic.``), and,
beside it, the N x ``--games`` games over the time until the last of them ended (``by
end``, a time to solution, as the runner's is). ``busy``: the workers' CPU over N x the
wall time (below 100 %: workers waited); ``pool``: seconds to start and stop an idle pool
of N workers, a fixed cost inside the runner's time; ``ms/game``: CPU a game, the
runner's (parent included) and the baseline's (where they differ, the runner's workers
play slower, not less).
Where 16 cores are at hand, ``--workers 1,2,4,8,16`` states the 16-worker efficiency
(target: >= 85 %).
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
if str(ROOT) not in sys.path:  # run as a script: the root on the path, for benchmarks.*
    sys.path.insert(0, str(ROOT))

from benchmarks import children  # noqa: E402

CHILD = r"""
import json, resource, sys, time
from fuzzeval.play.executors import executor_for
from fuzzeval.play.match import MatchSpec, PlayerSpec
from fuzzeval.play.registry import load_game
from fuzzeval.play.store import History, run_match
game_name, player, opponent, games, workers, db, seed, variant = sys.argv[1:9]
if variant == "narrow-pipe":
    import fuzzeval.play.executors
    fuzzeval.play.executors.widen_results = lambda pool: False
elif variant == "fast-switch":
    sys.setswitchinterval(0.0002)
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
# what a pool of this many workers costs to start and stop, one trivial task each (a
# fixed cost inside the timed match: forking a large parent is slow on some kernels)
t0 = time.perf_counter()
if int(workers) > 1:
    with executor_for(int(workers)) as pool:
        list(pool.map(abs, range(int(workers))))
pool_s = time.perf_counter() - t0
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
print(json.dumps({"wall": wall, "parent": cpu(own0, own), "workers": cpu(kids0, kids),
                  "pool": pool_s}))
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
    return children.start([sys.executable, "-c", CHILD, args.game, args.player,
                           args.opponent, str(games), str(workers), str(db), str(seed),
                           args.variant],
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
    out, _ = children.wait(proc)
    if proc.returncode:
        raise SystemExit(f"a measurement failed (exit {proc.returncode})")
    result: dict[str, float] = json.loads(out)
    return result


def runner(args: argparse.Namespace, n: int, tmp: Path) -> dict[str, float]:
    """One match of n x games with n workers."""
    proc = _start(args, n * args.games, n, tmp / f"runner{n}.sqlite", 1)
    _go([proc])
    return _result(proc)


def baseline(args: argparse.Namespace, n: int, tmp: Path) -> dict[str, float]:
    """n independent 1-worker matches of ``games`` games, run together (start-up and
    warm-up excluded, as in the runner's measurement): the sum of each one's rate over its
    own timed games, the rate by the last one's end, and their CPU a game."""
    procs = [_start(args, args.games, 1, tmp / f"alone{n}_{k}.sqlite", 1 + k)
             for k in range(n)]
    _go(procs)
    results = [_result(p) for p in procs]
    return {"rate": sum(args.games / r["wall"] for r in results),
            "by_end": n * args.games / max(r["wall"] for r in results),
            "cpu": sum(r["parent"] + r["workers"] for r in results) / (n * args.games)}


def measure(args: argparse.Namespace, n: int, tmp: Path) -> dict[str, float]:
    """One runner and its baseline, in a folder of their own (a history already holding
    the match would play nothing). Efficiency is the runner's games/s over the sum of the
    independent ones' rates; ``by_end`` over theirs by the last one's end (both end-to-end
    times); ``busy`` is the workers' CPU over n x the wall time (1.0: never waiting)."""
    tmp.mkdir()
    r = runner(args, n, tmp)
    games = n * args.games
    rate, alone = games / r["wall"], baseline(args, n, tmp)
    return {"rate": rate, "alone": alone["rate"], "eff": rate / alone["rate"],
            "by_end": rate / alone["by_end"],
            "share": r["parent"] / (r["parent"] + r["workers"]) if n > 1 else float("nan"),
            "busy": (r["workers"] if n > 1 else r["parent"]) / (n * r["wall"]),
            "cpu": (r["parent"] + r["workers"]) / games, "cpu_alone": alone["cpu"],
            "pool": r["pool"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2", help="worker counts, e.g. 1,2,4,8,16")
    parser.add_argument("--games", type=int, default=300, help="games per worker")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measurements of each count: the median, and the range")
    parser.add_argument("--game", default="backgammon")
    parser.add_argument("-p", "--player", default="fuzzy")
    parser.add_argument("--opponent", default="pubeval")
    parser.add_argument("--variant", default="as-is",
                        choices=["as-is", "narrow-pipe", "fast-switch"],
                        help="the runner as it is; with the pool's default 64 KiB result "
                             "pipe; with the parent's switch interval at 0.2 ms")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.workers.split(",")]
    print(f"{args.game}: {args.player} vs {args.opponent}, {args.games} games a worker, "
          f"{os.cpu_count()} cores, median of {args.repeat}, {args.variant}")
    print(f"{'workers':>7} {'games/s':>7} {'alone':>7} {'effic.':>6} {'range':>13} "
          f"{'by end':>6} {'share':>5} {'busy':>4} {'pool':>5} {'ms/game':>11}")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        # Not reported: a first match fills numba's cache, so no measured process compiles
        # a kernel that the warm-up's one game did not need.
        runner(args, 1, tmp)
        for i, n in enumerate(counts):
            runs = [measure(args, n, tmp / f"{i}_{k}") for k in range(args.repeat)]
            eff = sorted(run["eff"] for run in runs)
            m = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
            share = "-" if n == 1 else f"{m['share']:.1%}"
            print(f"{n:>7} {m['rate']:>7.1f} {m['alone']:>7.1f} {m['eff']:>6.1%} "
                  f"{eff[0]:>6.1%}-{eff[-1]:<6.1%} {m['by_end']:>6.1%} {share:>5} "
                  f"{m['busy']:>4.0%} {m['pool']:>5.2f} "
                  f"{m['cpu'] * 1e3:>5.2f}/{m['cpu_alone'] * 1e3:.2f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    children.run_main(main, "the rows printed are measured; nothing else is kept")
