"""Defuzzifiers over many candidates at once.

``weighted_average`` is Fuzzeval's eq. 2, summed per rule; ``weighted_sum`` is its numerator
alone, the linear model of Sturtevant & White (2006) (a rule's conclusion is its learned
weight, its firing strength the feature: no normalisation, so conclusions add up).
``centroid`` is the exact continuous centroid of the aggregated set max_t min(a_t, mu_t(y)):
that set is piecewise linear, and all its kinks lie in a known finite set of points -- the
term vertices and the crossings of the terms' side lines (fixed), and the points where a
side reaches some term's activation level (they move with the activations). Integrating the
linear pieces between those points in closed form gives the centroid without a grid, so it
needs no resolution and has no grid error.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels import compiled
from fuzzeval.engine.membership import FloatArray, Triangle, side_slopes

IntArray = np.ndarray[tuple[int, ...], np.dtype[np.intp]]
BoolArray = npt.NDArray[np.bool_]


def weighted_average(
    strengths: FloatArray, values: FloatArray, default: float, normalise: bool = True
) -> FloatArray:
    """sum_r s_r v_r / sum_r s_r for strengths of shape (R, n) (without ``normalise``, the
    weighted sum sum_r s_r v_r); ``default`` where no rule fires.

    Summed rule after rule, in rule order (a matrix product's blocking, and numpy's pairwise
    sums, depend on n), so a candidate's grade is the same to the last bit however many
    candidates are graded with it.
    """
    s = np.ascontiguousarray(np.asarray(strengths, dtype=np.float64).T)
    out = np.empty(s.shape[0], dtype=np.float64)
    compiled.wa_rows(s, np.ascontiguousarray(values, dtype=np.float64), float(default),
                    normalise, out)
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
    fixed: FloatArray  # (F,) breakpoints that do not move, sorted
    fixed_owner: IntArray  # (F, 2) the terms whose lines make each one (-1: the range's ends)
    var_base: FloatArray  # (J,) a side reaches level a at base + coef * a
    var_coef: FloatArray  # (J,)
    var_term: IntArray  # (J,) whose activation sets the level
    var_side: IntArray  # (J,) whose side it is

    def kernel_args(self) -> tuple[float, float, FloatArray, FloatArray, FloatArray,
                                   BoolArray, BoolArray, FloatArray, IntArray, FloatArray,
                                   FloatArray, IntArray, IntArray]:
        """The plan as ``centroid_row`` takes it, after ``act``."""
        return (self.lo, self.hi, self.peak, self.rise, self.fall, self.vertical_rise,
                self.vertical_fall, self.fixed, self.fixed_owner, self.var_base,
                self.var_coef, self.var_term, self.var_side)


def plan_centroid(triangles: list[Triangle], lo: float, hi: float) -> CentroidPlan:
    """Precompute the breakpoints of max_t min(a_t, mu_t) over [lo, hi] for these terms."""
    width = hi - lo
    n = len(triangles)
    slopes = [side_slopes(t, width) for t in triangles]
    peak = np.array([t.peak for t in triangles], dtype=np.float64)
    rise = np.array([s[0] for s in slopes], dtype=np.float64)
    fall = np.array([s[1] for s in slopes], dtype=np.float64)
    left, right = peak - 1.0 / rise, peak + 1.0 / fall
    # Sides as lines 1 + k (y - p) over their segments: rising (k = rise) on [left, peak],
    # falling (k = -fall) on [peak, right].
    lines = [(r, p, t, a, p) for t, (r, p, a) in enumerate(zip(rise, peak, left, strict=True))]
    lines += [(-f, p, t, p, b) for t, (f, p, b) in enumerate(zip(fall, peak, right, strict=True))]
    # Each point with the terms that make it: a kink of the aggregated set only where they
    # are all active, so a candidate's centroid skips the points of terms that did not fire.
    fixed = {(float(lo), -1, -1), (float(hi), -1, -1)}
    fixed |= {(float(np.clip(x, lo, hi)), t, t) for t in range(n)
              for x in (peak[t], left[t], right[t])}
    eps = 1e-9 * width
    for (k1, p1, t1, a1, b1), (k2, p2, t2, a2, b2) in combinations(lines, 2):
        if k1 != k2:
            x = (k1 * p1 - k2 * p2) / (k1 - k2)
            # Two sides cross where the set can kink only on both their segments.
            if max(a1, a2) - eps <= x <= min(b1, b2) + eps:
                fixed.add((float(np.clip(x, lo, hi)), min(t1, t2), max(t1, t2)))
    ordered = sorted(fixed)
    steep = 1e9 / width  # sides steeper than this are vertical: their level points are vertices
    base, coef, term, side = [], [], [], []
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
                    side.append(s)
    return CentroidPlan(
        float(lo), float(hi), peak, rise, fall, rise >= steep, fall >= steep,
        np.array([x for x, _, _ in ordered], dtype=np.float64),
        np.array([[a, b] for _, a, b in ordered], dtype=np.intp).reshape(-1, 2),
        np.array(base, dtype=np.float64), np.array(coef, dtype=np.float64),
        np.array(term, dtype=np.intp), np.array(side, dtype=np.intp),
    )


def centroid(plan: CentroidPlan, act: FloatArray, default: float) -> FloatArray:
    """Exact centroids for activations ``act`` of shape (n, T); ``default`` where all are 0."""
    a = np.ascontiguousarray(act, dtype=np.float64)
    out = np.empty(a.shape[0], dtype=np.float64)
    compiled.centroid_rows(a, *plan.kernel_args(), float(default), out)
    return out
