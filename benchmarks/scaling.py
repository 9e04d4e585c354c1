"""How the match runner scales: the parent's share of a match's CPU, and weak scaling.

    python benchmarks/scaling.py [--workers 1,2] [--games 300] [--game backgammon]
                                 [-p fuzzy] [--opponent pubeval] [--repeat 1]
                                 [--variant as-is,task=0.2+window=2]

For each worker count N, measured in the same run, each in fresh processes:

- **the runner** (one for each ``--variant``): one match of N x ``--games`` games with
  ``--workers N`` through ``run_match`` (history writes included), timed by the wall
  clock; the parent's CPU and its workers' CPU are read from ``getrusage``, so the
  parent's share is what the one writer costs (target: <= 5 % at 2 workers, backgammon
  refined vs pubeval);
- **the baseline**: N independent 1-worker matches of ``--games`` games each, started
  together, each into its own database: what N cores do with no parent to share.

Weak-scaling efficiency = the runner's games per second / the baseline's (1.0: the runner
costs nothing): the baseline's rate is the sum of each process's own (``effic.``), and,
beside it, the N x ``--games`` games over the time until the last of them ended (``by
end``, a time to solution, as the runner's is). ``busy``: the workers' CPU over N x the
wall time (below 100 %: workers waited); ``pool``: seconds to start and stop an idle pool
of N workers, a fixed cost inside the runner's time.

Where the runner's workers waited: each task's games and each result's sending are timed
in the (forked) workers on the one monotonic clock, so a worker's time splits into
``tasks``, ``before`` its first, ``between`` tasks (of it ``sending`` its result; the
rest waiting for the next task and reading it) and ``after`` its last; ``no task`` is
how often the pool's queue of tasks was empty (sampled every 20 ms), ``insert`` the
parent's time in its inserts (not its commits). Last, the CPU a game, the runner's
(parent included) and the baseline's.

``--variant a,b,...`` measures several runners against the same baselines: ``as-is``, or
changes joined by ``+`` (``task=0.2+window=2``: the runner's task length and tasks in
flight a worker before 2026-11-28); ``--help`` lists them.
Where 16 cores are at hand, ``--workers 1,2,4,8,16`` states the 16-worker efficiency
(target: >= 85 %).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the root on the path, for benchmarks.*
    sys.path.insert(0, str(ROOT))

from benchmarks import children  # noqa: E402

CHILD = r"""
import json, os, resource, sys, threading, time
import concurrent.futures.process as P
import fuzzeval.play.executors as E
import fuzzeval.play.match as M
import fuzzeval.play.match_runs as R
import fuzzeval.play.store as S
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.registry import load_game
game_name, player, opponent, games, workers, db, seed, variant = sys.argv[1:9]
for part in variant.split("+"):  # the runner as it is, or changed for a comparison
    key, _, value = part.partition("=")
    if key == "narrow-pipe":
        E.widen_results = lambda pool: False
    elif key == "fast-switch":
        sys.setswitchinterval(0.0002)
    elif key == "task":
        M.TASK_SECONDS = float(value)
    elif key == "window":
        M.TASKS_PER_WORKER = int(value)
    elif key == "nice-workers":
        def _nice(first=E.ignore_interrupts, by=int(value or 1)):
            first()
            os.nice(by)
        E.ignore_interrupts = _nice
    elif key == "commit":
        R.COMMIT_SECONDS = float(value)
    elif key != "as-is":
        raise SystemExit(f"unknown variant {part!r}")
# where the workers' time goes: each task's games and each result's sending, start and end
# on the one monotonic clock, a line each in a file a worker
trace = db + ".trace"  # beside the database, in the run's own folder
os.makedirs(trace)
def _log(kind, start, _fd=[]):
    if not _fd:
        _fd.append(os.open(os.path.join(trace, str(os.getpid())),
                           os.O_WRONLY | os.O_CREAT | os.O_APPEND))
    os.write(_fd[0], f"{kind} {start!r} {time.perf_counter()!r}\n".encode())
