"""Grading speed of Evaluator.grade against scikit-fuzzy and a plain-numpy version, one core.

    python benchmarks/engine.py [--rows 200000] [--repeat 5] [--quick] [--json]

The rule base is built in this file (seeded) as YAML text and read with parse_rulebase: 15
inputs with 3 triangular terms each (low and high are shoulders), 5 output terms in [-1, 1]
(very_weak .. very_good), 30 rules of 1-3 conditions using and/or/not, a few of them weighted.
It is compiled twice, with ``defuzzifier: weighted_average`` and ``defuzzifier: centroid``.

Every figure is grades per second, measured in this run with time.perf_counter, best of
--repeat, on uniform random inputs inside the ranges:

- ours: one Evaluator.grade call on --rows rows.
- numpy: a straightforward broadcasting version (memberships of all terms at once, rules
  with np.minimum/np.maximum, weighted average; centroid on a 1001-point output grid with
  trapezoid weights), so the ratio shows what the compiled engine adds over plain numpy.
- scikit-fuzzy 0.5.0, the same rule base as a ControlSystem (universes linspace(lo, hi, 1001)
  plus the term vertices): a ControlSystemSimulation scalar loop (set inputs, compute, read)
  and array mode (numpy arrays as inputs, one compute()). scikit-fuzzy only has the
  centroid, so both of our defuzzifiers are compared with its centroid.

Targets, per core: >= 1,000,000 grades/s with the weighted average and >= 250,000 with the
centroid, i.e. >= 2,000x and >= 500x scikit-fuzzy's array mode. Each is printed as PASS or
MISS. The peak extra memory (tracemalloc) of a 1,000,000-row grade call is shown for
information. Before timing, the results of all methods are checked against each other.
"""

from __future__ import annotations

import os

# Targets are per core: pin BLAS/OpenMP pools to one thread before numpy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from fuzzeval.engine.evaluator import Evaluator, compile_rulebase  # noqa: E402
from fuzzeval.engine.rulebase import And, Condition, Is, Not, RuleBase  # noqa: E402
from fuzzeval.formats.loading import parse_rulebase  # noqa: E402

FloatArray = npt.NDArray[np.float64]

TARGET_WA = 1_000_000.0  # grades/s, weighted average, one core
TARGET_CENTROID = 250_000.0  # grades/s, centroid, one core
TARGET_WA_X = 2_000.0  # x scikit-fuzzy array mode
TARGET_CENTROID_X = 500.0
GRID = 1001  # points of every universe / of the baseline's output grid

INPUT_NAMES = (
    "material", "mobility", "king_safety", "pawn_shape", "centre", "tempo", "threats",
    "initiative", "space", "development", "outposts", "open_files", "passers", "endgame",
    "hand_value",
)
TERMS = ("low", "mid", "high")
OUTPUT_TERMS = {  # overlapping triangles over [-1, 1]
    "very_weak": (-1.0, -1.0, -0.4),
    "weak": (-0.9, -0.45, 0.05),
    "average": (-0.5, 0.0, 0.5),
    "good": (-0.05, 0.45, 0.9),
    "very_good": (0.4, 1.0, 1.0),
}
RANGES = ((0.0, 1.0), (0.0, 10.0), (-5.0, 5.0), (0.0, 100.0), (-1.0, 1.0), (0.0, 40.0))


# --- the rule base ------------------------------------------------------------------------


def input_names(n_inputs: int) -> tuple[str, ...]:
    """INPUT_NAMES, then numbered rounds of them past 15 (material_2, mobility_2, ...)."""
    k = len(INPUT_NAMES)
    return tuple(INPUT_NAMES[i % k] + (f"_{i // k + 1}" if i >= k else "")
                 for i in range(n_inputs))


