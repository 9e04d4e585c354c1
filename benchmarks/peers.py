"""fuzzeval beside the other Python fuzzy-logic engines, same rule bases, same run, one core.

    python benchmarks/peers.py [--repeat 5] [--budget 30] [--quick] [--plot PATH]
                               [--json | --markdown] [--from JSON]

Peers, each used when it can be imported and reported as skipped when not: pyfuzzylite 8
(``import fuzzylite``; numpy-vectorised), simpful (one row at a time) and scikit-fuzzy (a
ControlSystemSimulation, numpy arrays as inputs). pyfuzzylite declares numpy < 2 and runs on
numpy 2 when installed with --no-deps: docs/benchmarks.md installs the peers in a separate
environment, never in the project's own dependencies (scikit-fuzzy is one of them already).

Rule bases: benchmarks/engine.py's builder (seed 7). The benchmark base (15 inputs, 30 rules)
and bases that scale the rules (10, 30, 100, 300, 1,000 at 15 inputs) and the inputs (5, 15,
30, 45 at 30 rules); the benchmark base is the point both scales share.

Every peer gets the same rule base: the same triangles, and/or/not as min/max/1 - x, a rule
weight multiplying its firing strength, inputs clipped to their ranges. Defuzzifiers:

- weighted average, fuzzeval's sum_r s_r v_r / sum_r s_r (s_r: the rule's firing strength
  times its weight, v_r: the peak of its output term). pyfuzzylite: WeightedAverage over
  Constant output terms at the peaks and no aggregation operator (it then adds up each
  term's rule strengths: the same sums). simpful's Sugeno inference divides by
  sum_r s_r / w_r (a weight scales only the numerator), so it is a different defuzzifier on
  weighted rules: it is timed (the work is the same), checked against that formula on
  fuzzeval's strengths, and marked with an asterisk. scikit-fuzzy has no weighted average.
- centroid. fuzzeval's is exact; the peers integrate on a grid of their default size:
  pyfuzzylite's Centroid (midpoint rule, 1,000 points), simpful's Mamdani inference (1,000
  points) and scikit-fuzzy (universes of 1,001 points plus the term vertices).

Agreement before timing: the untimed warm-up calls of every engine at every base and batch
size are compared with fuzzeval on the same inputs. A weighted average must agree within 1e-9,
a centroid within one step of the peer's grid (two for simpful's, whose sum gives both ends of
the grid full weight); otherwise the run stops.

Timing: grade calls of 1, 20 and 100,000 rows (--quick: 10,000); at 1 and 20 rows each call
grades other rows than the last (a cycle of 64 batches). A measurement is the mean of enough
calls to last --min-time seconds; the result is the best of --repeat measurements, taken in
rounds across the engines (interleaved, the order rotating each round), pinned to one core.
An engine whose measurement would take more than --budget seconds, or whose 100,000-row call
would need more than --max-memory, is not run at that size and shown as such: nothing is
extrapolated. Nor is a peer built whose translation would take more than --budget seconds
to build (scikit-fuzzy's ControlSystem grows faster than the square of the rules).
"""

from __future__ import annotations

import os

# Per core: pin BLAS/OpenMP pools to one thread before numpy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import contextlib  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402
import importlib.metadata  # noqa: E402
import importlib.util  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from fuzzeval.engine.evaluator import compile_rulebase  # noqa: E402
from fuzzeval.engine.rulebase import And, Condition, Is, Not, Or, RuleBase  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine as bench  # noqa: E402  benchmarks/engine.py: the rule-base builder

FloatArray = npt.NDArray[np.float64]
Grader = Callable[[FloatArray], FloatArray]

SEED = 7  # of the rule bases (benchmarks/engine.py's)
BATCHES = (1, 20, 100_000)
RULES = (10, 30, 100, 300, 1_000)  # at 15 inputs
INPUTS = (5, 15, 30, 45)  # at 30 rules
BASE = (15, 30)  # the benchmark base: inputs, rules
QUICK_RULES, QUICK_INPUTS, QUICK_BIG = (10, 30, 100), (5, 15, 30), 10_000
WA_LIMIT = 1e-9  # weighted average: the same sums, in another order
PROBE = 1_000  # rows of an untimed call that decides whether the big batch is run
#: (distribution, import name) of each peer, in table order
PEERS = (("pyfuzzylite", "fuzzylite"), ("simpful", "simpful"), ("scikit-fuzzy", "skfuzzy"))
WA, CENTROID = "weighted average", "centroid"


# --- rule bases -----------------------------------------------------------------------------


