"""The engine as it was before its kernels were compiled (plain numpy, chunked, one numpy
call per step over a chunk of candidates; the centroid visits every breakpoint): the
"before" that benchmarks/latency.py times the compiled engine against. It shares the
engine's rule compiler and side slopes, so it is no check of them: the tests check the
engine against tests/independent_engine.py, written independently from the documented
semantics."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import _ProgramBuilder  # the same steps; only their running differs
from fuzzeval.engine.membership import TINY, FloatArray, Triangle, side_slopes
from fuzzeval.engine.rulebase import RuleBase

CHUNK = 1024

_MIN, _MAX, _NOT, _COPY = 0, 1, 2, 3
Op = tuple[int, int, int, int]
IntArray = npt.NDArray[np.intp]
Wave = tuple[int, IntArray, IntArray, IntArray, tuple[tuple[int, int, int], ...]]
GATHER = 8


def _frozen(a: npt.ArrayLike, dtype: Any = np.float64) -> Any:
    arr = np.array(a, dtype=dtype)
    arr.flags.writeable = False
    return arr


def weighted_average(
    strengths: FloatArray, values: FloatArray, default: float
) -> FloatArray:
    """sum_r s_r v_r / sum_r s_r for strengths of shape (R, n); ``default`` where no rule fires.

    Summed rule after rule, in rule order, whatever n is (a matrix product's blocking, and
    numpy's pairwise sums along a contiguous axis, depend on n), so a candidate's grade is
    the same to the last bit however many candidates are graded with it. Three ways to the
    same sums: one column alone, a few columns at once, and many rule by rule in place.
    """
    n = strengths.shape[1]
    out = np.full(n, default, dtype=np.float64)
    if strengths.shape[0] == 0:
        return out
    if n == 1:
        num = np.add.accumulate(strengths[:, 0] * values)[-1:]
        den = np.add.accumulate(strengths[:, 0])[-1:]
    elif n < 256:  # reduced along rules (not contiguous): sequential for n >= 2
        strengths = np.ascontiguousarray(strengths)  # a Fortran-ordered one would be pairwise
        num = (strengths * values[:, None]).sum(axis=0)
        den = strengths.sum(axis=0)
    else:
        num = strengths[0] * values[0]
        den = strengths[0].copy()
        for r in range(1, strengths.shape[0]):
            num += strengths[r] * values[r]
            den += strengths[r]
    np.divide(num, den, out=out, where=den > 0)
    return out


@dataclass(frozen=True, eq=False)
class CentroidPlan:
    """Everything about the output terms that does not depend on the activations."""

    lo: float
    hi: float
    peak: FloatArray  # (T,)
    rise: FloatArray  # (T,) slope of the rising side (steep for a vertical side)
    fall: FloatArray  # (T,) slope of the falling side
    # A vertical side's foot sits 1e-12 of the range from its peak; evaluated there, rounding
    # leaves a sliver of membership that the next linear piece would stretch across the
    # range. So beyond a vertical side the membership is set to exactly 0.
    vertical_rise: npt.NDArray[np.bool_]  # (T,)
    vertical_fall: npt.NDArray[np.bool_]  # (T,)
    fixed: FloatArray  # (F,) breakpoints that do not move
    var_base: FloatArray  # (J,) a side reaches level a at base + coef * a
    var_coef: FloatArray  # (J,)
    var_term: IntArray  # (J,) whose activation sets the level


def plan_centroid(triangles: list[Triangle], lo: float, hi: float) -> CentroidPlan:
    """Precompute the breakpoints of max_t min(a_t, mu_t) over [lo, hi] for these terms."""
    width = hi - lo
    slopes = [side_slopes(t, width) for t in triangles]
    peak = np.array([t.peak for t in triangles], dtype=np.float64)
    rise = np.array([s[0] for s in slopes], dtype=np.float64)
    fall = np.array([s[1] for s in slopes], dtype=np.float64)
    left, right = peak - 1.0 / rise, peak + 1.0 / fall
    # Lines 1 + k (y - p): rising sides (k = rise) and falling sides (k = -fall).
    lines = [(r, p) for r, p in zip(rise, peak, strict=True)]
    lines += [(-f, p) for f, p in zip(fall, peak, strict=True)]
    fixed = [lo, hi, *peak, *left, *right]
    for (k1, p1), (k2, p2) in combinations(lines, 2):
        if k1 != k2:
            fixed.append((k1 * p1 - k2 * p2) / (k1 - k2))
    fixed_arr = np.unique(np.clip(np.array(fixed), lo, hi))
    steep = 1e9 / width  # sides steeper than this are vertical: their level points are vertices
    base, coef, term = [], [], []
    for s in range(len(triangles)):
        sides = []
        if rise[s] < steep:
            sides.append((left[s], peak[s], left[s], 1.0 / rise[s]))
        if fall[s] < steep:
            sides.append((peak[s], right[s], right[s], -1.0 / fall[s]))
        for a, b, b0, c0 in sides:
            for t in range(len(triangles)):
                if t == s or (left[t] < b and right[t] > a):
                    base.append(b0)
                    coef.append(c0)
                    term.append(t)
    return CentroidPlan(
        lo, hi, peak, rise, fall, rise >= steep, fall >= steep, fixed_arr,
        np.array(base, dtype=np.float64), np.array(coef, dtype=np.float64),
        np.array(term, dtype=np.intp),
    )


def centroid(plan: CentroidPlan, act: FloatArray, default: float) -> FloatArray:
    """Exact centroids for activations ``act`` of shape (n, T); ``default`` where all are 0."""
    n = act.shape[0]
    n_fixed = plan.fixed.size
    y = np.empty((n, n_fixed + plan.var_base.size), dtype=np.float64)
    y[:, :n_fixed] = plan.fixed
    np.multiply(act[:, plan.var_term], plan.var_coef, out=y[:, n_fixed:])
    y[:, n_fixed:] += plan.var_base
    np.clip(y[:, n_fixed:], plan.lo, plan.hi, out=y[:, n_fixed:])
    y.sort(axis=1)
    f = np.zeros_like(y)
    d = np.empty_like(y)
    m = np.empty_like(y)
    for t in range(plan.peak.size):
        np.subtract(y, plan.peak[t], out=d)
        np.multiply(d, -plan.rise[t], out=m)
        d *= plan.fall[t]
        np.maximum(m, d, out=m)
        np.subtract(1.0, m, out=m)
        if plan.vertical_rise[t]:
            m[y < plan.peak[t]] = 0.0
        if plan.vertical_fall[t]:
            m[y > plan.peak[t]] = 0.0
        np.minimum(m, act[:, t : t + 1], out=m)
        np.maximum(f, m, out=f)
    # Linear pieces: area = sum dy (f0 + f1) / 2,
    # moment = sum dy ((y0 + y1)(f0 + f1) + y0 f0 + y1 f1) / 6.
    dy = np.diff(y, axis=1)
    fs = f[:, :-1] + f[:, 1:]
    yf = y * f
    ys = y[:, :-1] + y[:, 1:]
    area2 = np.einsum("ij,ij->i", dy, fs)
    ys *= fs
    ys += yf[:, :-1]
    ys += yf[:, 1:]
    moment6 = np.einsum("ij,ij->i", dy, ys)
    out = np.full(n, default, dtype=np.float64)
    fired = act.max(axis=1, initial=0.0) > 0
    np.divide(moment6, 3.0 * area2, out=out, where=fired & (area2 > 0))
    return out


@dataclass(frozen=True, eq=False)
class PlainEvaluator:
    """A compiled rule base. ``grade`` is pure; nothing is cached on the instance."""

    rulebase: RuleBase
    input_names: tuple[str, ...]
    lo: FloatArray
    hi: FloatArray
    term_keys: tuple[tuple[str, str], ...]  # (variable, term) of each membership row
    term_col: npt.NDArray[np.intp]
    term_lo: FloatArray  # (terms, 1): the range of each term's variable, for clipping
    term_hi: FloatArray
    peak: FloatArray
    neg_rise: FloatArray
    fall: FloatArray
    program: tuple[Wave, ...]
    n_registers: int
    rule_rows: npt.NDArray[np.intp]  # workspace row of each rule's strength (file order)
    weights: FloatArray | None  # per strength row, None when all are 1
    values: FloatArray  # output term peak per strength row (weighted average)
    groups: npt.NDArray[np.intp]  # strength rows are grouped by output term; group starts
    plan: CentroidPlan | None

    @property
    def n_inputs(self) -> int:
        return len(self.input_names)

    def grade(self, x: npt.ArrayLike) -> FloatArray:
        """Grades of candidates ``x`` of shape (n, n_inputs), columns in ``input_names`` order."""
        xs = self._check(x)
        out = np.empty(xs.shape[0], dtype=np.float64)
        for start in range(0, xs.shape[0], CHUNK):
            stop = min(start + CHUNK, xs.shape[0])
            work = self._forward(xs[start:stop])
            out[start:stop] = self._defuzzify(work)
        return out

    # --- internals ----------------------------------------------------------

    def _check(self, x: npt.ArrayLike) -> FloatArray:
        xs = np.asarray(x, dtype=np.float64)
        if xs.ndim != 2 or xs.shape[1] != self.n_inputs:
            raise ValueError(
                f"expected an array of shape (n, {self.n_inputs}) with columns "
                f"{', '.join(self.input_names)} (got shape {xs.shape})"
            )
        if np.isnan(xs).any():
            row, col = np.argwhere(np.isnan(xs))[0]
            raise ValueError(f"input {self.input_names[col]!r} is NaN (row {row})")
        return xs

    def _forward(self, xs: FloatArray) -> FloatArray:
        """Workspace rows: memberships, temporaries, then rule strengths (weighted)."""
        n = xs.shape[0]
        work = np.empty((self.n_registers, n), dtype=np.float64)
        m = len(self.term_keys)
        # Clip each term's input to its variable's range (np.clip is slow on small arrays).
        d = xs.T[self.term_col]
        np.maximum(d, self.term_lo, out=d)
        np.minimum(d, self.term_hi, out=d)
        d -= self.peak[:, None]
        up = work[:m]
        np.multiply(d, self.neg_rise[:, None], out=up)
        d *= self.fall[:, None]
        np.maximum(up, d, out=up)
        np.subtract(1.0, up, out=up)
        # Rounding in (x - peak) * slope can leave ~1e-16 at a foot; a foot is 0.
        up[up < TINY] = 0.0
        for op, dst, a, b, steps in self.program:
            if len(steps) < GATHER:
                for d0, a0, b0 in steps:
                    _apply(op, work[a0], work[b0], work[d0])
            else:
                d = np.empty((dst.size, n))
                _apply(op, work[a], work[b], d)
                work[dst] = d
        if self.weights is not None:
            self._strengths(work)[...] *= self.weights[:, None]
        return work

    def _strengths(self, work: FloatArray) -> FloatArray:
        m = len(self.term_keys)
        return work[m : m + self.values.size]

    def _strength_index(self) -> npt.NDArray[np.intp]:
        return self.rule_rows - len(self.term_keys)

    def _defuzzify(self, work: FloatArray) -> FloatArray:
        strengths = self._strengths(work)
        default = self.rulebase.default
        if self.plan is None:
            return weighted_average(strengths, self.values, default)
        act = np.maximum.reduceat(strengths, self.groups, axis=0)
        return centroid(self.plan, np.ascontiguousarray(act.T), default)


def _apply(op: int, x: FloatArray, y: FloatArray, out: FloatArray) -> None:
    if op == _MIN:
        np.minimum(x, y, out=out)
    elif op == _MAX:
        np.maximum(x, y, out=out)
    elif op == _NOT:
        np.subtract(1.0, x, out=out)
    else:
        out[...] = x


def _waves(ops: list[Op]) -> tuple[Wave, ...]:
    """Runs of steps with one opcode, none reading or writing a row an earlier step of its
    run writes, done as one numpy call each: a rule base of many two-term rules is one
    call instead of one per rule."""
    waves: list[Wave] = []
    run: list[Op] = []
    written: set[int] = set()

    def close() -> None:
        if run:
            cols = np.array([op[1:] for op in run], dtype=np.intp).T
            steps = tuple((d, a, b) for _, d, a, b in run)
            waves.append((run[0][0], cols[0], cols[1], cols[2], steps))

    for op in ops:
        code, dst, a, b = op
        if run and (code != run[0][0] or {dst, a, b} & written):
            close()
            run, written = [], set()
        run.append(op)
        written.add(dst)
    close()
    return tuple(waves)


def compile_plain(rb: RuleBase) -> PlainEvaluator:
    """Compile once, grade many times."""
    term_keys = tuple((v.name, t.name) for v in rb.inputs for t in v.terms)
    term_row = {k: i for i, k in enumerate(term_keys)}
    col, peak, neg_rise, fall = [], [], [], []
    for i, v in enumerate(rb.inputs):
        for t in v.terms:
            rise_s, fall_s = side_slopes(t.triangle, v.width)
            col.append(i)
            peak.append(t.triangle.peak)
            neg_rise.append(-rise_s)
            fall.append(fall_s)

    out_index = {t.name: i for i, t in enumerate(rb.output.terms)}
    for rule in rb.rules:
        if rule.output_term not in out_index:
            raise ValueError(f"rule concludes on unknown output term {rule.output_term!r}")
    # Workspace rows: memberships, then rule strengths grouped by output term (stable,
    # so one max-reduce per term gives the activations), then temporaries.
    order = sorted(range(len(rb.rules)), key=lambda r: out_index[rb.rules[r].output_term])
    first_strength = len(term_keys)
    builder = _ProgramBuilder(term_row, first_strength + len(order))
    rule_rows = np.empty(len(rb.rules), dtype=np.intp)
    for pos, r in enumerate(order):
        builder.rule(rb.rules[r].condition, first_strength + pos)
        rule_rows[r] = first_strength + pos

    terms_sorted = [out_index[rb.rules[r].output_term] for r in order]
    weights = [rb.rules[r].weight for r in order]
    starts = [i for i in range(len(order)) if i == 0 or terms_sorted[i] != terms_sorted[i - 1]]
    group_terms = [terms_sorted[i] for i in starts]
    plan = None
    if rb.defuzzifier == "centroid":
        plan = plan_centroid(
            [rb.output.terms[t].triangle for t in group_terms], rb.output.lo, rb.output.hi
        )
    rule_rows.flags.writeable = False
    return PlainEvaluator(
        rulebase=rb,
        input_names=rb.input_names,
        lo=_frozen([v.lo for v in rb.inputs]),
        hi=_frozen([v.hi for v in rb.inputs]),
        term_keys=term_keys,
        term_col=_frozen(col, np.intp),
        term_lo=_frozen([[rb.inputs[c].lo] for c in col]),
        term_hi=_frozen([[rb.inputs[c].hi] for c in col]),
        peak=_frozen(peak),
        neg_rise=_frozen(neg_rise),
        fall=_frozen(fall),
        program=_waves(builder.ops),
        n_registers=builder.max_temp,
        rule_rows=rule_rows,
        weights=None if all(w == 1.0 for w in weights) else _frozen(weights),
        values=_frozen([rb.output.terms[t].triangle.peak for t in terms_sorted]),
        groups=_frozen(starts, np.intp),
        plan=plan,
    )
