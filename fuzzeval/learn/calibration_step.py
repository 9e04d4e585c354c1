"""Fuzzeval's calibrator (Heinze et al. 2005, eq. 1), pure.

Every point marked ``adjust:`` moves toward the mean of the crisp inputs of its variable
seen in winning decisions:

    shift = rate * (mean(x_winning) - x_point)

A moved point never breaks its triangle: eq. 1 pulls every point toward the same target,
so points that move keep their order, and a point that would pass a fixed neighbour stops
there; the record says so (``stopped``). A mean outside the variable's range pulls from the
nearest end of the range (the engine clips inputs the same way). A variable with no
winning samples does not move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.membership import POINT_NAMES
from fuzzeval.engine.rulebase import PointRef, RuleBase

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
            old = dict(zip(POINT_NAMES, term.triangle.points, strict=True))
            mine = [p for p in POINT_NAMES if PointRef(var.name, term.name, p) in adjustable]
            if not mine:
                continue
            # Eq. 1 is an affine pull toward one target, so moved points keep their order;
            # only a fixed neighbour (or the range) can stop one.
            new = dict(old)
            aim = min(max(target, var.lo), var.hi)  # inputs are clipped to the range too
            for which in mine:
                if values.size:
                    new[which] = old[which] + rate * (aim - old[which])
            wanted = dict(new)
            for i, which in enumerate(POINT_NAMES):
                if which not in mine:
                    continue
                # Only the fixed points of the triangle (and the range) bound a moving one:
                # they do not move, and clamping ordered points by bounds that grow in the
                # same order keeps them ordered.
                fixed_before = [old[p] for p in POINT_NAMES[:i] if p not in mine]
                fixed_after = [old[p] for p in POINT_NAMES[i + 1:] if p not in mine]
                low, high = max([var.lo, *fixed_before]), min([var.hi, *fixed_after])
                if i > 0:  # rounding in the pull may leave a hair between close points
                    low = max(low, new[POINT_NAMES[i - 1]])
                new[which] = float(min(max(new[which], low), high))
                moves[PointRef(var.name, term.name, which)] = new[which]
                records.append(PointMove(var.name, term.name, which, old[which], target,
                                         new[which], int(values.size),
                                         new[which] != wanted[which]))
    return rb.with_points(moves), tuple(records)