def base_sizes(quick: bool = False) -> list[tuple[int, int]]:
    """(inputs, rules) of every rule base measured: the rules scale, then the inputs scale."""
    rules, inputs = (QUICK_RULES, QUICK_INPUTS) if quick else (RULES, INPUTS)
    sizes = [(BASE[0], r) for r in rules] + [(i, BASE[1]) for i in inputs]
    return list(dict.fromkeys(sizes))


def rulebases(n_inputs: int, n_rules: int) -> tuple[RuleBase, RuleBase]:
    """The generated base of this size, as a weighted-average and as a centroid rule base."""
    return (bench.load("weighted_average", SEED, n_rules, n_inputs),
            bench.load("centroid", SEED, n_rules, n_inputs))


def negation_inward(cond: Condition, negate: bool = False) -> Condition:
    """The condition with every not on a single ``variable is term`` (De Morgan).

    Exact with min/max/1 - x: 1 - min(a, b) = max(1 - a, 1 - b), even rounded. Needed by
    pyfuzzylite, whose rules negate only a proposition (``x is not t``).
    """
    if isinstance(cond, Is):
        return Not(cond) if negate else cond
    if isinstance(cond, Not):
        return negation_inward(cond.operand, not negate)
    parts = tuple(negation_inward(c, negate) for c in cond.operands)
    flip = negate
    if isinstance(cond, And):
        return Or(parts) if flip else And(parts)
    return And(parts) if flip else Or(parts)


def _check_outputs(rb: RuleBase) -> None:
    singletons = [t.name for t in rb.output.terms if t.triangle.is_singleton]
    if singletons:
        raise ValueError(f"output singletons {singletons} are not translated to the peers")


# --- pyfuzzylite --------------------------------------------------------------------------


def fuzzylite_text(cond: Condition) -> str:
    """A condition (negations inward) in the FuzzyLite Language, fully parenthesised."""
    if isinstance(cond, Is):
        return f"{cond.variable} is {cond.term}"
    if isinstance(cond, Not):
        assert isinstance(cond.operand, Is), "negation_inward first"
        return f"{cond.operand.variable} is not {cond.operand.term}"
    word = " and " if isinstance(cond, And) else " or "
    return "(" + word.join(fuzzylite_text(c) for c in cond.operands) + ")"


def fuzzylite_engine(rb: RuleBase, resolution: int | None = None) -> Any:
    """The rule base as a pyfuzzylite Engine (fuzzylite.Engine)."""
    import fuzzylite as fl

    _check_outputs(rb)
    inputs = [
        fl.InputVariable(name=v.name, minimum=v.lo, maximum=v.hi, lock_range=True,
                         terms=[fl.Triangle(t.name, *t.triangle.points) for t in v.terms])
        for v in rb.inputs
    ]
    out = rb.output
    if rb.defuzzifier == "weighted_average":
        # No aggregation: WeightedAverage adds up the strengths of each term's rules.
        terms: list[Any] = [fl.Constant(t.name, t.triangle.peak) for t in out.terms]
        defuzzifier: Any = fl.WeightedAverage()
        aggregation, implication = None, None
    else:
        terms = [fl.Triangle(t.name, *t.triangle.points) for t in out.terms]
        defuzzifier = fl.Centroid(resolution)
        aggregation, implication = fl.Maximum(), fl.Minimum()
    output = fl.OutputVariable(
        name=out.name, minimum=out.lo, maximum=out.hi, lock_range=False, lock_previous=False,
        default_value=rb.default, aggregation=aggregation, defuzzifier=defuzzifier, terms=terms,
    )
    rules = []
    for r in rb.rules:
        text = f"if {fuzzylite_text(negation_inward(r.condition))} then {out.name} is "
        text += r.output_term + ("" if r.weight == 1.0 else f" with {r.weight!r}")
        rules.append(fl.Rule.create(text))
    block = fl.RuleBlock(name="rules", conjunction=fl.Minimum(), disjunction=fl.Maximum(),
                         implication=implication, activation=fl.General(), rules=rules)
    return fl.Engine(name=rb.name, input_variables=inputs, output_variables=[output],
                     rule_blocks=[block])


def fuzzylite_grader(rb: RuleBase) -> Grader:
    engine = fuzzylite_engine(rb)
    variables = engine.input_variables
    output = engine.output_variables[0]

    def grade(xs: FloatArray) -> FloatArray:
        for var, column in zip(variables, xs.T, strict=True):
            var.value = column
        engine.process()
        out: FloatArray = np.atleast_1d(np.asarray(output.value, dtype=np.float64))
        return out

    return grade


# --- simpful ------------------------------------------------------------------------------


