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
