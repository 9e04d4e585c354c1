"""An independent reference for the compiled engine (tests/test_engine_kernels.py): the
semantics of docs/rulebase-format.md written out plainly from the rule base's data, sharing
nothing with fuzzeval's engine, kernels or defuzzifiers (no rule compiler, no side slopes).

* memberships: triangles by the textbook formula on the input clipped to its range, 1 at
  the peak, a vertical side exactly vertical, values below 1e-12 counted as 0;
* conditions by walking their tree: ``and`` = min, ``or`` = max, ``not`` = 1 - mu; a
  rule's strength is its degree times its weight;
* ``weighted_average``: sum_r s_r peak_r / sum_r s_r, the default where no rule fires;
* ``weighted_sum``: sum_r s_r peak_r, the default where no rule fires;
* ``centroid``: the exact centroid of max_t min(a_t, mu_t(y)), a_t the largest strength of
  the rules concluding on term t. The aggregated set is linear between the points where a
  side meets a vertex, another side or an activation level; every such point is a cut, and
  on each piece the integrals of f and y f are taken in closed form from f at two inner
  points (a vertical side, a jump at a cut, needs no special case).

Slow and plain on purpose (a loop over candidates for the centroid). The engine the
compiled kernels replaced, which shared their rule compiler and is no check of it, is
kept as the "before" of benchmarks/latency.py in benchmarks/engine_before_kernels.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.membership import Triangle
from fuzzeval.engine.rulebase import And, Condition, Is, Not, Or, RuleBase

FloatArray = npt.NDArray[np.float64]
TINY = 1e-12  # docs/rulebase-format.md: "Memberships below 1e-12 count as 0"


def mu(x: FloatArray, tri: Triangle) -> FloatArray:
    """Membership of every x in the triangle (left, peak, right)."""
    left, peak, right = tri.left, tri.peak, tri.right
    out = np.zeros_like(x, dtype=np.float64)
    if peak > left:
        rising = (x > left) & (x < peak)
        out[rising] = (x[rising] - left) / (peak - left)
    if right > peak:
        falling = (x > peak) & (x < right)
        out[falling] = (right - x[falling]) / (right - peak)
    out[x == peak] = 1.0
    return out


def degree(cond: Condition, memberships: dict[tuple[str, str], FloatArray]) -> FloatArray:
    if isinstance(cond, Is):
        return memberships[(cond.variable, cond.term)]
    if isinstance(cond, Not):
        return 1.0 - degree(cond.operand, memberships)
    assert isinstance(cond, (And, Or))
    parts = [degree(c, memberships) for c in cond.operands]
    combine = np.minimum if isinstance(cond, And) else np.maximum
    out = parts[0]
    for p in parts[1:]:
        out = combine(out, p)
    return out


def strengths(rb: RuleBase, xs: FloatArray) -> FloatArray:
    """Each rule's strength (rules, n) for inputs xs (n, inputs)."""
    memberships: dict[tuple[str, str], FloatArray] = {}
    for i, var in enumerate(rb.inputs):
        x = np.minimum(np.maximum(xs[:, i], var.lo), var.hi)
        for term in var.terms:
            m = mu(x, term.triangle)
            m[m < TINY] = 0.0
            memberships[(var.name, term.name)] = m
    out = np.zeros((len(rb.rules), xs.shape[0]))
    for r, rule in enumerate(rb.rules):
        out[r] = rule.weight * degree(rule.condition, memberships)
    return out


def _lines(tri: Triangle) -> list[tuple[float, float]]:
    """The sloping sides of a triangle as lines y -> k y + c (vertical ones are cuts)."""
    lines = []
    if tri.peak > tri.left:
        k = 1.0 / (tri.peak - tri.left)
        lines.append((k, -k * tri.left))
    if tri.right > tri.peak:
        k = -1.0 / (tri.right - tri.peak)
        lines.append((k, -k * tri.right))
    return lines


def centroid(triangles: list[Triangle], lo: float, hi: float, act: FloatArray,
             default: float) -> FloatArray:
    """Exact centroids of max_t min(act[:, t], mu_t) over [lo, hi], ``default`` where no
    term is active (act: (n, terms))."""
    out = np.full(act.shape[0], default, dtype=np.float64)
    for i, a in enumerate(act):
        fired = [(tri, float(level)) for tri, level in zip(triangles, a, strict=True)
                 if level > 0]
        if not fired:
            continue
        cuts = [lo, hi]
        lines = []
        for tri, _ in fired:
            cuts += [tri.left, tri.peak, tri.right]
            lines += _lines(tri)
        levels = [level for _, level in fired]
        for k, c in lines:
            cuts += [(level - c) / k for level in levels]  # where a side meets a level
        for (k1, c1), (k2, c2) in combinations(lines, 2):
            if k1 != k2:
                cuts.append((c2 - c1) / (k1 - k2))  # where two sides cross
        y = np.unique(np.clip(np.array(cuts), lo, hi))
        h = np.diff(y)
        y0, h = y[:-1][h > 0], h[h > 0]
        q1, q3 = y0 + h / 4, y0 + 3 * h / 4  # inside each piece, where f is linear
        f1 = np.zeros_like(q1)
        f3 = np.zeros_like(q3)
        for tri, level in fired:
            f1 = np.maximum(f1, np.minimum(level, mu(q1, tri)))
            f3 = np.maximum(f3, np.minimum(level, mu(q3, tri)))
        mid, fm, slope = y0 + h / 2, (f1 + f3) / 2, (f3 - f1) / (h / 2)
        area = float(np.sum(h * fm))
        moment = float(np.sum(h * mid * fm + slope * h**3 / 12))
        if area > 0:
            out[i] = moment / area
    return out


@dataclass(frozen=True)
class PlainEvaluator:
    rulebase: RuleBase

    def grade(self, x: npt.ArrayLike) -> FloatArray:
        rb = self.rulebase
        xs = np.asarray(x, dtype=np.float64).reshape(-1, len(rb.inputs))
        s = strengths(rb, xs)
        if rb.defuzzifier in ("weighted_average", "weighted_sum"):
            peaks = np.array([rb.output.term(r.output_term).triangle.peak for r in rb.rules])
            num, den = (s * peaks[:, None]).sum(axis=0), s.sum(axis=0)
            if rb.defuzzifier == "weighted_sum":
                return np.where(den > 0, num, rb.default)
            out = np.full(xs.shape[0], rb.default, dtype=np.float64)
            np.divide(num, den, out=out, where=den > 0)
            return out
        act = np.zeros((xs.shape[0], len(rb.output.terms)))
        for t, term in enumerate(rb.output.terms):
            rows = [r for r, rule in enumerate(rb.rules) if rule.output_term == term.name]
            if rows:
                act[:, t] = s[rows].max(axis=0)
        return centroid([t.triangle for t in rb.output.terms], rb.output.lo, rb.output.hi,
                        act, rb.default)


def compile_plain(rb: RuleBase) -> PlainEvaluator:
    return PlainEvaluator(rb)