def rulebase_yaml(defuzzifier: str, seed: int = 7, n_rules: int = 30, n_inputs: int = 15) -> str:
    """A realistic rule base as YAML text (the same text for the same arguments).

    The default is the benchmark base: 15 inputs, 30 rules. Other sizes (benchmarks/peers.py)
    are built the same way: a third-ish of the rules after the first three have one, two or
    three conditions in the proportions 5:11:11, and one rule in six is weighted.
    """
    if n_inputs < 3 or n_rules < 3:
        raise ValueError(f"need >= 3 inputs and >= 3 rules (got {n_inputs}, {n_rules})")
    names_in = input_names(n_inputs)
    rng = random.Random(seed)
    lines = [
        f"name: bench_{defuzzifier}",
        f"description: Synthetic {n_inputs}-input position grader for benchmarks/engine.py.",
        f"defuzzifier: {defuzzifier}",
        "default: 0",
        "inputs:",
    ]
    for i, name in enumerate(names_in):
        lo, hi = RANGES[i % len(RANGES)]
        w = hi - lo
        mid = lo + w * rng.uniform(0.35, 0.65)
        over = w * rng.uniform(0.05, 0.15)  # low and high overlap around mid
        pts = {
            "low": (lo, lo, mid + over),
            "mid": (lo + w * rng.uniform(0.0, 0.15), mid, hi - w * rng.uniform(0.0, 0.15)),
            "high": (mid - over, hi, hi),
        }
        terms = ", ".join(f"{t}: [{p[0]:.4g}, {p[1]:.4g}, {p[2]:.4g}]" for t, p in pts.items())
        lines += [f"  {name}:", f"    range: [{lo:g}, {hi:g}]", f"    terms: {{{terms}}}"]
    out_terms = ", ".join(f"{t}: [{a:g}, {b:g}, {c:g}]" for t, (a, b, c) in OUTPUT_TERMS.items())
    lines += ["output:", "  name: grade", "  range: [-1, 1]", f"  terms: {{{out_terms}}}"]

    # Every row fires a rule (the first input's three terms cover its range), every term is
    # used: the other inputs' terms are dealt out first, then random ones.
    # (With many inputs and few rules, some terms and inputs go unused.)
    first = names_in[0]
    rules: list[tuple[str, str]] = [
        (f"{first} is low", "very_weak"), (f"{first} is mid", "average"),
        (f"{first} is high", "very_good"),
    ]
    pool = [(v, t) for v in names_in[1:] for t in TERMS]
    rng.shuffle(pool)
    rest = n_rules - 3
    ones, twos = round(rest * 5 / 27), round(rest * 11 / 27)  # 5, 11 (and 11) of 27
    sizes = [1] * ones + [2] * twos + [3] * (rest - ones - twos)
    rng.shuffle(sizes)
    names = list(OUTPUT_TERMS)
    for k in sizes:
        conds: list[tuple[str, str]] = []
        while len(conds) < k:
            used = {v for v, _ in conds}
            pick = next((p for p in pool if p[0] not in used), None)
            if pick is not None:
                pool.remove(pick)
            else:
                pick = (rng.choice([v for v in names_in if v not in used]), rng.choice(TERMS))
            conds.append(pick)
        text, polarity = _condition_text(conds, rng)
        level = polarity / k * 1.5 + rng.gauss(0.0, 0.6)
        term = names[min(4, max(0, round(level + 2)))]
        rules.append((text, term))
    weighted = set(rng.sample(range(len(rules)), round(n_rules / 6)))  # 5 of 30
    lines.append("rules:")
    for i, (text, term) in enumerate(rules):
        rule = f"if {text} then grade is {term}"
        if i in weighted:
            lines += [f"  - rule: {rule}", f"    weight: {rng.choice((0.5, 0.6, 0.75, 0.9))}"]
        else:
            lines.append(f"  - {rule}")
    return "\n".join(lines) + "\n"


def _condition_text(conds: list[tuple[str, str]], rng: random.Random) -> tuple[str, float]:
    """Join 1-3 conditions with and/or/not; returns the text and a rough polarity for the
    conclusion (high is good, low is bad, not flips it)."""
    sign = {"low": -1.0, "mid": 0.0, "high": 1.0}
    parts, pol = [], 0.0
    for v, t in conds:
        negate = rng.random() < 0.15
        if negate:
            parts.append(rng.choice((f"not {v} is {t}", f"{v} is not {t}")))
            pol -= sign[t]
        else:
            parts.append(f"{v} is {t}")
            pol += sign[t]
    if len(parts) == 1:
        return parts[0], pol
    if len(parts) == 2:
        return f" {rng.choice(('and', 'and', 'or'))} ".join(parts), pol
    a, b, c = parts
    form = rng.choice((f"{a} and {b} and {c}", f"({a} or {b}) and {c}", f"{a} and {b} or {c}"))
    return form, pol


