"""Intervals for win rates and mean payoffs, so that no table reports a bare figure."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # two-sided 95 % normal quantile
#: Student's t two-sided 95 % quantiles for 1 to 28 degrees of freedom, as scipy gives
#: them (``scipy.special.stdtrit(df, 0.975)``, checked by a test): a short match's
#: interval without importing scipy, which costs a command 0.2 s
T95 = (12.706204736174694, 4.302652729749462, 3.1824463052837078, 2.7764451051977934,
       2.5705818356363146, 2.4469118511449786, 2.364624251592784, 2.306004135204166,
       2.262157162798205, 2.228138851986274, 2.200985160091639, 2.1788128296672284,
       2.1603686564627913, 2.144786687917804, 2.131449545559776, 2.1199052992212546,
       2.1098155778333156, 2.1009220402410382, 2.0930240544083087, 2.085963447265864,
       2.0796138447276795, 2.0738730679040254, 2.0686576104190486, 2.0638985616280245,
       2.0595385527532972, 2.0555294386428735, 2.0518305164802846, 2.0484071417952454)


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
    """95 % interval of a mean: Student's t for fewer than 30 values (``T95``), the normal
    quantile beyond; a single value (or none) has no spread to measure, so (mean, mean)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(values) / n
    if n == 1:
        return mean, mean
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    if n < 30:
        z = T95[n - 2]
    half = z * sd / math.sqrt(n)
    return mean - half, mean + half