def simpful_text(cond: Condition) -> str:
    """A condition in simpful's syntax: every clause and operation in parentheses, binary."""
    if isinstance(cond, Is):
        return f"({cond.variable} IS {cond.term})"
    if isinstance(cond, Not):
        # Twice wrapped: simpful reads any text starting "(NOT" as one negation, so a
        # first operand "(NOT a) OR b" would lose its second half.
        return f"((NOT {simpful_text(cond.operand)}))"
    word = " AND " if isinstance(cond, And) else " OR "
    text = simpful_text(cond.operands[0])
    for c in cond.operands[1:]:
        text = f"({text}{word}{simpful_text(c)})"
    return text


def simpful_system(rb: RuleBase) -> Any:
    """The rule base as a simpful FuzzySystem: crisp outputs at the peaks (Sugeno) for a
    weighted-average rule base, output triangles (Mamdani) for a centroid one."""
    with contextlib.redirect_stdout(io.StringIO()):  # " * Detected Sugeno model type"
        return _simpful_system(rb)


def _simpful_system(rb: RuleBase) -> Any:
    import simpful as sf

    _check_outputs(rb)
    fs = sf.FuzzySystem(show_banner=False, verbose=False)
    for v in rb.inputs:
        sets = [sf.TriangleFuzzySet(*t.triangle.points, term=t.name) for t in v.terms]
        fs.add_linguistic_variable(v.name, sf.LinguisticVariable(
            sets, universe_of_discourse=[v.lo, v.hi]), verbose=False)
    out = rb.output
    if rb.defuzzifier == "weighted_average":
        for t in out.terms:
            fs.set_crisp_output_value(t.name, t.triangle.peak, verbose=False)
    else:
        sets = [sf.TriangleFuzzySet(*t.triangle.points, term=t.name) for t in out.terms]
        fs.add_linguistic_variable(out.name, sf.LinguisticVariable(
            sets, universe_of_discourse=[out.lo, out.hi]), verbose=False)
    rules = [
        f"IF {simpful_text(r.condition)} THEN ({out.name} IS {r.output_term})"
        + ("" if r.weight == 1.0 else f" WEIGHT {r.weight!r}")
        for r in rb.rules
    ]
    fs.add_rules(rules, verbose=False)
    return fs


def simpful_grader(rb: RuleBase) -> Grader:
    fs = simpful_system(rb)
    names, lo, hi = rb.input_names, [v.lo for v in rb.inputs], [v.hi for v in rb.inputs]
    out_name = rb.output.name
    infer = (fs.Sugeno_inference if rb.defuzzifier == "weighted_average"
             else fs.Mamdani_inference)

    def grade(xs: FloatArray) -> FloatArray:
        out = np.empty(xs.shape[0])
        for i, row in enumerate(np.clip(xs, lo, hi)):  # simpful does not clip
            for name, value in zip(names, row, strict=True):
                fs.set_variable(name, float(value), verbose=False)
            out[i] = float(infer(ignore_warnings=True)[out_name])
        return out

    return grade


def simpful_sugeno(rb: RuleBase) -> Grader:
    """What simpful's Sugeno inference computes, from fuzzeval's strengths:
    sum_r s_r w_r v_r / sum_r s_r with s_r the unweighted firing strength."""
    ev = compile_rulebase(rb)
    w = np.array([r.weight for r in rb.rules])
    v = np.array([rb.output.term(r.output_term).triangle.peak for r in rb.rules])

    def grade(xs: FloatArray) -> FloatArray:
        s = ev.strengths(xs)  # (n, rules), weights applied
        den = (s / w).sum(axis=1)
        out = np.zeros(xs.shape[0])  # simpful's value when nothing fires
        np.divide(s @ v, den, out=out, where=den > 0)
        return out

    return grade


# --- scikit-fuzzy -------------------------------------------------------------------------


def skfuzzy_grader(rb: RuleBase) -> Grader:
    """fuzzeval.interop.reference's ControlSystem (universes of rb.resolution points plus the term
    vertices), one simulation for every call: scalars for one row, numpy arrays for more."""
    from skfuzzy import control as ctrl

    from fuzzeval.interop.reference import build_control_system

    _check_outputs(rb)
    system = build_control_system(rb)
    used = [(j, name) for j, name in enumerate(rb.input_names) if name in system.used]
    # cache=False: a row seen in an earlier call is computed again, not looked up.
    sim = ctrl.ControlSystemSimulation(system.control, clip_to_bounds=True, cache=False)
    out_name = rb.output.name

    def grade(xs: FloatArray) -> FloatArray:
        if xs.shape[0] == 1:
            sim.inputs({name: float(xs[0, j]) for j, name in used})
        else:
            sim.inputs({name: np.ascontiguousarray(xs[:, j]) for j, name in used})
        sim.compute()
        out: FloatArray = np.atleast_1d(np.asarray(sim.output[out_name], dtype=np.float64))
        return out

    return grade