def _traced(game, spec, indices, finish=None, _play=M.play_block):
    start = time.perf_counter()
    out = _play(game, spec, indices, finish)
    _log("t", start)
    return out
_traced.__module__, _traced.__qualname__ = M.__name__, "play_block"  # pickled by name
M.play_block = _traced
def _sending(*args, _send=P._sendback_result, **kwargs):
    start = time.perf_counter()
    _send(*args, **kwargs)
    _log("s", start)
P._sendback_result = _sending
# the parent: its time inserting games, and how often the pool's queue of tasks is empty
inserting = [0.0]
def _insert(*args, _insert=S.History.insert_game):
    start = time.perf_counter()
    _insert(*args)
    inserting[0] += time.perf_counter() - start
S.History.insert_game = _insert
samples = []
def _sample(pool, stop):
    while not stop.wait(0.02):
        samples.append(pool._call_queue.qsize() == 0)
game = load_game(game_name)
spec = MatchSpec(game.name, PlayerSpec.parse(player), PlayerSpec.parse(opponent),
                 int(games), int(seed))
game.prepare()
# warm up here: kernels compiled (workers fork after it and inherit them), tables loaded
M.play_indexed(game, MatchSpec(spec.game, spec.player, spec.opponent, 1, 10**6), 0)
# ... but a match's parent reads its rule bases once (its players, its fingerprint): not
# here before it
from fuzzeval.formats.loading import _PARSED
_PARSED.clear()
# what a pool of this many workers costs to start and stop, one trivial task each (a
# fixed cost inside the timed match: forking a large parent is slow on some kernels)
t0 = time.perf_counter()
if int(workers) > 1:
    with E.executor_for(int(workers)) as pool:
        list(pool.map(abs, range(int(workers))))
pool_s = time.perf_counter() - t0
print("ready", flush=True)
sys.stdin.readline()  # all of a measurement's processes start their games at once
own0 = resource.getrusage(resource.RUSAGE_SELF)
kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
with E.executor_for(int(workers)) as pool, S.History(db) as h:
    stop = threading.Event()
    if pool is not None:
        threading.Thread(target=_sample, args=(pool, stop), daemon=True).start()
    R.run_match(h, game, spec, pool)
    stop.set()
t1 = time.perf_counter()
own = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = lambda a, b: (b.ru_utime - a.ru_utime) + (b.ru_stime - a.ru_stime)
logs = [[line.split() for line in open(os.path.join(trace, f))] for f in os.listdir(trace)]
if int(workers) > 1 and not any(k == "t" for w in logs for k, _, _ in w):
    raise SystemExit("no worker traced its tasks: the pool's workers must be forked")
