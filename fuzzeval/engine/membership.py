"""Triangular membership functions: the only shape Fuzzeval uses.

A triangle is (left, peak, right) with left <= peak <= right. When two points
coincide the side between them is vertical: [0, 0, 4] is a left shoulder at 0,
[3, 3, 3] is a singleton (membership 1 at exactly 3).
"""

from __future__ import annotations

import sys
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
# the loader, fuzzeval/formats/loading.py; see README "Rule bases"):
#: Largest magnitude of any number. Below 2**53 (~9.007e15), so whole numbers are exact and
#: doubles are at most 0.125 apart; differences (<= 2e15) and the centroid's products of
#: coordinates, widths and slopes stay far from overflow (1.8e308).
MAX_MAGNITUDE = 1e15
#: Relative resolution of a variable: its range is at least this times max(1, |lo|, |hi|)
#: wide, and two points of one *output* triangle are equal or at least that far apart.
#: Numbers that far apart differ by millions of units in the last place; the centroid
#: (fuzzeval/engine/defuzzify.py) takes a side steeper than 1e9 / width for vertical, and crosses
#: side lines by products of slopes and coordinates, which then stay exact and finite; with
#: the floor of 1, products of coordinates cannot underflow (a range scaled by 1e-200 did).
RESOLUTION = 1e-9
#: Two points of one *input* triangle are equal or at least this far apart (the smallest
#: normal double, ~2.2e-308), so that 1 / (peak - left) is finite: closer, the slope is
#: infinite and the membership at the peak is 0 * inf = NaN. Any finite slope is evaluated
#: exactly (no double lies strictly between points a few units in the last place apart), and
#: the calibrator may pull two points of one input triangle arbitrarily close.
MIN_INPUT_SIDE = sys.float_info.min
#: Smallest rule weight: a strength is weight x degree, and a degree that is not 0 is at
#: least TINY, so strengths stay >= 1e-21, far above the doubles that lose precision
#: (subnormals, < 2.2e-308), which make the centroid wrong.
MIN_WEIGHT = RESOLUTION


def number_text(x: float) -> str:
    """The shortest text that reads back as ``x``, without a trailing ".0" (5e-324, 10)."""
    return repr(float(x)).removesuffix(".0")


def resolution(lo: float, hi: float) -> float:
    """The smallest width of a range [lo, hi], and the smallest distance between distinct
    points of one output triangle in it."""
    return RESOLUTION * max(1.0, abs(lo), abs(hi))


def range_problem(lo: float, hi: float) -> str | None:
    """Why [lo, hi] is not a range the engine can evaluate exactly, or None.

    (lo and hi are finite, within MAX_MAGNITUDE, and lo < hi: the loader checks these first.)
    """
    eps = resolution(lo, hi)
    if hi - lo < eps:
        return (f"must be at least {RESOLUTION:g} * max(1, |low|, |high|) = {eps:.3g} wide "
                f"(got [{number_text(lo)}, {number_text(hi)}])")
    return None


def resolution_problem(
    points: tuple[float, float, float], lo: float, hi: float, is_output: bool
) -> str | None:
    """Why two points of a valid triangle inside [lo, hi] are too close together, or None.

    Kept out of ``triangle_problem``, which ``RuleBase.with_points`` (calibration, tuning)
    uses: only the loader refuses these.
    """
    left, peak, right = points
    shown = f"[{', '.join(map(number_text, points))}]"
    if is_output:
        eps = resolution(lo, hi)
        if 0 < peak - left < eps or 0 < right - peak < eps:
            return (f"points must be equal or at least {RESOLUTION:g} * max(1, |low|, |high|) "
                    f"= {eps:.3g} apart (got {shown})")
    elif 0 < peak - left < MIN_INPUT_SIDE or 0 < right - peak < MIN_INPUT_SIDE:
        return (f"points must be equal or at least {MIN_INPUT_SIDE:.3g} apart, so that a "
                f"side's slope is finite (got {shown})")
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
