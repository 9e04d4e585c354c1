"""Intervals for win rates and mean payoffs, so that no table reports a bare figure."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest near 0 and 1 and for small n."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """95 % interval of a mean: Student's t for fewer than 30 values (scipy), the normal
    quantile beyond; a single value (or none) has no spread to measure, so (mean, mean)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(values) / n
    if n == 1:
        return mean, mean
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    if n < 30:
        # t's quantile from scipy.special (scipy.stats.t.ppf calls it; importing
        # scipy.stats costs a command another 0.3 s)
        from scipy.special import stdtrit  # type: ignore[import-untyped]

        z = float(stdtrit(n - 1, 0.975))
    half = z * sd / math.sqrt(n)
    return mean - half, mean + half