def load(defuzzifier: str, seed: int, n_rules: int = 30, n_inputs: int = 15) -> RuleBase:
    """rulebase_yaml(...) read with parse_rulebase (the benchmark base by default).

    Warnings are accepted (a small base over many inputs leaves terms unused), errors not.
    """
    text = rulebase_yaml(defuzzifier, seed, n_rules, n_inputs)
    rb, problems = parse_rulebase(text, f"<bench {defuzzifier} {n_inputs}x{n_rules}>")
    if rb is None or any(p.severity == "error" for p in problems):
        raise SystemExit("benchmark rule base is broken:\n" + "\n".join(map(str, problems)))
    assert len(rb.inputs) == n_inputs and len(rb.rules) == n_rules
    return rb


def random_rows(rb: RuleBase, n: int, seed: int) -> FloatArray:
    rng = np.random.default_rng(seed)
    lo = np.array([v.lo for v in rb.inputs])
    hi = np.array([v.hi for v in rb.inputs])
    rows: FloatArray = lo + (hi - lo) * rng.random((n, len(rb.inputs)))
    return rows


# --- plain numpy ----------------------------------------------------------------------------


class NumpyBaseline:
    """What one would write with numpy directly: broadcast, then reduce."""

    def __init__(self, rb: RuleBase, chunk: int = 1024) -> None:
        self.rb = rb
        self.chunk = chunk
        keys = [(v.name, t.name) for v in rb.inputs for t in v.terms]
        self.index = {k: i for i, k in enumerate(keys)}
        self.col = np.array([i for i, v in enumerate(rb.inputs) for _ in v.terms])
        tri = np.array([t.triangle.points for v in rb.inputs for t in v.terms])
        self.a, self.b, self.c = (tri[:, i, None] for i in range(3))
        with np.errstate(divide="ignore"):
            self.inv_rise = np.where(self.b > self.a, 1.0 / (self.b - self.a), 0.0)
            self.inv_fall = np.where(self.c > self.b, 1.0 / (self.c - self.b), 0.0)
        out_names = [t.name for t in rb.output.terms]
        self.rule_term = np.array([out_names.index(r.output_term) for r in rb.rules])
        self.weights = np.array([r.weight for r in rb.rules])[:, None]
        self.values = np.array([rb.output.term(r.output_term).triangle.peak for r in rb.rules])
        self.y = np.linspace(rb.output.lo, rb.output.hi, GRID)
        self.mu_out = np.stack([_trimf(self.y, t.triangle.points) for t in rb.output.terms])
        w = np.full(GRID, self.y[1] - self.y[0])
        w[[0, -1]] /= 2  # trapezoid rule
        self.w, self.wy = w, w * self.y

    def strengths(self, xs: FloatArray) -> FloatArray:
        """(R, n) weighted rule strengths."""
        x = xs.T[self.col]  # (terms, n)
        rise = np.where(self.inv_rise > 0, (x - self.a) * self.inv_rise, 1.0)
        fall = np.where(self.inv_fall > 0, (self.c - x) * self.inv_fall, 1.0)
        mu = np.maximum(np.minimum(rise, fall), 0.0)
        s = np.stack([self._degree(r.condition, mu) for r in self.rb.rules])
        s *= self.weights
        return s

    def _degree(self, cond: Condition, mu: FloatArray) -> FloatArray:
        if isinstance(cond, Is):
            row: FloatArray = mu[self.index[(cond.variable, cond.term)]]
            return row
        if isinstance(cond, Not):
            return 1.0 - self._degree(cond.operand, mu)
        f = np.minimum if isinstance(cond, And) else np.maximum
        out = self._degree(cond.operands[0], mu)
        for c in cond.operands[1:]:
            out = f(out, self._degree(c, mu))
        return out

    def weighted_average(self, xs: FloatArray) -> FloatArray:
        s = self.strengths(xs)
        den = s.sum(axis=0)
        out = np.full(xs.shape[0], self.rb.default)
        np.divide(self.values @ s, den, out=out, where=den > 0)
        return out

    def centroid(self, xs: FloatArray) -> FloatArray:
        out = np.full(xs.shape[0], self.rb.default)
        for start in range(0, xs.shape[0], self.chunk):
            s = self.strengths(xs[start : start + self.chunk])
            act = np.zeros((len(self.mu_out), s.shape[1]))
            np.maximum.at(act, self.rule_term, s)  # (T, n) activations
            agg = np.minimum(act[:, :, None], self.mu_out[:, None, :]).max(axis=0)  # (n, G)
            area = agg @ self.w
            part = out[start : start + self.chunk]
            np.divide(agg @ self.wy, area, out=part, where=area > 0)
        return out


