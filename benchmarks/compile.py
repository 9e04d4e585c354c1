"""Compile time per rule, 1,000 to 100,000 rules: compile_rulebase must be linear.

    python benchmarks/compile.py [--sizes 1000,10000,30000,100000] [--repeat 3] [--quick]
                                 [--json]

Each rule base is benchmarks/engine.py's generator at that many rules (15 inputs with 3
terms each, 5 output terms, rules of 1-3 conditions with and/or/not, one in six weighted;
the 100,000-rule file is 7.4 MB, inside the loader's 10 MB limit), written to a temporary
folder. For each size, in this process, CPU seconds (time.process_time, pinned to one
core's worth of threads), best of --repeat:

- load: ``load_rulebase(path)``, reading, parsing and checking the file;
- compile: ``compile_rulebase(rb)``;
- grade: the first ``Evaluator.grade`` of one row after compiling.

Compile and load time per rule are printed as ratios to the smallest size's figure of the
same run: flat (linear work) is 1. Then ``fuzzeval evaluate FILE -i ...`` on the largest
base runs once in a fresh process, CPU seconds (user + system) of the whole command.

Targets, each printed as PASS or MISS: compile time per rule at every size at
most RATIO_TARGET times the smallest size's; the largest base loaded, compiled and graded
by ``fuzzeval evaluate`` in at most COMMAND_TARGET CPU seconds (with 100,000 rules).
"""

from __future__ import annotations

import os

# One core: pin BLAS/OpenMP pools to one thread before numpy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from fuzzeval.engine.evaluator import compile_rulebase  # noqa: E402
from fuzzeval.formats.loading import load_rulebase  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine as bench  # noqa: E402  benchmarks/engine.py: the rule-base builder

SIZES = (1_000, 10_000, 30_000, 100_000)
QUICK_SIZES = (1_000, 3_000, 10_000)
#: compile time per rule, at most this times the smallest size's. Linear work is flat
#: from 10,000 rules on; 1,000 rules' objects fit in the CPU's caches, so they compile about
#: twice as fast a rule (measured: 1.8x to 2.4x from 10,000 to 100,000 rules). The
#: quadratic step this guards against made 100,000 rules 150x dearer a rule than 1,000.
RATIO_TARGET = 3.0
COMMAND_TARGET = 15.0  # CPU seconds: fuzzeval evaluate of the 100,000-rule base
N_INPUTS = 15


@dataclass
class Size:
    rules: int
    megabytes: float
    load_s: float
    compile_s: float
    grade_s: float
    grade: float

    def per_rule_us(self, seconds: float) -> float:
        return seconds / self.rules * 1e6


def best_cpu(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least CPU time of ``repeat`` calls, and the last call's result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def measure(path: Path, rules: int, repeat: int) -> Size:
    load_s, rb = best_cpu(lambda: load_rulebase(path), repeat)
    compile_s, ev = best_cpu(lambda: compile_rulebase(rb), repeat)
    row = np.full((1, N_INPUTS), 0.5)
    start = time.process_time()
    grade = float(ev.grade(row)[0])
    grade_s = time.process_time() - start
    return Size(rules, path.stat().st_size / 1e6, load_s, compile_s, grade_s, grade)


def command_cpu(path: Path) -> tuple[float, float]:
    """CPU seconds (user + system) of ``fuzzeval evaluate FILE -i ... --json`` and the
    grade it printed."""
    inputs = [arg for name in bench.input_names(N_INPUTS) for arg in ("-i", f"{name}=0.5")]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "fuzzeval", "evaluate", str(path), *inputs,
                           "--json"],
                          capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"fuzzeval evaluate {path}: exit {done.returncode}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, float(json.loads(done.stdout)["grade"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="rule counts, comma-separated, smallest first "
                        "(default 1000,10000,30000,100000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls; the best counts")
    parser.add_argument("--quick", action="store_true", help="sizes 1000,3000,10000")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    sizes = QUICK_SIZES if args.quick else SIZES
    if args.sizes:
        try:
            sizes = tuple(int(s) for s in args.sizes.split(","))
        except ValueError:
            parser.error(f"--sizes {args.sizes!r}: write whole numbers, e.g. 1000,10000")
    if any(n < 3 for n in sizes) or list(sizes) != sorted(sizes):
        parser.error("--sizes: at least 3 rules each, smallest first")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    results: list[Size] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"rules_{n}.yaml"
            path.write_text(bench.rulebase_yaml("weighted_average", n_rules=n,
                                                n_inputs=N_INPUTS))
            print(f"{n:,} rules ...", file=sys.stderr, flush=True)
            results.append(measure(path, n, args.repeat))
        print(f"fuzzeval evaluate, {sizes[-1]:,} rules ...", file=sys.stderr, flush=True)
        command_s, command_grade = command_cpu(path)
    if command_grade != results[-1].grade:
        raise SystemExit(f"fuzzeval evaluate printed {command_grade}, the engine graded "
                         f"{results[-1].grade}")

    base = results[0]
    ratios = [r.compile_s / r.rules / (base.compile_s / base.rules) for r in results]
    load_ratios = [r.load_s / r.rules / (base.load_s / base.rules) for r in results]
    flat = all(x <= RATIO_TARGET for x in ratios)
    command_met = command_s <= COMMAND_TARGET if sizes[-1] >= 100_000 else None
    if args.json:
        print(json.dumps({
            "settings": {"sizes": list(sizes), "repeat": args.repeat, "inputs": N_INPUTS,
                         "ratio_target": RATIO_TARGET, "command_target_s": COMMAND_TARGET},
            "machine": {"cpus": os.cpu_count(), "load_average_1min": os.getloadavg()[0]},
            "results": [{**asdict(r), "compile_ratio": c, "load_ratio": x}
                        for r, c, x in zip(results, ratios, load_ratios, strict=True)],
            "compile_flat": flat,
            "command": {"rules": sizes[-1], "cpu_s": command_s, "pass": command_met},
        }, indent=2))
        return
    print(f"CPU seconds, best of {args.repeat}, one core; ratios: per rule, to {base.rules:,} "
          "rules in this run")
    print(f"{'rules':>8}{'MB':>5}{'load s':>8}{'µs/rule':>9}{'ratio':>7}"
          f"{'compile s':>10}{'µs/rule':>9}{'ratio':>8}{'grade s':>8}")
    print("-" * 72)
    for r, c, x in zip(results, ratios, load_ratios, strict=True):
        print(f"{r.rules:>8,}{r.megabytes:>5.1f}{r.load_s:>8.2f}{r.per_rule_us(r.load_s):>9.1f}"
              f"{x:>7.2f}{r.compile_s:>10.3f}{r.per_rule_us(r.compile_s):>9.2f}{c:>8.2f}"
              f"{r.grade_s:>8.3f}")
    print(f"compile time per rule within {RATIO_TARGET:g}x of {base.rules:,} rules': "
          f"{'PASS' if flat else 'MISS'}")
    verdict = "" if command_met is None else ("  PASS" if command_met else "  MISS")
    print(f"fuzzeval evaluate, {sizes[-1]:,} rules: {command_s:.1f} CPU s "
          f"(target <= {COMMAND_TARGET:g} s at 100,000){verdict}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
