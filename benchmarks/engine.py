"""Engine speed: grades per second on a 15-input, 30-rule base, one core.

    python benchmarks/engine.py [--rows 200000] [--quick]

Measures, in the same run and on the same rule base: fuzzeval's Evaluator.grade (weighted
average and exact centroid), a plain numpy broadcast implementation (the baseline a careful
user would write: every term fuzzified by broadcasting, rules with np.minimum/np.maximum,
the centroid on a 1001-point grid with trapezoid weights), and scikit-fuzzy's
ControlSystemSimulation (a scalar loop, and array input). Prints grades/s and ratios.
Targets: >= 1,000,000 grades/s weighted average, >= 250,000 centroid.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

from fuzzeval import RuleBase, compile_rulebase, parse_rulebase  # noqa: E402
from fuzzeval.rulebase import And, Condition, Is, Not  # noqa: E402

TERMS = ("low", "mid", "high")
OUTS = ("very_weak", "weak", "even", "good", "very_good")


def make_rulebase(defuzzifier: str, seed: int = 0) -> RuleBase:
    """15 inputs x 3 terms, 5 overlapping output terms in [-1, 1], 30 rules of 1-3 conditions
    with and/or/not and a few weights -- through the real YAML loader."""
    rng = np.random.default_rng(seed)
    lines = ["name: bench", f"defuzzifier: {defuzzifier}", "default: 0", "inputs:"]
    lines += [f"  x{i}: {{range: [0, 10], terms: {{low: [0, 0, 5], mid: [0, 5, 10], "
              "high: [5, 10, 10]}}" for i in range(15)]
    lines.append("output: {name: y, range: [-1, 1], terms: {very_weak: [-1, -1, -0.5], "
                 "weak: [-1, -0.5, 0], even: [-0.5, 0, 0.5], good: [0, 0.5, 1], "
                 "very_good: [0.5, 1, 1]}}")
    lines.append("rules:")
    for r in range(30):
        k = int(rng.integers(1, 4))
        conds = [f"x{v} is {'not ' if rng.random() < 0.15 else ''}{TERMS[rng.integers(3)]}"
                 for v in rng.choice(15, k, replace=False)]
        text = f"if {(' and ' if rng.random() < 0.7 else ' or ').join(conds)} then y is " \
               f"{OUTS[r % 5]}"
        lines.append(f"  - {{rule: {text}, weight: 0.5}}" if r % 7 == 3 else f"  - {text}")
    rb, problems = parse_rulebase("\n".join(lines) + "\n")
    assert rb is not None, problems
    return rb


def numpy_baseline(rb: RuleBase) -> Callable[[np.ndarray], np.ndarray]:
    """A straightforward numpy implementation of the same rule base."""
    names = rb.input_names
    tri = {(v.name, t.name): t.triangle.points for v in rb.inputs for t in v.terms}
    grid = np.linspace(rb.output.lo, rb.output.hi, 1001)
    w = np.full(grid.size, grid[1] - grid[0])
    w[[0, -1]] /= 2
    out_mf = {t.name: np.interp(grid, t.triangle.points, [0.0, 1.0, 0.0]) for t in rb.output.terms}
    for t in rb.output.terms:  # shoulders
        a, b, c = t.triangle.points
        if a == b:
            out_mf[t.name][grid <= b] = 1.0
        if b == c:
            out_mf[t.name][grid >= b] = 1.0

    def mu(x: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
        left = np.where(b > a, (x - a) / max(b - a, 1e-300), (x >= b).astype(float))
        right = np.where(c > b, (c - x) / max(c - b, 1e-300), (x <= b).astype(float))
        return np.clip(np.minimum(left, right), 0, 1)

    def cond(c: Condition, m: dict[tuple[str, str], np.ndarray]) -> np.ndarray:
        if isinstance(c, Is):
            return m[(c.variable, c.term)]
        if isinstance(c, Not):
            return 1 - cond(c.operand, m)
        parts = [cond(p, m) for p in c.operands]
        return np.minimum.reduce(parts) if isinstance(c, And) else np.maximum.reduce(parts)

    def grade(x: np.ndarray) -> np.ndarray:
        xc = np.clip(x, 0, 10)
        m = {k: mu(xc[:, names.index(k[0])], *p) for k, p in tri.items()}
        s = np.stack([r.weight * cond(r.condition, m) for r in rb.rules])
        if rb.defuzzifier == "weighted_average":
            v = np.array([rb.output.term(r.output_term).triangle.peak for r in rb.rules])
            den = s.sum(0)
            return np.where(den > 0, (v @ s) / np.where(den > 0, den, 1), rb.default)
        agg = np.zeros((x.shape[0], grid.size))
        for t in rb.output.terms:
            idx = [i for i, r in enumerate(rb.rules) if r.output_term == t.name]
            if idx:
                a = s[idx].max(0)
                np.maximum(agg, np.minimum(a[:, None], out_mf[t.name]), out=agg)
        area = agg @ w
        return np.where(area > 0, (agg @ (w * grid)) / np.where(area > 0, area, 1), rb.default)

    return grade


def rate(fn: Callable[[np.ndarray], object], x: np.ndarray, repeat: int) -> float:
    best = min(_timed(fn, x) for _ in range(repeat))
    return x.shape[0] / best


def _timed(fn: Callable[[np.ndarray], object], x: np.ndarray) -> float:
    t0 = time.perf_counter()
    fn(x)
    return time.perf_counter() - t0


def skfuzzy_rates(rb: RuleBase, x: np.ndarray, n_scalar: int, n_array: int) -> tuple[float, float]:
    from skfuzzy import control as ctrl

    from fuzzeval.reference import build_control_system

    system = build_control_system(rb)
    names = [n for n in rb.input_names if n in system.used]
    cols = [rb.input_names.index(n) for n in names]
    sim = ctrl.ControlSystemSimulation(system.control, cache=False)
    t0 = time.perf_counter()
    for row in x[:n_scalar]:
        for n, c in zip(names, cols, strict=True):
            sim.input[n] = float(row[c])
        sim.compute()
    scalar = n_scalar / (time.perf_counter() - t0)
    sim = ctrl.ControlSystemSimulation(system.control, cache=False)
    t0 = time.perf_counter()
    for n, c in zip(names, cols, strict=True):
        sim.input[n] = x[:n_array, c].copy()
    sim.compute()
    array = n_array / (time.perf_counter() - t0)
    return scalar, array


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fewer rows, fewer skfuzzy runs")
    args = parser.parse_args()
    rows = 20_000 if args.quick else args.rows
    x = np.random.default_rng(1).uniform(-1, 11, (rows, 15))
    warnings.simplefilter("ignore")
    targets = {"weighted_average": 1_000_000, "centroid": 250_000}
    print(f"{'rule base / method':<44}{'grades/s':>14}{'vs numpy':>10}{'vs skf array':>14}"
          f"{'vs skf loop':>13}")
    for defuzz in ("weighted_average", "centroid"):
        rb = make_rulebase(defuzz)
        ev = compile_rulebase(rb)
        base = numpy_baseline(rb)
        assert np.allclose(ev.grade(x[:2000]), base(x[:2000]), atol=2e-3), "baselines disagree"
        ours = rate(ev.grade, x, args.repeat)
        plain = rate(base, x[: rows // 4], args.repeat)
        loop, array = skfuzzy_rates(rb, x, 50 if args.quick else 200,
                                    300 if args.quick else 2000)
        for label, value in (("fuzzeval Evaluator.grade", ours), ("plain numpy broadcast", plain),
                             ("scikit-fuzzy array input", array),
                             ("scikit-fuzzy scalar loop", loop)):
            print(f"{defuzz + ': ' + label:<44}{value:>14,.0f}{value / plain:>10.2f}"
                  f"{value / array:>14,.0f}{value / loop:>13,.0f}")
        verdict = "PASS" if ours >= targets[defuzz] else "MISS"
        print(f"  target >= {targets[defuzz]:,}/s on one core: {verdict}\n")


if __name__ == "__main__":
    main()