def _trimf(x: FloatArray, pts: tuple[float, float, float]) -> FloatArray:
    a, b, c = pts
    rise = (x - a) / (b - a) if b > a else np.where(x >= a, 1.0, 0.0)
    fall = (c - x) / (c - b) if c > b else np.where(x <= c, 1.0, 0.0)
    mu: FloatArray = np.clip(np.minimum(rise, fall), 0.0, 1.0)
    return mu


# --- scikit-fuzzy -----------------------------------------------------------------------------


@dataclass
class SkSystem:
    control: Any  # skfuzzy.control.ControlSystem
    input_names: tuple[str, ...]
    output_name: str


def skfuzzy_system(rb: RuleBase) -> SkSystem:
    """The rule base as a scikit-fuzzy ControlSystem: trimf terms, & | ~, ``% weight``."""
    import skfuzzy
    from skfuzzy import control as ctrl

    def universe(lo: float, hi: float, pts: list[tuple[float, float, float]]) -> FloatArray:
        grid: FloatArray = np.unique(np.concatenate([np.linspace(lo, hi, GRID), np.ravel(pts)]))
        return grid

    ante: dict[str, Any] = {}
    for v in rb.inputs:
        grid = universe(v.lo, v.hi, [t.triangle.points for t in v.terms])
        a = ctrl.Antecedent(grid, v.name)
        for t in v.terms:
            a[t.name] = skfuzzy.trimf(grid, list(t.triangle.points))
        ante[v.name] = a
    out = rb.output
    grid = universe(out.lo, out.hi, [t.triangle.points for t in out.terms])
    cons = ctrl.Consequent(grid, out.name, defuzzify_method="centroid")
    for t in out.terms:
        cons[t.name] = skfuzzy.trimf(grid, list(t.triangle.points))

    def term(cond: Condition) -> Any:
        if isinstance(cond, Is):
            return ante[cond.variable][cond.term]
        if isinstance(cond, Not):
            return ~term(cond.operand)
        expr = term(cond.operands[0])
        for c in cond.operands[1:]:
            expr = expr & term(c) if isinstance(cond, And) else expr | term(c)
        return expr

    rules = []
    for i, r in enumerate(rb.rules):
        then = cons[r.output_term] if r.weight == 1.0 else cons[r.output_term] % r.weight
        rules.append(ctrl.Rule(term(r.condition), then, label=f"r{i}"))
    return SkSystem(ctrl.ControlSystem(rules), rb.input_names, out.name)


def skfuzzy_scalar(system: SkSystem, xs: FloatArray, default: float) -> FloatArray:
    """A fresh ControlSystemSimulation with default settings (so no row is a cache hit), one
    compute() per row. The defaults are faster than cache=False, which resets after each run."""
    from skfuzzy import control as ctrl

    sim = ctrl.ControlSystemSimulation(system.control)
    out = np.empty(xs.shape[0])
    for i, row in enumerate(xs):
        for name, value in zip(system.input_names, row, strict=True):
            sim.input[name] = float(value)
        sim.compute()
        out[i] = sim.output.get(system.output_name, default)
    return out


