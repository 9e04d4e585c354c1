"""Defuzzifiers over many candidates at once.

``weighted_average`` is Fuzzeval's eq. 2, summed per rule. ``centroid`` is the
exact continuous centroid of the aggregated set max_t min(a_t, mu_t(y)): that set
is piecewise linear, and all its kinks lie in a known finite set of points --
the term vertices and the crossings of the terms' side lines (fixed), and the
points where a side reaches some term's activation level (they move with the
activations). Integrating the linear pieces between those points in closed form
gives the centroid without a grid, so it needs no resolution and has no grid
error.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from fuzzeval.membership import FloatArray, Triangle, side_slopes

IntArray = np.ndarray[tuple[int, ...], np.dtype[np.intp]]


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