# --- the contenders -----------------------------------------------------------------------


@dataclass
class Contender:
    library: str
    defuzzifier: str  # WA or CENTROID
    grade: Grader
    expected: Grader  # what it must agree with
    limit: float  # largest |difference| accepted
    note: str = ""  # the asterisk's meaning, if any

    @property
    def label(self) -> str:
        return f"{self.library} {'wavg' if self.defuzzifier == WA else 'centroid'}{self.mark}"

    @property
    def mark(self) -> str:
        return "*" if self.note else ""


def peer_versions() -> dict[str, str | None]:
    """Installed version of each peer, None when it cannot be imported here."""
    found: dict[str, str | None] = {}
    for dist, module in PEERS:
        if importlib.util.find_spec(module) is None:
            found[dist] = None
            continue
        try:
            found[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            found[dist] = "?"
    return found


def ours(rb_wa: RuleBase, rb_c: RuleBase) -> list[Contender]:
    ev_wa, ev_c = compile_rulebase(rb_wa), compile_rulebase(rb_c)
    return [Contender("fuzzeval", WA, ev_wa.grade, ev_wa.grade, 0.0),
            Contender("fuzzeval", CENTROID, ev_c.grade, ev_c.grade, 0.0)]


#: the contenders of each peer, in table order (peer_contenders builds them)
LABELS = {"pyfuzzylite": ("pyfuzzylite wavg", "pyfuzzylite centroid"),
          "simpful": ("simpful wavg*", "simpful centroid"),
          "scikit-fuzzy": ("scikit-fuzzy centroid",)}


def peer_contenders(peer: str, rb_wa: RuleBase, rb_c: RuleBase) -> list[Contender]:
    """A peer's translation of the rule base with each defuzzifier it offers."""
    ev_wa, ev_c = compile_rulebase(rb_wa), compile_rulebase(rb_c)
    width = rb_c.output.hi - rb_c.output.lo
    if peer == "pyfuzzylite":
        return [Contender(peer, WA, fuzzylite_grader(rb_wa), ev_wa.grade, WA_LIMIT),
                Contender(peer, CENTROID, fuzzylite_grader(rb_c), ev_c.grade, width / 1000)]
    if peer == "simpful":
        return [Contender(peer, WA, simpful_grader(rb_wa), simpful_sugeno(rb_wa), WA_LIMIT,
                          "simpful's Sugeno: a rule weight scales only the numerator"),
                # Two steps: its sum gives both ends of the grid full weight.
                Contender(peer, CENTROID, simpful_grader(rb_c), ev_c.grade, 2 * width / 999)]
    if peer == "scikit-fuzzy":
        return [Contender(peer, CENTROID, skfuzzy_grader(rb_c), ev_c.grade,
                          width / (rb_c.resolution - 1))]
    raise ValueError(f"no peer {peer!r}")


def contenders(rb_wa: RuleBase, rb_c: RuleBase, peers: Sequence[str]) -> list[Contender]:
    """fuzzeval with both defuzzifiers, then every peer named with what it offers."""
    return ours(rb_wa, rb_c) + [c for p in peers for c in peer_contenders(p, rb_wa, rb_c)]


def predicted_build(done: list[tuple[int, int, float]], n_inputs: int, n_rules: int) -> float:
    """Seconds a peer may take to build this size, from its earlier builds (inputs, rules,
    seconds): quadratic in the rules (scikit-fuzzy's ControlSystem is worse than that), linear
    in the inputs. Only decides what to skip."""
    return min((t * max(1.0, n_rules / r) ** 2 * max(1.0, n_inputs / i) for i, r, t in done),
               default=0.0)


# --- measuring ----------------------------------------------------------------------------


@dataclass
class Cell:
    """One engine on one rule base at one batch size."""

    seconds: float | None = None  # best mean seconds per call; None: not run
    calls: int = 0  # calls per measurement
    why_not: str = ""
    max_diff: float = 0.0  # largest |difference| from what it must agree with
    samples: list[float] = field(default_factory=list)

    @property
    def us_per_call(self) -> float | None:
        return None if self.seconds is None else self.seconds * 1e6


def batches_of(xs: FloatArray, batch: int, variants: int) -> list[FloatArray]:
    """Up to ``variants`` disjoint batches of ``batch`` rows (at least one)."""
    k = max(1, min(variants, xs.shape[0] // batch))
    return [xs[i * batch:(i + 1) * batch] for i in range(k)]


def checked_call(c: Contender, x: FloatArray, cell: Cell) -> float:
    """One untimed-for-the-result call: its time, after checking its answer."""
    t0 = time.perf_counter()
    got = c.grade(x)
    seconds = time.perf_counter() - t0
    want = c.expected(x)
    diff = float(np.max(np.abs(got - want))) if got.shape == want.shape else math.inf
    cell.max_diff = max(cell.max_diff, diff)
    if not diff <= c.limit:
        raise SystemExit(f"{c.label} disagrees with {'its formula' if c.note else 'fuzzeval'}"
                         f" on {x.shape[0]} rows by {diff:.3g} (limit {c.limit:.3g})")
    return seconds


def peak_bytes(fn: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@dataclass
class Settings:
    repeat: int = 5
    budget: float = 30.0  # seconds one measurement may take, all repeats
    min_time: float = 0.05  # seconds one sample lasts at least
    max_memory: float = 4.0  # GiB a big-batch call may take
    big: int = 100_000
    variants: int = 64  # distinct batches cycled through at small sizes


def measure_base(cs: list[Contender], xs: FloatArray, s: Settings,
                 log: Callable[[str], None]) -> dict[str, dict[int, Cell]]:
    """Every contender at every batch size on one rule base (xs: enough random rows)."""
    cells: dict[str, dict[int, Cell]] = {c.label: {} for c in cs}
    for batch in (1, 20, s.big):
        running: list[tuple[Contender, list[FloatArray]]] = []
        for c in cs:
            cell = cells[c.label].setdefault(batch, Cell())
            xb = batches_of(xs, batch, s.variants)
            why = _too_slow(c, cells[c.label], cell, batch, xs, s)
            if why:
                cell.why_not = why
                continue
            checked_call(c, xb[0], cell)  # warm-up (and numba's compiling)
            once = checked_call(c, xb[-1], cell)
            cell.calls = max(1, min(10_000, math.ceil(s.min_time / max(once, 1e-9))))
            if (s.repeat * cell.calls + 2) * once > s.budget:
                cell.why_not = "over the budget"
                continue
            running.append((c, xb))
        for r in range(s.repeat):
            k = r % len(running) if running else 0
            for c, xb in running[k:] + running[:k]:
                cell = cells[c.label][batch]
                gc.collect()
                gc.disable()  # as timeit does
                try:
                    t0 = time.perf_counter()
                    for i in range(cell.calls):
                        c.grade(xb[i % len(xb)])
                    cell.samples.append((time.perf_counter() - t0) / cell.calls)
                finally:
                    gc.enable()
        for c, _ in running:
            cell = cells[c.label][batch]
            cell.seconds = min(cell.samples)
        log(f"  batch {batch:>7,}: " + ", ".join(
            f"{c.label} {cells[c.label][batch].seconds * 1e6:,.0f} µs" for c, _ in running))
    return cells


def _too_slow(c: Contender, done: dict[int, Cell], cell: Cell, batch: int, xs: FloatArray,
              s: Settings) -> str:
    """Why not to run this size ('' to run it). Estimates decide; none is reported."""
    measured = sorted((b, d.seconds) for b, d in done.items() if d.seconds is not None)
    if batch == 1:
        return ""
    if not measured:
        return "not run at a smaller size"
    b0, t0 = measured[-1]
    per_row = t0 / b0
    if batch <= 20:
        return "" if (s.repeat + 2) * per_row * batch <= s.budget else "over the budget"
    # The big batch: two untimed calls on PROBE rows first, if even they are affordable;
    # the cost then grows as a straight line through the last size and the probe.
    probe = min(PROBE, batch)
    if 2 * per_row * probe > s.budget:
        return "over the budget"
    x = xs[:probe]
    seconds = checked_call(c, x, cell)  # checked like every untimed call
    slope = (seconds - t0) / (probe - b0) if probe > b0 else 0.0
    predicted = seconds + slope * (batch - probe) if slope > 0 else seconds * batch / probe
    if (s.repeat + 2) * predicted > s.budget:
        return "over the budget"
    need = peak_bytes(lambda: c.grade(x)) * batch / probe
    if need > s.max_memory * 2**30:
        return "over --max-memory"
    return ""


# --- reporting ----------------------------------------------------------------------------


def fmt_time(us: float | None) -> str:
    if us is None:
        return "not run"
    if us >= 1e6:
        return f"{us / 1e6:,.2f} s"
    if us >= 1e4:
        return f"{us / 1e3:,.0f} ms"
    if us >= 1e3:
        return f"{us / 1e3:,.1f} ms"
    return f"{us:,.1f} µs" if us < 100 else f"{us:,.0f} µs"


def fmt_rate(rate: float | None) -> str:
    if rate is None:
        return ""
    if rate >= 1e6:
        return f"{rate / 1e6:,.2f} M"
    if rate >= 1e4:
        return f"{rate / 1e3:,.0f} k"
    if rate >= 100:
        return f"{rate:,.0f}"
    return f"{rate:,.2g}" if rate < 10 else f"{rate:,.0f}"


def fmt_ratio(x: float) -> str:
    return f"{x:,.1f}x" if x < 10 else f"{x:,.0f}x"


def fmt_axis_us(us: float, _pos: object = None) -> str:
    """A tick of a µs axis in the unit that reads best: 10 µs, 1 ms, 100 ms, 10 s."""
    for unit, scale in (("s", 1e6), ("ms", 1e3)):
        if us >= scale:
            return f"{us / scale:g} {unit}"
    return f"{us:g} µs"


def rows_text(n: int) -> str:
    return "1 row" if n == 1 else f"{n:,} rows"


def size_key(n_inputs: int, n_rules: int) -> str:
    return f"{n_inputs}x{n_rules}"


def us_of(results: dict[str, Any], key: str, label: str, batch: int) -> float | None:
    """Microseconds per call of one engine on one base at one batch size (None: not run)."""
    cell = results["bases"][key]["cells"].get(label, {}).get(str(batch), {})
    us: float | None = cell.get("us_per_call")
    return us


def markdown(results: dict[str, Any], out: Callable[[str], None] = print) -> None:
    """The same tables in Markdown, for docs/benchmarks.md."""
    meta, bases = results["settings"], results["bases"]
    batches = (1, 20, meta["big"])
    key = size_key(*BASE)
    cells = bases[key]["cells"]
    out(f"Benchmark base ({BASE[0]} inputs, {BASE[1]} rules); × fuzzeval: how many times as "
        "long as fuzzeval with the same defuzzifier.")
    out("")
    out("| engine | batch | per call | grades/s | × fuzzeval |")
    out("|---|---:|---:|---:|---:|")
    for batch in batches:
        for label in cells:
            us = us_of(results, key, label, batch)
            ours = us_of(results, key, f"fuzzeval {label.split()[1].rstrip('*')}", batch)
            rate = "" if us is None else fmt_rate(batch / us * 1e6)
            ratio = ("" if us is None or ours is None or label.startswith("fuzzeval")
                     else fmt_ratio(us / ours).replace("x", "×"))
            name = label.replace("*", "\\*")
            out(f"| {name} | {batch:,} | {fmt_time(us)} | {rate} | {ratio} |")
    for title, sizes, names in (
            ("rules, at 15 inputs", [(BASE[0], r) for r in meta["rules"]], meta["rules"]),
            ("inputs, at 30 rules", [(i, BASE[1]) for i in meta["inputs"]], meta["inputs"])):
        for batch in batches:
            out("")
            out(f"Time per grade call of {rows_text(batch)}, by {title}:")
            out("")
            out("| engine | " + " | ".join(f"{n:,}" for n in names) + " |")
            out("|---|" + "---:|" * len(names))
            for label in cells:
                row = " | ".join(fmt_time(us_of(results, size_key(*sz), label, batch))
                                 for sz in sizes)
                out(f"| {label.replace('*', chr(92) + '*')} | {row} |")


def report(results: dict[str, Any], out: Callable[[str], None] = print) -> None:
    """Tables of at most 80 columns."""
    meta, bases = results["settings"], results["bases"]
    big = meta["big"]
    batches = (1, 20, big)
    out(f"one core; best of {meta['repeat']}; budget {meta['budget']:g} s a measurement; "
        f"numpy {meta['numpy']}, Python {meta['python']}")
    for dist, version in results["peers"].items():
        out(f"  {dist:<13} {version if version else 'not installed here: skipped'}")
    key = size_key(*BASE)
    cells = bases[key]["cells"]
    out("")
    out(f"benchmark base ({BASE[0]} inputs, {BASE[1]} rules): time per grade call, grades/s,"
        " and")
    out("how many times as long as fuzzeval with the same defuzzifier")
    head = f"{'engine':<24}{'batch':>8}{'per call':>12}{'grades/s':>12}{'x fuzzeval':>12}"
    out(head)
    out("-" * len(head))
    for batch in batches:
        for label, per in cells.items():
            cell = per[str(batch)]
            ours = cells[f"fuzzeval {'wavg' if ' wavg' in label else 'centroid'}"][str(batch)]
            us = cell["us_per_call"]
            rate = None if us is None else batch / us * 1e6
            ratio = "" if us is None or ours["us_per_call"] is None or label.startswith(
                "fuzzeval") else fmt_ratio(us / ours["us_per_call"])
            shown = fmt_time(us)
            out(f"{label:<24}{batch:>8,}{shown:>12}{fmt_rate(rate):>12}{ratio:>12}")
        out("")
    for title, sizes, names in (
            ("rules (15 inputs)", [(BASE[0], r) for r in meta["rules"]], meta["rules"]),
            ("inputs (30 rules)", [(i, BASE[1]) for i in meta["inputs"]], meta["inputs"])):
        cols = [size_key(*sz) for sz in sizes]
        for batch in batches:
            out(f"time per grade call of {rows_text(batch)} by {title}")
            head = f"{'engine':<24}" + "".join(f"{n:>11,}" for n in names)
            out(head)
            out("-" * len(head))
            for label in cells:
                row = "".join(f"{fmt_time(us_of(results, k, label, batch)):>11}" for k in cols)
                out(f"{label:<24}{row}")
            out("")
    out("agreement on the same inputs (all untimed calls), max |difference| from fuzzeval")
    out("(from its own formula on fuzzeval's strengths where marked *):")
    for label in cells:
        if label.startswith("fuzzeval"):
            continue
        diffs = [b["cells"][label][str(n)]["max_diff"] for b in bases.values()
                 for n in batches if label in b["cells"]]
        out(f"  {label:<24}{max(diffs):.1e}   (limit {results['limits'][label]:.1e})")
    for label, note in results["notes"].items():
        out(f"* {label}: {note}")
    out(f"not run: the measurement would take more than the budget ({meta['budget']:g} s), or a"
        f" call more")
    out(f"than {meta['max_memory_gib']:g} GiB of memory; nothing is extrapolated")


def plot(results: dict[str, Any], path: Path) -> None:
    """Time per grade call against rules (left) and inputs (right), a row per batch size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    meta, bases = results["settings"], results["bases"]
    batches = (1, 20, meta["big"])
    labels = list(bases[size_key(*BASE)]["cells"])
    colors = {"fuzzeval": "C0", "pyfuzzylite": "C1", "simpful": "C2", "scikit-fuzzy": "C3"}
    fig, axes = plt.subplots(len(batches), 2, figsize=(10, 11.5), sharex="col", sharey="row",
                             constrained_layout=True)
    scales = (("rules, at 15 inputs", [(BASE[0], r) for r in meta["rules"]], meta["rules"]),
              ("inputs, at 30 rules", [(i, BASE[1]) for i in meta["inputs"]], meta["inputs"]))
    for row, batch in enumerate(batches):
        for col, (what, sizes, xs) in enumerate(scales):
            ax = axes[row, col]
            for label in labels:
                ys = [us_of(results, size_key(*sz), label, batch) for sz in sizes]
                pts = [(x, y) for x, y in zip(xs, ys, strict=True) if y is not None]
                if not pts:
                    continue
                wavg = " wavg" in label
                ax.plot(*zip(*pts, strict=True), marker="o" if wavg else "s", markersize=5,
                        linestyle="-" if wavg else "--", color=colors[label.split()[0]],
                        label=label)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator(xs))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _p: f"{x:,.0f}"))
            ax.xaxis.set_minor_locator(NullLocator())
            ax.yaxis.set_major_locator(LogLocator(base=10, numticks=12))
            ax.yaxis.set_major_formatter(FuncFormatter(fmt_axis_us))
            ax.yaxis.set_minor_locator(NullLocator())
            ax.grid(True, which="major", alpha=0.3)
            ax.set_title(f"{rows_text(batch)} a call, by {what.split(',')[0]}", fontsize=10)
            if col == 0:
                ax.set_ylabel("time per grade call")
            if row == len(batches) - 1:
                ax.set_xlabel(what)
    for ax_row in axes:  # under three decades: label 1, 2 and 5 of each decade
        lo, hi = ax_row[0].get_ylim()
        if hi / lo < 1000:
            ax_row[0].yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    handles, names = axes[0, 0].get_legend_handles_labels()
    notes = ["solid: weighted average, dashed: centroid; a missing point was not run (too slow)"]
    notes += [f"{k}: {v}" for k, v in results["notes"].items()]
    fig.legend(handles, names, loc="outside lower center", ncol=4, frameon=False,
               title="\n".join(notes), title_fontsize=9)
    fig.suptitle("Cost of one grade call as the rule base grows (one core, log scales)")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --- main ---------------------------------------------------------------------------------


def run(s: Settings, quick: bool, log: Callable[[str], None]) -> dict[str, Any]:
    versions = peer_versions()
    peers = [d for d, v in versions.items() if v]
    sizes = base_sizes(quick)
    results: dict[str, Any] = {
        "settings": {"repeat": s.repeat, "budget": s.budget, "min_time": s.min_time,
                     "max_memory_gib": s.max_memory, "big": s.big, "quick": quick,
                     "rules": sorted({r for i, r in sizes if i == BASE[0]}),
                     "inputs": sorted({i for i, r in sizes if r == BASE[1]}), "seed": SEED,
                     "numpy": np.__version__, "python": platform.python_version()},
        "peers": versions, "bases": {}, "limits": {}, "notes": {},
    }
    builds: dict[str, list[tuple[int, int, float]]] = {p: [] for p in peers}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dist, module in PEERS:  # imported before the builds are timed
            if dist in peers:
                importlib.import_module(module if module != "skfuzzy" else "skfuzzy.control")
    for n_inputs, n_rules in sizes:
        log(f"{n_inputs} inputs, {n_rules} rules")
        rb_wa, rb_c = rulebases(n_inputs, n_rules)
        build: dict[str, float | None] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scikit-fuzzy's and pyfuzzylite's own noise
            cs = ours(rb_wa, rb_c)
            for peer in peers:
                if predicted_build(builds[peer], n_inputs, n_rules) > s.budget:
                    build[peer] = None
                    log(f"  {peer}: not built (would take over the budget)")
                    continue
                t0 = time.perf_counter()
                cs += peer_contenders(peer, rb_wa, rb_c)
                build[peer] = time.perf_counter() - t0
                builds[peer].append((n_inputs, n_rules, build[peer]))
            xs = bench.random_rows(rb_wa, max(s.big, s.variants * 20), seed=1)
            cells = measure_base(cs, xs, s, log)
        for peer in peers:
            for label in LABELS[peer]:
                cells.setdefault(label, {b: Cell(why_not="building it: over the budget")
                                         for b in (1, 20, s.big)})
        order = ["fuzzeval wavg", "fuzzeval centroid", *(x for p in peers for x in LABELS[p])]
        results["bases"][size_key(n_inputs, n_rules)] = {
            "inputs": n_inputs, "rules": n_rules, "build_seconds": build,
            "cells": {label: {str(b): {"us_per_call": cell.us_per_call,
                                       "grades_per_s": None if cell.seconds is None
                                       else b / cell.seconds,
                                       "calls_per_sample": cell.calls,
                                       "why_not": cell.why_not, "max_diff": cell.max_diff}
                              for b, cell in cells[label].items() if b in (1, 20, s.big)}
                      for label in order},
        }
        for c in cs:
            results["limits"][c.label] = c.limit
            if c.note:
                results["notes"][c.label] = c.note
    return results


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="best of this many measurements")
    parser.add_argument("--budget", type=float, default=30.0,
                        help="seconds one engine's measurement may take at one size")
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="seconds one measurement lasts at least (many calls)")
    parser.add_argument("--max-memory", type=float, default=4.0,
                        help="GiB one big-batch call may take")
    parser.add_argument("--quick", action="store_true",
                        help="fewer and smaller rule bases, 10,000 rows, best of 2")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--markdown", action="store_true",
                        help="print the tables in Markdown (for docs/benchmarks.md)")
    parser.add_argument("--plot", type=Path, metavar="PATH", help="write the figure here")
    parser.add_argument("--from", dest="load", type=Path, metavar="JSON",
                        help="measure nothing: show results saved with --json")
    args = parser.parse_args(argv)
    s = Settings(repeat=args.repeat, budget=args.budget, min_time=args.min_time,
                 max_memory=args.max_memory)
    if args.quick:
        s.repeat, s.big = min(s.repeat, 2), QUICK_BIG
        s.budget, s.min_time = min(s.budget, 3.0), min(s.min_time, 0.01)
    log = (lambda m: print(m, file=sys.stderr)) if args.json else print
    if args.load:
        results = json.loads(args.load.read_text())
    else:
        results = run(s, args.quick, log)
        log("")
    if args.json:
        print(json.dumps(results, indent=2))
    elif args.markdown:
        markdown(results)
    else:
        report(results)
    if args.plot:
        plot(results, args.plot)
        log(f"figure: {args.plot}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
