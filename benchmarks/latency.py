"""Small-batch grading: what one grade call costs when a game grades 1-20 candidates.

    python benchmarks/latency.py [--repeat 5] [--calls 2000] [--json]

On the benchmark base of benchmarks/engine.py (15 inputs, 30 rules, 5 output terms), one
core: microseconds per ``Evaluator.grade`` call at batch 1, 5, 15, 20 (and per row at
100,000) for both defuzzifiers, against the plain-numpy engine the compiled kernels replaced
(benchmarks/engine_before_kernels.py), interleaved, best of --repeat; then the first call of a fresh
process: with an empty kernel cache (compiling) and with a warm one (loading).

Targets: a call at batch 1-20 in <= 10 us (weighted average) and <= 20 us
(centroid), >= 5x the plain engine; the large-batch rate not below the plain engine's.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the root on the path, for benchmarks.*

from benchmarks.engine import load, random_rows  # noqa: E402
from benchmarks.engine_before_kernels import compile_plain  # noqa: E402
from fuzzeval.engine.evaluator import compile_rulebase  # noqa: E402

BATCHES = (1, 5, 15, 20)
LARGE = 100_000
TARGET_US = {"weighted_average": 10.0, "centroid": 20.0}
TARGET_X = 5.0

_FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter()
from fuzzeval.engine.evaluator import compile_rulebase
from benchmarks.engine import load
t1 = time.perf_counter()
ev = compile_rulebase(load({defuzz!r}, 7))
x = np.zeros((1, 15))
t2 = time.perf_counter()
ev.grade(x)
t3 = time.perf_counter()
print(t1 - t0, t3 - t2)
"""


def per_call(fn: Callable[[Any], Any], x: Any, calls: int, repeat: int) -> float:
    """Best of ``repeat`` means over ``calls`` calls, in microseconds."""
    fn(x)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn(x)
        best = min(best, (time.perf_counter() - t0) / calls)
    return best * 1e6


def first_call(defuzz: str, cache: Path) -> tuple[float, float]:
    """(import seconds, first grade seconds) of a fresh process using kernel cache ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL.format(defuzz=defuzz)],
                         env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    a, b = out.stdout.split()
    return float(a), float(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=2000, help="calls per timed run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    results: dict[str, Any] = {}
    for defuzz in ("weighted_average", "centroid"):
        rb = load(defuzz, 7)
        ours, plain = compile_rulebase(rb), compile_plain(rb)
        xs = random_rows(rb, LARGE, 1)
        if defuzz == "weighted_average":
            assert np.array_equal(ours.grade(xs[:2000]), plain.grade(xs[:2000]))
        else:
            assert np.abs(ours.grade(xs[:2000]) - plain.grade(xs[:2000])).max() < 1e-12
        rows = []
        for n in BATCHES:
            x = xs[:n]
            a_us, b_us = [], []
            for _ in range(args.repeat):  # interleaved
                a_us.append(per_call(ours.grade, x, args.calls, 1))
                b_us.append(per_call(plain.grade, x, args.calls, 1))
            rows.append({"batch": n, "ours_us": min(a_us), "plain_us": min(b_us)})
        large_ours = min(per_call(ours.grade, xs, 1, 1) for _ in range(args.repeat))
        large_plain = min(per_call(plain.grade, xs, 1, 1) for _ in range(args.repeat))
        with tempfile.TemporaryDirectory() as tmp:
            cold = first_call(defuzz, Path(tmp))
            warm = first_call(defuzz, Path(tmp))
        results[defuzz] = {
            "batches": rows,
            "large_per_s": {"ours": LARGE / large_ours * 1e6, "plain": LARGE / large_plain * 1e6},
            "first_call_s": {"empty_cache": cold[1], "warm_cache": warm[1],
                             "import_s": warm[0]},
        }
    targets = {}
    for defuzz, r in results.items():
        worst = max(row["ours_us"] for row in r["batches"])
        least_x = min(row["plain_us"] / row["ours_us"] for row in r["batches"])
        targets[f"{defuzz}: batch 1-20 <= {TARGET_US[defuzz]:g} us"] = worst <= TARGET_US[defuzz]
        targets[f"{defuzz}: batch 1-20 >= {TARGET_X:g}x plain"] = least_x >= TARGET_X
        targets[f"{defuzz}: large batch >= plain"] = (
            r["large_per_s"]["ours"] >= r["large_per_s"]["plain"])
    if args.json:
        print(json.dumps({"results": results, "targets": targets}, indent=2))
        return
    print("15 inputs, 30 rules, 5 output terms; one core; us per grade call, "
          f"best of {args.repeat} x {args.calls} calls, interleaved")
    print(f"{'defuzzifier':<18}{'batch':>8}{'compiled':>12}{'plain':>12}{'speed-up':>10}")
    for defuzz, r in results.items():
        for row in r["batches"]:
            print(f"{defuzz:<18}{row['batch']:>8}{row['ours_us']:>12.2f}"
                  f"{row['plain_us']:>12.2f}{row['plain_us'] / row['ours_us']:>9.1f}x")
        big = r["large_per_s"]
        print(f"{defuzz:<18}{LARGE:>8,}{big['ours']:>10,.0f}/s{big['plain']:>10,.0f}/s"
              f"{big['ours'] / big['plain']:>9.1f}x")
    print("first grade call of a fresh process (seconds):")
    for defuzz, r in results.items():
        f = r["first_call_s"]
        print(f"  {defuzz:<18} empty cache {f['empty_cache']:.2f}, warm cache "
              f"{f['warm_cache']:.3f} (import fuzzeval.engine.evaluator {f['import_s']:.2f})")
    for name, ok in targets.items():
        print(f"target {name:<48} {'PASS' if ok else 'MISS'}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
