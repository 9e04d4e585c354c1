"""Hypothesis strategies for random rule bases, and a slow scalar oracle written
independently of fuzzeval.engine.evaluator (plain Python recursion, brute-force grid)."""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import strategies as st

from fuzzeval.engine.membership import Triangle
from fuzzeval.engine.rulebase import And, Condition, Is, Not, Or, Rule, RuleBase, Term, Variable
from fuzzeval.formats.loading import parse_rulebase


def _grid_point(lo: float, hi: float, k: int) -> float:
    return lo + (hi - lo) * k / 20


@st.composite
def triangles(draw: st.DrawFn, lo: float, hi: float, allow_singleton: bool = True) -> Triangle:
    # mapped by a named function, not a new lambda: hypothesis compiles a lambda's source
    # to describe it, once per triangle, which cost more than drawing the triangle.
    grid = st.integers(0, 20).map(functools.partial(_grid_point, lo, hi))
    pts = sorted(draw(st.lists(grid, min_size=3, max_size=3)))
    if not allow_singleton and pts[0] == pts[2]:
        pts = [lo, pts[1], hi]
    return Triangle(*pts)


@st.composite
def variables(draw: st.DrawFn, name: str, is_output: bool = False) -> Variable:
    lo = draw(st.sampled_from([0.0, -1.0, -10.0, 2.5]))
    hi = lo + draw(st.sampled_from([1.0, 2.0, 6.0, 15.0, 25.0]))
    n = draw(st.integers(1, 4))
    terms = tuple(
        Term(f"t{i}", draw(triangles(lo, hi, allow_singleton=not is_output))) for i in range(n)
    )
    return Variable(name, lo, hi, terms)


def _and(parts: list[Condition]) -> Condition:
    return And(tuple(parts))


def _or(parts: list[Condition]) -> Condition:
    return Or(tuple(parts))


def conditions(inputs: tuple[Variable, ...]) -> st.SearchStrategy[Condition]:
    leaves = st.sampled_from([Is(v.name, t.name) for v in inputs for t in v.terms])
    return st.recursive(
        leaves,
        lambda sub: st.one_of(
            sub.map(Not),
            st.lists(sub, min_size=2, max_size=3).map(_and),
            st.lists(sub, min_size=2, max_size=3).map(_or),
        ),
        max_leaves=5,
    )


@st.composite
def rulebases(draw: st.DrawFn, defuzzifier: str | list[str] | None = None,
              max_rules: int = 6) -> RuleBase:
    n_in = draw(st.integers(1, 3))
    inputs = tuple(draw(variables(f"x{i}")) for i in range(n_in))
    output = draw(variables("y", is_output=True))
    # Built once for all the rules: hypothesis validates a new recursive strategy each time
    # one is built, which took most of the time of drawing a base of 30 rules.
    condition = conditions(inputs)
    conclusion = st.sampled_from(output.term_names)
    weight = st.sampled_from([1.0, 1.0, 0.5, 0.25])
    rules = tuple(
        Rule(draw(condition), draw(conclusion), draw(weight))
        for _ in range(draw(st.integers(1, max_rules)))
    )
    defuzz = defuzzifier if isinstance(defuzzifier, str) else draw(
        st.sampled_from(defuzzifier or ["centroid", "weighted_average"]))
    default = output.lo + (output.hi - output.lo) * draw(st.sampled_from([0.0, 0.3, 1.0]))
    return RuleBase("random", defuzz, default, inputs, output, rules)  # type: ignore[arg-type]


def _snap(x: float, var: Variable) -> float:
    """Move an input lying within 1e-9 of the width of a vertex (a grid point k/20) onto it.

    The engine draws a vertical side as a slope of 1e12/width (fuzzeval/engine/membership.py), so an
    input closer than that to a vertical side gets partial membership where the textbook
    formula says 0: a documented approximation, kept out of this comparison. Inputs exactly
    on vertices are still drawn."""
    k = round((x - var.lo) / var.width * 20)
    vertex = var.lo + var.width * k / 20
    return vertex if abs(x - vertex) < 1e-9 * var.width else x


def inputs_for(rb: RuleBase) -> st.SearchStrategy[list[float]]:
    """Inputs including values outside each range (to exercise clipping)."""
    return st.tuples(
        *[
            st.floats(v.lo - 0.3 * v.width, v.hi + 0.3 * v.width, allow_nan=False).map(
                functools.partial(_snap, var=v)
            )
            for v in rb.inputs
        ]
    ).map(list)


# --- oracle -------------------------------------------------------------------------


def mu(x: float, tri: Triangle) -> float:
    """Triangle membership, the textbook way; below 1e-12 counts as 0 (documented rule)."""
    left, peak, right = tri.points
    if x == peak:
        return 1.0
    value = 0.0
    if left < x < peak:
        value = (x - left) / (peak - left)
    elif peak < x < right:
        value = (right - x) / (right - peak)
    return value if value >= 1e-12 else 0.0


def truth(cond: Condition, memberships: dict[tuple[str, str], float]) -> float:
    if isinstance(cond, Is):
        return memberships[(cond.variable, cond.term)]
    if isinstance(cond, Not):
        return 1.0 - truth(cond.operand, memberships)
    values = [truth(c, memberships) for c in cond.operands]
    return min(values) if isinstance(cond, And) else max(values)


def oracle_strengths(rb: RuleBase, x: list[float]) -> list[float]:
    memberships = {}
    for var, value in zip(rb.inputs, x, strict=True):
        clipped = min(max(value, var.lo), var.hi)
        for t in var.terms:
            memberships[(var.name, t.name)] = mu(clipped, t.triangle)
    return [r.weight * truth(r.condition, memberships) for r in rb.rules]


def oracle_grade(rb: RuleBase, x: list[float], grid_points: int = 400_001) -> float:
    """Weighted average by definition; centroid by brute force on a very fine grid."""
    s = oracle_strengths(rb, x)
    if not any(v > 0 for v in s):
        return rb.default
    if rb.defuzzifier == "weighted_average":
        values = [rb.output.term(r.output_term).triangle.peak for r in rb.rules]
        return math.fsum(a * b for a, b in zip(s, values, strict=True)) / math.fsum(s)
    y = np.linspace(rb.output.lo, rb.output.hi, grid_points)
    agg = np.zeros_like(y)
    for t in rb.output.terms:
        act = max((v for v, r in zip(s, rb.rules, strict=True) if r.output_term == t.name),
                  default=0.0)
        left, peak, right = t.triangle.points
        m = np.zeros_like(y)
        if peak > left:
            m = np.where((y > left) & (y < peak), (y - left) / (peak - left), m)
        if right > peak:
            m = np.where((y > peak) & (y < right), (right - y) / (right - peak), m)
        m = np.where(y == peak, 1.0, m)
        agg = np.maximum(agg, np.minimum(act, m))
    w = np.full_like(y, y[1] - y[0])
    w[0] = w[-1] = w[0] / 2
    return float((w * y * agg).sum() / (w * agg).sum())


def one_term(points: str, adjust: str) -> RuleBase:
    """A rule base of one input with one term, its points and adjust list as YAML text."""
    rb, problems = parse_rulebase(f"""\
name: t
defuzzifier: weighted_average
default: 0
inputs:
  q:
    range: [0, 10]
    terms:
      t: {{points: {points}, adjust: {adjust}}}
output: {{name: y, range: [0, 1], terms: {{a: 0, b: 1}}}}
rules: ["if q is t then y is b"]
""")
    assert rb is not None, problems
    return rb
