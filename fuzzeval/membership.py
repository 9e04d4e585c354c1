"""Triangular membership functions: the only shape Fuzzeval uses.

A triangle is (left, peak, right) with left <= peak <= right. When two points
coincide the side between them is vertical: [0, 0, 4] is a left shoulder at 0,
[3, 3, 3] is a singleton (membership 1 at exactly 3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

PointName = Literal["left", "peak", "right"]
POINT_NAMES: tuple[PointName, ...] = ("left", "peak", "right")

# Slope that stands in for a vertical side: any x one part in 1e12 of the
# variable's width away from the peak is already at membership 0.
_VERTICAL = 1e12
# Memberships below this are rounding noise at a foot (x == left or right) and count as 0,
# so a rule never "fires" with strength 1e-16 where the textbook formula gives exactly 0.
TINY = 1e-12

# Limits on the numbers of a rule base, so that the engine evaluates it exactly (enforced by
# the loader, fuzzeval/loading.py; see README "Rule bases"):
#: Largest magnitude of any number. Below 2**53 (~9.007e15), so whole numbers are exact and
#: doubles are at most 0.125 apart; differences (<= 2e15) and the centroid's products of
#: coordinates, widths and slopes stay far from overflow (1.8e308).
MAX_MAGNITUDE = 1e15
#: Relative resolution of a variable: its range is at least this times max(1, |lo|, |hi|)
#: wide, and two points of one triangle are equal or at least that far apart. Numbers that
#: far apart differ by millions of units in the last place, so a side's slope is finite and
#: exact, a term's peak is distinguishable from its feet, the centroid's "steeper than 1e9 /
#: width means vertical" (fuzzeval/defuzzify.py) meets only genuinely vertical sides (to
#: within a factor 2), and, with the floor of 1, products of coordinates cannot underflow.
RESOLUTION = 1e-9
#: Smallest rule weight: a strength is weight x degree, and a degree that is not 0 is at
#: least TINY, so strengths stay >= 1e-21, far above the doubles that lose precision
#: (subnormals, < 2.2e-308), which make the centroid wrong.
MIN_WEIGHT = RESOLUTION


def resolution(lo: float, hi: float) -> float:
    """The smallest distance between distinct points of a variable with range [lo, hi]."""
    return RESOLUTION * max(1.0, abs(lo), abs(hi))


def range_problem(lo: float, hi: float) -> str | None:
    """Why [lo, hi] is not a range the engine can evaluate exactly, or None.

    (lo and hi are finite, within MAX_MAGNITUDE, and lo < hi: the loader checks these first.)
    """
    eps = resolution(lo, hi)
    if hi - lo < eps:
        return (f"must be at least {RESOLUTION:g} * max(1, |low|, |high|) = {eps:.3g} wide "
                f"(got [{lo:g}, {hi:g}])")
    return None


def resolution_problem(points: tuple[float, float, float], lo: float, hi: float) -> str | None:
    """Why two points of a valid triangle inside [lo, hi] are too close to tell apart, or None.

    Kept apart from ``triangle_problem``, which ``RuleBase.with_points`` (calibration,
    tuning) uses: a calibrated point may creep toward its neighbour; the loader refuses it.
    """
    left, peak, right = points
    eps = resolution(lo, hi)
    if 0 < peak - left < eps or 0 < right - peak < eps:
        return (f"points must be equal or at least {RESOLUTION:g} * max(1, |low|, |high|) = "
                f"{eps:.3g} apart (got {list(points)})")
    return None


def triangle_problem(points: tuple[float, float, float], lo: float, hi: float) -> str | None:
    """Why (left, peak, right) is not a valid triangle inside [lo, hi], or None if it is."""
    left, peak, right = points
    if not (left <= peak <= right):
        return f"points must satisfy left <= peak <= right (got {list(points)})"
    if left < lo or right > hi:
        return f"points must lie inside the range [{lo:g}, {hi:g}] (got {list(points)})"
    return None


@dataclass(frozen=True)
class Triangle:
    left: float
    peak: float
    right: float

    @property
    def points(self) -> tuple[float, float, float]:
        return (self.left, self.peak, self.right)

    @property
    def is_singleton(self) -> bool:
        return self.left == self.right

    def __post_init__(self) -> None:
        if not (self.left <= self.peak <= self.right):
            raise ValueError(f"triangle needs left <= peak <= right (got {list(self.points)})")


def side_slopes(tri: Triangle, width: float) -> tuple[float, float]:
    """Slopes of the rising and falling sides; a vertical side gets a very steep one."""
    steep = _VERTICAL / width
    rise = 1.0 / (tri.peak - tri.left) if tri.peak > tri.left else steep
    fall = 1.0 / (tri.right - tri.peak) if tri.right > tri.peak else steep
    return rise, fall


def membership(x: npt.ArrayLike, tri: Triangle, width: float = 1.0) -> FloatArray:
    """Membership of x (any shape) in the triangle; 1 at the peak, 0 outside (left, right)."""
    rise, fall = side_slopes(tri, width)
    d = np.asarray(x, dtype=np.float64) - tri.peak
    m = 1.0 - np.maximum(-d * rise, d * fall)
    return np.where(m < TINY, 0.0, m)
