"""The same rule base as a scikit-fuzzy ControlSystem: an independent reference.

Our engine computes everything in closed form; scikit-fuzzy (0.5.0) samples on
universes. The translation here is built so that the *only* remaining
difference is scikit-fuzzy's centroid on a grid:

- Every universe is ``linspace(lo, hi, resolution)`` plus every term vertex, so
  scikit-fuzzy's linear interpolation of a triangle between universe points is
  the triangle itself (fuzzification is exact). A vertical side inside the range
  (two coincident points, e.g. ``[3, 3, 6]``) also gets the neighbouring float
  just outside it, so the jump happens within one ulp instead of over a grid step.
- Inputs outside a range: ``ControlSystemSimulation(clip_to_bounds=True)`` clips
  to the universe's min and max, which are ``lo`` and ``hi`` -- as we do.
- and/or/not are scikit-fuzzy's defaults (fmin, fmax, 1 - mu); a weight becomes
  ``consequent[term] % weight``, which multiplies the rule's firing strength.
- When no rule fires scikit-fuzzy (lenient) leaves the output out; we return
  the rule base's ``default``, as our engine does.

skfuzzy is imported inside the functions so ``import fuzzeval`` never pays for
it (it pulls in scipy and networkx).
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.membership import FloatArray
from fuzzeval.engine.rulebase import And, Condition, Is, Not, RuleBase, Variable, conditions_used


@dataclass(frozen=True, eq=False)
class ReferenceSystem:
    """A scikit-fuzzy ControlSystem plus handles to its parts, rules in file order."""

    control: Any  # skfuzzy.control.ControlSystem
    inputs: dict[str, Any]  # input name -> skfuzzy Antecedent
    output: Any  # skfuzzy Consequent
    rules: tuple[Any, ...]  # skfuzzy Rule per rule of the rule base, same order
    weights: tuple[float, ...]
    used: frozenset[str]  # inputs some rule reads: scikit-fuzzy rejects the others


def universe(var: Variable, resolution: int) -> FloatArray:
    """Grid plus every term vertex (and one-ulp neighbours of interior vertical sides).

    Vertices make scikit-fuzzy's piecewise-linear interpolation of each triangle
    exact; the neighbours make a vertical side inside the range a one-ulp jump.
    """
    points = [np.linspace(var.lo, var.hi, resolution)]
    for term in var.terms:
        left, peak, right = term.triangle.points
        points.append(np.array([left, peak, right], dtype=np.float64))
        if left == peak and left > var.lo:
            points.append(np.array([np.nextafter(left, -np.inf)]))
        if right == peak and right < var.hi:
            points.append(np.array([np.nextafter(right, np.inf)]))
    grid: FloatArray = np.unique(np.clip(np.concatenate(points), var.lo, var.hi))
    return grid


def _trimf(grid: FloatArray, var: Variable, name: str) -> FloatArray:
    from skfuzzy import trimf

    mf: FloatArray = np.asarray(trimf(grid, list(var.term(name).triangle.points)), np.float64)
    return mf


def _antecedent(cond: Condition, inputs: dict[str, Any]) -> Any:
    """Condition tree -> scikit-fuzzy term expression with & | ~ (same min/max/1-mu)."""
    if isinstance(cond, Is):
        return inputs[cond.variable][cond.term]
    if isinstance(cond, Not):
        return ~_antecedent(cond.operand, inputs)
    parts = [_antecedent(c, inputs) for c in cond.operands]
    return functools.reduce(operator.and_ if isinstance(cond, And) else operator.or_, parts)


def build_control_system(rb: RuleBase, resolution: int | None = None) -> ReferenceSystem:
    """The rule base as a scikit-fuzzy ControlSystem (centroid defuzzification).

    ``resolution`` (default: the rule base's) sets the grid of every universe;
    the output's grid step bounds scikit-fuzzy's centroid error.
    """
    from skfuzzy import control as ctrl

    res = rb.resolution if resolution is None else resolution
    inputs: dict[str, Any] = {}
    for var in rb.inputs:
        grid = universe(var, res)
        ante = ctrl.Antecedent(grid, var.name)
        for term in var.terms:
            ante[term.name] = _trimf(grid, var, term.name)
        inputs[var.name] = ante
    out_var = rb.output
    out_grid = universe(out_var, res)
    output = ctrl.Consequent(out_grid, out_var.name, defuzzify_method="centroid")
    for term in out_var.terms:
        output[term.name] = _trimf(out_grid, out_var, term.name)
    rules = []
    for i, rule in enumerate(rb.rules):
        then = output[rule.output_term]
        if rule.weight != 1.0:
            then = then % float(rule.weight)
        rules.append(ctrl.Rule(_antecedent(rule.condition, inputs), then, label=f"rule{i}"))
    return ReferenceSystem(
        control=ctrl.ControlSystem(rules),
        inputs=inputs,
        output=output,
        rules=tuple(rules),
        weights=tuple(float(r.weight) for r in rb.rules),
        used=frozenset(c.variable for r in rb.rules for c in conditions_used(r.condition)),
    )


# scikit-fuzzy keeps the state of every distinct input it has seen; start afresh this often.
_RESET_EVERY = 1000


@dataclass(eq=False)
class _Runner:
    """One simulation of one system, reused across calls (building either is slow)."""

    rb: RuleBase
    system: ReferenceSystem
    sim: Any  # skfuzzy.control.ControlSystemSimulation
    runs: int = 0

    def run(self, x: npt.ArrayLike) -> Any:
        """Compute one input; returns the simulation, to read outputs and rule firings from."""
        values = np.asarray(x, dtype=np.float64).reshape(-1)
        if values.size != len(self.rb.inputs):
            raise ValueError(
                f"expected {len(self.rb.inputs)} inputs {self.rb.input_names} (got {values.size})"
            )
        if self.runs >= _RESET_EVERY:
            # Our reset, not scikit-fuzzy's flush_after_run: that one clears the rule
            # firings right after a compute, before they can be read.
            self.sim.reset()
            self.runs = 0
        self.sim.inputs(
            {
                name: float(v)
                for name, v in zip(self.rb.input_names, values, strict=True)
                if name in self.system.used
            }
        )
        # For an input seen before, compute() takes a cached path that leaves the
        # previous output in place when this input fired nothing: clear it first.
        self.sim.output = {}
        self.sim.compute()  # nothing fired: EmptyMembershipError, swallowed (lenient)
        self.runs += 1
        return self.sim


@functools.lru_cache(maxsize=8)
def _runner(rb: RuleBase, resolution: int | None) -> _Runner:
    from skfuzzy import control as ctrl

    system = build_control_system(rb, resolution)
    sim = ctrl.ControlSystemSimulation(
        system.control, clip_to_bounds=True, cache=True, flush_after_run=2**62
    )
    return _Runner(rb, system, sim)


def reference_grades(rb: RuleBase, X: npt.ArrayLike, resolution: int | None = None) -> FloatArray:
    """scikit-fuzzy's centroid grade of each row of X (n, n_inputs); ``rb.default`` if none fires.

    One scalar simulation per row: the slow, obvious path, on purpose. Our weighted
    average is not available in scikit-fuzzy; compare strengths for that.
    """
    xs = np.asarray(X, dtype=np.float64)
    if xs.ndim != 2 or xs.shape[1] != len(rb.inputs):
        raise ValueError(f"expected shape (n, {len(rb.inputs)}) (got {xs.shape})")
    runner = _runner(rb, resolution)
    label = rb.output.name
    out = np.empty(xs.shape[0], dtype=np.float64)
    for i, row in enumerate(xs):
        value = runner.run(row).output.get(label)
        out[i] = rb.default if value is None else float(value)
    return out


def reference_strengths(rb: RuleBase, x_row: npt.ArrayLike) -> FloatArray:
    """Per-rule firing strength x weight, in rule order, as scikit-fuzzy computes it.

    scikit-fuzzy has no per-rule weighted average, so weighted-average rule bases
    are checked through these strengths (``rule.aggregate_firing`` times weight).
    """
    runner = _runner(rb, None)
    sim = runner.run(x_row)
    return np.array(
        [
            float(r.aggregate_firing[sim]) * w
            for r, w in zip(runner.system.rules, runner.system.weights, strict=True)
        ],
        dtype=np.float64,
    )
