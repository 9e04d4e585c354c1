"""What the defuzzifier read for one candidate, as numbers to draw: for a centroid base the
output's terms clipped at their activations and their aggregate (the set whose centroid is
the grade) on a grid of the output's range; for a singleton base (weighted average or
sum) each term's summed rule strength and its weighted contribution to the grade. A viewer
draws these rather than aggregating again itself."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fuzzeval.engine.evaluator import Explanation
from fuzzeval.engine.membership import membership
from fuzzeval.engine.rulebase import RuleBase

#: grid steps across the output's range (a drawing's resolution, not the grade's: the
#: centroid itself is exact, ``fuzzeval.engine.defuzzify``)
STEPS = 240


@dataclass(frozen=True)
class OutputSets:
    """One explanation's output side. ``grid``, ``clipped`` and ``aggregate`` are filled for
    a centroid base (empty otherwise); ``strength`` and ``contribution`` for a singleton
    base: a term's strength is the sum of its rules' strengths (weights applied), its
    contribution that times its value (their sum is the weighted sum's grade; divided by
    the total strength, the weighted average's)."""

    defuzzifier: str
    grid: tuple[float, ...]
    clipped: dict[str, tuple[float, ...]]  # term -> min(activation, membership) on the grid
    aggregate: tuple[float, ...]  # max over the clipped terms
    strength: dict[str, float]
    contribution: dict[str, float]
    grade: float

    def to_dict(self) -> dict[str, object]:
        return {"defuzzifier": self.defuzzifier, "grid": list(self.grid),
                "clipped": {k: list(v) for k, v in self.clipped.items()},
                "aggregate": list(self.aggregate), "strength": self.strength,
                "contribution": self.contribution, "grade": self.grade}


def output_sets(rb: RuleBase, explanation: Explanation, steps: int = STEPS) -> OutputSets:
    """The output sets behind ``explanation`` (of ``rb``'s evaluator) for drawing."""
    out = rb.output
    if rb.defuzzifier == "centroid":
        grid = np.linspace(out.lo, out.hi, steps + 1)
        clipped = {t.name: np.minimum(membership(grid, t.triangle, out.width),
                                      explanation.activations[t.name]) for t in out.terms}
        aggregate = np.max(np.stack(list(clipped.values())), axis=0)
        return OutputSets(rb.defuzzifier, tuple(grid.tolist()),
                          {k: tuple(v.tolist()) for k, v in clipped.items()},
                          tuple(aggregate.tolist()), {}, {}, explanation.grade)
    strength = {t.name: 0.0 for t in out.terms}
    for r in explanation.rules:  # in file order, as the evaluator sums them
        strength[r.output_term] += r.strength
    value = {t.name: t.triangle.peak for t in out.terms}
    return OutputSets(rb.defuzzifier, (), {}, (), strength,
                      {k: s * value[k] for k, s in strength.items()}, explanation.grade)


def rule_contributions(rb: RuleBase, explanation: Explanation) -> tuple[float, ...] | None:
    """What each rule (file order) adds to a singleton base's grade, as the evaluator
    makes it: its strength (weight applied) times its term's value, divided by the total
    strength for a weighted average; when a rule fired they sum to the grade. None for a
    centroid base, whose grade is no sum of its rules."""
    if rb.defuzzifier == "centroid":
        return None
    value = {t.name: t.triangle.peak for t in rb.output.terms}
    total = 1.0
    if rb.defuzzifier == "weighted_average":
        total = sum(r.strength for r in explanation.rules) or 1.0  # none fired: all add 0
    return tuple(r.strength * value[r.output_term] / total for r in explanation.rules)
