"""Fuzzeval's calibrator (Heinze et al. 2005, eq. 1), pure.

Every point marked ``adjust:`` moves toward the mean of the crisp inputs of its variable
seen in winning decisions:

    shift = rate * (mean(x_winning) - x_point)

A moved point never breaks its triangle: it stops at its neighbour (left <= peak <= right)
and at the variable's range, and the record says so (``stopped``). Points of a term are
moved in the order left, peak, right, each against its already moved neighbours. A
variable with no winning samples does not move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.membership import POINT_NAMES
from fuzzeval.rulebase import PointRef, RuleBase

RATE = 0.1


@dataclass(frozen=True)
class PointMove:
    """One adjustable point in one round of calibration."""

    variable: str
    term: str
    point: str
    before: float
    target: float  # mean of the winning inputs (nan without samples)
    after: float
    samples: int
    stopped: bool  # the move was cut short to keep the triangle valid

    @property
    def shift(self) -> float:
        return self.after - self.before

    def to_dict(self) -> dict[str, Any]:
        return {"variable": self.variable, "term": self.term, "point": self.point,
                "before": self.before, "target": None if np.isnan(self.target) else self.target,
                "after": self.after, "samples": self.samples, "stopped": self.stopped}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PointMove:
        target = d["target"]
        return cls(d["variable"], d["term"], d["point"], float(d["before"]),
                   float("nan") if target is None else float(target), float(d["after"]),
                   int(d["samples"]), bool(d["stopped"]))


def calibrate(rb: RuleBase, winning: Mapping[str, npt.ArrayLike],
              rate: float = RATE) -> tuple[RuleBase, tuple[PointMove, ...]]:
    """Move every adjustable point by eq. 1 toward the mean of its variable's winning inputs.

    ``winning[name]`` holds the crisp values of input ``name`` in winning decisions.
    """
    if not 0 < rate <= 1:
        raise ValueError(f"rate must be in (0, 1] (got {rate})")
    adjustable = set(rb.adjustable_points())
    moves: dict[PointRef, float] = {}
    records = []
    for var in rb.inputs:
        values = np.asarray(winning.get(var.name, ()), dtype=np.float64).reshape(-1)
        values = values[~np.isnan(values)]
        target = float(values.mean()) if values.size else float("nan")
        for term in var.terms:
            pts = dict(zip(POINT_NAMES, term.triangle.points, strict=True))
            for which in POINT_NAMES:
                ref = PointRef(var.name, term.name, which)
                if ref not in adjustable:
                    continue
                before = pts[which]
                wanted = before if not values.size else before + rate * (target - before)
                low = var.lo if which == "left" else pts["left" if which == "peak" else "peak"]
                high = var.hi if which == "right" else pts["right" if which == "peak" else "peak"]
                after = float(min(max(wanted, low), high))
                pts[which] = after
                moves[ref] = after
                records.append(PointMove(var.name, term.name, which, before, target, after,
                                         int(values.size), after != wanted))
    return rb.with_points(moves), tuple(records)