def skfuzzy_array(system: SkSystem, xs: FloatArray) -> FloatArray:
    """numpy arrays as inputs, one compute() (every row fires a rule, by construction)."""
    from skfuzzy import control as ctrl

    sim = ctrl.ControlSystemSimulation(system.control)
    sim.inputs({name: np.ascontiguousarray(xs[:, j]) for j, name in enumerate(system.input_names)})
    sim.compute()
    out: FloatArray = np.asarray(sim.output[system.output_name], dtype=np.float64)
    return out


# --- measuring --------------------------------------------------------------------------------


@dataclass
class Row:
    method: str
    rows: int
    seconds: float  # best of the repeats, for all rows

    @property
    def rate(self) -> float:
        return self.rows / self.seconds


def best_of(fn: Callable[[FloatArray], Any], xs: FloatArray, repeat: int, warm: int = 64) -> float:
    """Shortest of ``repeat`` timed calls fn(xs), after one untimed call on ``warm`` rows."""
    if warm:
        fn(xs[:warm])
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(xs)
        best = min(best, time.perf_counter() - t0)
    return best


def peak_memory(ev: Evaluator, xs: FloatArray) -> int:
    """Peak bytes allocated during one grade(xs) call, beyond what existed before it."""
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        ev.grade(xs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000, help="rows graded by ours/numpy")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    parser.add_argument("--scalar-rows", type=int, default=300, help="scikit-fuzzy loop rows")
    parser.add_argument("--array-rows", type=int, default=3_000, help="scikit-fuzzy array rows")
    parser.add_argument("--memory-rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1, help="seed of the random inputs")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--show-rulebase", action="store_true", help="print its YAML and exit")
    args = parser.parse_args()
    if args.show_rulebase:
        print(rulebase_yaml("weighted_average", 7), end="")
        return
    if args.quick:
        args.rows, args.repeat = min(args.rows, 20_000), min(args.repeat, 2)
        args.scalar_rows, args.array_rows = min(args.scalar_rows, 40), min(args.array_rows, 300)
        args.memory_rows = min(args.memory_rows, 100_000)
    sk_repeat = min(args.repeat, 2)  # scikit-fuzzy runs take seconds each (warmed by the checks)

    rb_wa, rb_c = load("weighted_average", 7), load("centroid", 7)
    ev_wa, ev_c = compile_rulebase(rb_wa), compile_rulebase(rb_c)
    base_wa, base_c = NumpyBaseline(rb_wa), NumpyBaseline(rb_c)
    xs = random_rows(rb_wa, max(args.rows, args.array_rows, args.scalar_rows), args.seed)
    x_main, x_sc, x_arr = xs[: args.rows], xs[: args.scalar_rows], xs[: args.array_rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-fuzzy's own deprecation noise
        system = skfuzzy_system(rb_c)

        # Agreement first: a fast wrong answer is no answer.
        n_chk = min(len(xs), 2_000)
        if (base_wa.strengths(xs[:n_chk]).sum(axis=0) <= 0).any():
            raise SystemExit("some row fires no rule; scikit-fuzzy's array mode would fail")
        x_chk, x_few = xs[:n_chk], xs[:50]
        sk_few = skfuzzy_scalar(system, x_few, rb_c.default)
        checks = {
            "ours vs numpy, weighted average": np.abs(
                ev_wa.grade(x_chk) - base_wa.weighted_average(x_chk)).max(),
            "ours vs numpy 1001-point centroid": np.abs(
                ev_c.grade(x_chk) - base_c.centroid(x_chk)).max(),
            "ours vs scikit-fuzzy centroid": np.abs(ev_c.grade(x_few) - sk_few).max(),
            "scikit-fuzzy array vs scalar": np.abs(skfuzzy_array(system, x_few) - sk_few).max(),
        }
        for what, diff in checks.items():
            if not diff < 1e-3:
                raise SystemExit(f"{what}: results differ by {diff:.3g}")

        sk_scalar = Row(
            "scikit-fuzzy scalar loop (centroid)", len(x_sc),
            best_of(lambda a: skfuzzy_scalar(system, a, rb_c.default), x_sc, sk_repeat, 0),
        )
        sk_array = Row(
            "scikit-fuzzy array mode (centroid)", len(x_arr),
            best_of(lambda a: skfuzzy_array(system, a), x_arr, sk_repeat, 0),
        )
    n = len(x_main)
    results = [
        Row("ours, weighted average", n, best_of(ev_wa.grade, x_main, args.repeat)),
        Row("numpy, weighted average", n, best_of(base_wa.weighted_average, x_main, args.repeat)),
        Row("ours, centroid", n, best_of(ev_c.grade, x_main, args.repeat)),
        Row("numpy, 1001-point centroid", n, best_of(base_c.centroid, x_main, args.repeat)),
        sk_array,
        sk_scalar,
    ]
    x_mem = random_rows(rb_wa, args.memory_rows, args.seed + 1)
    memory = {"weighted_average": peak_memory(ev_wa, x_mem), "centroid": peak_memory(ev_c, x_mem)}
    del x_mem

    ours_wa, base_wa_row, ours_c, base_c_row = results[:4]
    targets = [
        ("weighted average >= 1,000,000 grades/s", ours_wa.rate >= TARGET_WA),
        ("centroid >= 250,000 grades/s", ours_c.rate >= TARGET_CENTROID),
        ("weighted average >= 2,000x scikit-fuzzy array",
         ours_wa.rate / sk_array.rate >= TARGET_WA_X),
        ("centroid >= 500x scikit-fuzzy array", ours_c.rate / sk_array.rate >= TARGET_CENTROID_X),
    ]
    if args.json:
        print(json.dumps({
            "settings": {k: v for k, v in vars(args).items() if k not in ("json", "show_rulebase")},
            "results": [
                {**asdict(r), "grades_per_s": r.rate, "x_skfuzzy_array": r.rate / sk_array.rate,
                 "x_skfuzzy_scalar": r.rate / sk_scalar.rate} for r in results
            ],
            "x_numpy": {"weighted_average": ours_wa.rate / base_wa_row.rate,
                        "centroid": ours_c.rate / base_c_row.rate},
            "checks_max_abs_diff": {k: float(v) for k, v in checks.items()},
            "peak_memory_bytes_1M_rows": memory,
            "memory_rows": args.memory_rows,
            "targets": {name: ok for name, ok in targets},
        }, indent=2))
        return

    print(f"15 inputs x 3 terms, 30 rules (5 weighted), 5 output terms; one core; "
          f"best of {args.repeat} (scikit-fuzzy: best of {sk_repeat})")
    head = (f"{'method':<38}{'rows':>9}{'seconds':>10}{'grades/s':>13}"
            f"{'x skf array':>13}{'x skf loop':>12}")
    print(head)
    print("-" * len(head))
    for r in results:
        print(f"{r.method:<38}{r.rows:>9,}{r.seconds:>10.4f}{r.rate:>13,.0f}"
              f"{r.rate / sk_array.rate:>13,.1f}{r.rate / sk_scalar.rate:>12,.1f}")
    print("-" * len(head))
    print(f"ours vs plain numpy: weighted average {ours_wa.rate / base_wa_row.rate:.1f}x, "
          f"centroid {ours_c.rate / base_c_row.rate:.1f}x")
    print("agreement, max |difference| (checked before timing, limit 1e-3):")
    for what, diff in checks.items():
        print(f"  {what:<40}{diff:.1e}")
    mib = {k: v / 2**20 for k, v in memory.items()}
    print(f"peak extra memory of one {args.memory_rows:,}-row grade call (tracemalloc): "
          f"weighted average {mib['weighted_average']:.1f} MiB, centroid {mib['centroid']:.1f} MiB"
          f" (the input is {args.memory_rows * 15 * 8 / 2**20:.0f} MiB, the output "
          f"{args.memory_rows * 8 / 2**20:.1f} MiB)")
    for name, ok in targets:
        print(f"target {name:<48} {'PASS' if ok else 'MISS'}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