spans = lambda w, kind: sorted((float(a) - t0, float(b) - t0) for k, a, b in w if k == kind)
print(json.dumps({"wall": t1 - t0, "parent": cpu(own0, own), "workers": cpu(kids0, kids),
                  "pool": pool_s, "tasks": [spans(w, "t") for w in logs if spans(w, "t")],
                  # sending between a worker's first task and its last, as ``between``
                  "sending": sum(b - a for w in logs if spans(w, "t")
                                 for a, b in spans(w, "s")
                                 if spans(w, "t")[0][1] <= a < spans(w, "t")[-1][0]),
                  "inserting": inserting[0],
                  "empty": sum(samples) / len(samples) if samples else float("nan")}))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "NUMBA_NUM_THREADS"):
        env[var] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _start(args: argparse.Namespace, games: int, workers: int, db: Path,
           seed: int, variant: str = "as-is") -> subprocess.Popen[str]:
    return children.start([sys.executable, "-c", CHILD, args.game, args.player,
                           args.opponent, str(games), str(workers), str(db), str(seed),
                           variant],
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


def _result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = children.wait(proc)
    if proc.returncode:
        raise SystemExit(f"a measurement failed (exit {proc.returncode})")
    result: dict[str, Any] = json.loads(out)
    return result


def runner(args: argparse.Namespace, n: int, tmp: Path,
           variant: str = "as-is") -> dict[str, Any]:
    """One match of n x games with n workers."""
    proc = _start(args, n * args.games, n, tmp / f"runner{n}_{variant}.sqlite", 1, variant)
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


def where(tasks: list[list[tuple[float, float]]], n: int, wall: float) -> dict[str, float]:
    """The n workers' wall time, as shares of the match's: in tasks, before their first
    task, between tasks (sending a result, waiting for the next) and after their last.
    A worker that played no task spent it all before its first."""
    share = {"in": 0.0, "before": float(n - len(tasks)), "between": 0.0, "after": 0.0}
    for spans in tasks:
        share["in"] += sum(end - start for start, end in spans)
        share["before"] += spans[0][0] / wall
        share["between"] += sum(nxt[0] - prev[1] for prev, nxt in itertools.pairwise(spans))
        share["after"] += (wall - spans[-1][1]) / wall
    share["in"] /= wall
    share["between"] /= wall
    return {key: value / n for key, value in share.items()}


def measure(args: argparse.Namespace, n: int, tmp: Path,
            variants: list[str]) -> dict[str, dict[str, float]]:
    """Each variant's runner and one baseline, in a folder of their own (a history already
    holding the match would play nothing). Efficiency is the runner's games/s over the sum
    of the independent ones' rates; ``by_end`` over theirs by the last one's end (both
    end-to-end times); ``busy`` is the workers' CPU over n x the wall time (1.0: never
    waiting); ``in``, ``before``, ``between``, ``after``: ``where`` the workers' time went."""
    tmp.mkdir()
    alone = baseline(args, n, tmp)
    out = {}
    for variant in variants:  # (the caller turns their order from one repeat to the next)
        r = runner(args, n, tmp, variant)
        games = n * args.games
        rate = games / r["wall"]
        out[variant] = {
            "rate": rate, "alone": alone["rate"], "eff": rate / alone["rate"],
            "by_end": rate / alone["by_end"],
            "share": r["parent"] / (r["parent"] + r["workers"]) if n > 1 else float("nan"),
            "busy": (r["workers"] if n > 1 else r["parent"]) / (n * r["wall"]),
            "cpu": (r["parent"] + r["workers"]) / games, "cpu_alone": alone["cpu"],
            "pool": r["pool"], "wall": r["wall"], "empty": r["empty"],
            "sending": r["sending"] / (n * r["wall"]) if n > 1 else float("nan"),
            "inserting": r["inserting"] / r["wall"],
            **(where(r["tasks"], n, r["wall"]) if n > 1 else
               dict.fromkeys(("in", "before", "between", "after"), float("nan")))}
    return out


#: a variant's changes, each with the type of its value (None: it takes none)
CHANGES: dict[str, type | None] = {"as-is": None, "narrow-pipe": None, "fast-switch": None,
                                   "task": float, "window": int, "nice-workers": int,
                                   "commit": float}


def check_variant(variant: str) -> str | None:
    """Why a variant cannot be measured, or None: each change known, with a number where
    it takes one (nice-workers may go without)."""
    for part in variant.split("+"):
        key, eq, value = part.partition("=")
        if key not in CHANGES:
            return f"unknown variant {part!r} (known: {', '.join(CHANGES)})"
        kind = CHANGES[key]
        if (kind is None and eq) or (kind is not None and not eq and key != "nice-workers"):
            return f"{part!r}: write " + (key if kind is None else f"{key}=NUMBER")
        if eq and kind is not None:
            try:
                number = kind(value)
                if not math.isfinite(number) or number < 0 or \
                        (number == 0 and key != "nice-workers"):
                    return f"{part!r}: the number must be finite and " + (
                        "not negative" if key == "nice-workers" else "positive")
            except ValueError:
                return f"{part!r}: {value!r} is not a number of its kind"
    return None


def _pct(x: float, width: int) -> str:
    return f"{'-':>{width}}" if math.isnan(x) else f"{x:>{width}.1%}"


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
                        help="runners to compare against the same baselines, comma "
                             "separated, each as-is or changes joined by '+': "
                             "narrow-pipe (the pool's default 64 KiB result pipe), "
                             "fast-switch (the parent's switch interval at 0.2 ms), "
                             "task=SECONDS (a task's length), window=K (tasks in flight "
                             "a worker), nice-workers[=K] (workers K nicer than the "
                             "parent), commit=SECONDS (the parent's inserts' interval)")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.workers.split(",")]
    variants = args.variant.split(",")
    if len(set(variants)) < len(variants):
        parser.error(f"--variant: {args.variant!r} names a variant twice")
    for variant in variants:
        if (why := check_variant(variant)) is not None:
            parser.error(f"--variant: {why}")
    print(f"{args.game}: {args.player} vs {args.opponent}, {args.games} games a worker, "
          f"{os.cpu_count()} cores, median of {args.repeat}")
    # a name too long for its column is shown as v1, v2, ... and spelled out here
    label = {v: v if len(v) <= 14 else f"v{k + 1}" for k, v in enumerate(variants)}
    for variant, short in label.items():
        if short != variant:
            print(f"{short}: {variant}")
    print(f"{'N':>2} {'variant':<14} {'games/s':>7} {'alone':>6} {'effic.':>6} "
          f"{'range':>13} {'by end':>6} {'share':>5} {'busy':>4} {'pool':>4}")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        # Not reported: a first match fills numba's cache, so no measured process compiles
        # a kernel that the warm-up's one game did not need.
        runner(args, 1, tmp)
        for i, n in enumerate(counts):
            # each repeat starts with another variant: none is always the last measured
            runs = [measure(args, n, tmp / f"{i}_{k}",
                            variants[k % len(variants):] + variants[:k % len(variants)])
                    for k in range(args.repeat)]
            for variant in variants:
                mine = [run[variant] for run in runs]
                eff = sorted(m["eff"] for m in mine)
                m = {key: statistics.median(x[key] for x in mine) for key in mine[0]}
                rows.append((n, variant, m))
                print(f"{n:>2} {label[variant]:<14} {m['rate']:>7.1f} {m['alone']:>6.0f} "
                      f"{m['eff']:>6.1%} {eff[0]:>6.1%}-{eff[-1]:<6.1%} "
                      f"{m['by_end']:>6.1%} {_pct(m['share'], 5)} {m['busy']:>4.0%} "
                      f"{m['pool']:>4.2f}", flush=True)
    print("\nwhere the workers' time went, shares of the match's wall time (sending: the\n"
          "part of between spent sending results); how often the pool had no task\n"
          "waiting; the parent inserting")
    print(f"{'N':>2} {'variant':<14} {'wall s':>6} {'tasks':>6} {'before':>6} "
          f"{'between':>7} {'sending':>7} {'after':>6} {'no task':>7} {'insert':>6}")
    for n, variant, m in rows:
        print(f"{n:>2} {label[variant]:<14} {m['wall']:>6.2f} {_pct(m['in'], 6)} "
              f"{_pct(m['before'], 6)} {_pct(m['between'], 7)} {_pct(m['sending'], 7)} "
              f"{_pct(m['after'], 6)} {_pct(m['empty'], 7)} {_pct(m['inserting'], 6)}")
    print("\nCPU a game, ms: the runner's (parent included) and the independent ones'")
    for n, variant, m in rows:
        print(f"{n:>2} {label[variant]:<14} {m['cpu'] * 1e3:>6.2f} {m['cpu_alone'] * 1e3:>6.2f}")
    return 0


if __name__ == "__main__":
    children.run_main(main, "the rows printed are measured; nothing else is kept")
