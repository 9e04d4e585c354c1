"""A game's own measure of a rule base, on fixed seeded decisions, and paired comparisons.

A game may offer a measure of how well a rule base decides, finer than win rates: cribbage
scores each throw by its exact expected value (discard efficiency). The game builds a
``RulebaseMeasure`` once for some seeded deals (the costly part: exact values, features),
then scores any number of rule bases on them. Each measure is the mean of per-unit
contributions, so two rule bases on the same units differ by a mean of paired differences,
which gives a paired 95 % interval. Nothing here knows a game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.rulebase import RuleBase

FloatArray = npt.NDArray[np.float64]


class RulebaseMeasure(Protocol):
    """Scores rule bases on fixed units (deals); picklable, so it can travel to workers."""

    #: one name per measure, e.g. "discard efficiency, my crib"
    names: tuple[str, ...]

    def contributions(self, rb: RuleBase) -> FloatArray:
        """Per-unit contributions (len(names), units); each row's mean is the measure."""
        ...


def objective(measure: RulebaseMeasure, rb: RuleBase) -> float:
    """One number to maximise: the mean of the game's measures."""
    return float(measure.contributions(rb).mean(axis=1).mean())


@dataclass(frozen=True)
class Comparison:
    """One measure of a start and a changed rule base on the same units."""

    name: str
    units: int
    before: float
    after: float
    interval: tuple[float, float]  # paired 95 % interval of after - before

    @property
    def difference(self) -> float:
        return self.after - self.before

    def to_dict(self) -> dict[str, object]:
        return {"measure": self.name, "units": self.units, "before": self.before,
                "after": self.after, "difference": self.difference,
                "interval95": list(self.interval)}


def paired_interval(d: FloatArray) -> tuple[float, float]:
    """Normal-approximation 95 % interval of the mean of paired differences."""
    n = len(d)
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return mean - half, mean + half


def compare(measure: RulebaseMeasure, before: RuleBase,
            after: RuleBase) -> tuple[Comparison, ...]:
    """Every measure of two rule bases on the same units, with paired intervals."""
    a, b = measure.contributions(before), measure.contributions(after)
    return tuple(
        Comparison(name, a.shape[1], float(a[i].mean()), float(b[i].mean()),
                   paired_interval(b[i] - a[i]))
        for i, name in enumerate(measure.names))
