"""Tick values for the views' axes, matplotlib's ``MaxNLocator``: round numbers, and whole
ones for an axis of counts (rounds, evaluations, games), whose halves mean nothing."""

from __future__ import annotations

from matplotlib.ticker import MaxNLocator

#: about how many ticks an axis gets (and iso-levels a surface's contour)
TICKS = 5


def ticks(lo: float, hi: float, whole: bool = False) -> list[float]:
    """Round values from ``lo`` to ``hi`` for an axis's labels (none outside the range; with
    ``whole``, whole numbers only); an axis of one value, that value."""
    if hi <= lo:  # the locator would widen it around lo, rounding off a whole number
        return [float(lo)]
    got = MaxNLocator(TICKS, integer=whole).tick_values(lo, hi)
    slack = 1e-9 * (hi - lo)
    return [float(t) for t in got if lo - slack <= t <= hi + slack]
