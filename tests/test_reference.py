"""Our engine against scikit-fuzzy (fuzzeval.interop.reference) and against brute-force integration.

Our centroid is exact (closed form). scikit-fuzzy's is exact only up to its grid:
it samples the aggregated set on its universe plus the points where each output
term meets its *own* cut, and integrates the straight lines between them. So the
tolerance of every centroid comparison is a bound on that grid error, derived in
``grid_bound`` below from the grid step; where it is loose, the measured errors
are noted next to it.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from fuzzeval import Evaluator, RuleBase, compile_rulebase, load_rulebase, parse_rulebase
from fuzzeval.engine.rulebase import And, Condition, Is, Not
from fuzzeval.interop.reference import (
    build_control_system,
    reference_grades,
    reference_strengths,
    universe,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
RULEBASES = ROOT / "rulebases"

Array = npt.NDArray[np.float64]

# scikit-fuzzy 0.5.0 calls np.maximum with three positional arguments (numpy 2 deprecation).
pytestmark = pytest.mark.filterwarnings(
    "ignore:Passing more than 2 positional arguments:DeprecationWarning"
)

# scikit-fuzzy's documentation ("The Tipping Problem"): tip for quality 6.5, service 9.8.
SKFUZZY_DOCS_TIP = 19.847607361963192

# --- rule bases written for these tests ------------------------------------------

# Three inputs with overlapping, non-partition terms (a.wide spans low, mid and
# high; b.spike sits inside zero and pos, with a vertical right side at 2), shoulders
# at every range edge, output terms overlapping three deep (t2, t3, t4 on 40..60),
# or / not / parentheses / and-binds-tighter-than-or, and weights.
MIXED = """
name: mixed
defuzzifier: centroid
default: 42.5
inputs:
  a:
    range: [0, 10]
    terms: {low: [0, 0, 4], mid: [2, 5, 8], high: [6, 10, 10], wide: [1, 6, 10]}
  b:
    range: [-5, 5]
    terms: {neg: [-5, -5, 0], zero: [-3, 0, 3], pos: [0, 5, 5], spike: [1, 2, 2]}
  c:
    range: [0, 1]
    terms: {lo: [0, 0, 0.6], hi: [0.3, 1, 1]}
output:
  name: y
  range: [0, 100]
  terms:
    t1: [0, 0, 40]
    t2: [10, 35, 60]
    t3: [25, 50, 75]
    t4: [40, 65, 90]
    t5: [60, 100, 100]
rules:
  - if a is low or b is neg then y is t1
  - rule: if (a is mid or a is wide) and not b is pos then y is t2
    weight: 0.7
  - rule: if not (a is high and c is hi) then y is t3
    weight: 0.4
  - if b is spike or (c is lo and a is wide) then y is t4
  - if a is high and b is pos or c is hi and not (b is neg or a is low) then y is t5
  - rule: if b is zero and c is not lo then y is t3
    weight: 0.9
"""

# Terms that leave gaps (x in (3, 5) or [6, 7] fires nothing: the default), vertical
# sides inside the range (x.cliff and the output's step), a weight, 'not', parentheses.
GAPPY = """
name: gappy
defuzzifier: centroid
default: -3.25
inputs:
  x:
    range: [0, 10]
    terms: {left: [0, 0, 3], cliff: [5, 5, 6], right: [7, 10, 10]}
  z:
    range: [-1, 1]
    terms: {neg: [-1, -1, 0], mid: [-0.5, 0, 0.5], pos: [0, 1, 1]}
output:
  name: g
  range: [-10, 10]
  terms: {down: [-10, -10, 0], flat: [-5, 0, 5], step: [2, 2, 8], up: [0, 10, 10]}
rules:
  - if x is left and z is neg then g is down
  - if x is right and (z is pos or z is mid) then g is up
  - rule: if x is cliff and not z is neg then g is step
    weight: 0.6
  - if x is left and z is mid then g is flat
"""

# Weighted average with or / not / parentheses / weights, singleton and triangle
# output terms (only the peaks count), a vertical side inside the range (p.odd), and
# q terms that leave (-0.3, 0.3) uncovered.
WA_MIXED = """
name: wa_mixed
defuzzifier: weighted_average
default: 0.25
inputs:
  p:
    range: [0, 20]
    terms: {few: [0, 0, 8], some: [4, 10, 16], many: [12, 20, 20], odd: [9, 9, 11]}
  q:
    range: [-1, 1]
    terms: {neg: [-1, -1, -0.3], pos: [0.3, 1, 1]}
output:
  name: score
  range: [-1, 1]
  terms: {bad: -1, poor: -0.5, ok: 0, fair: [-0.6, 0.3, 0.9], great: 1}
rules:
  - if p is few or q is neg then score is bad
  - rule: if not (p is some or q is pos) and p is many then score is poor
    weight: 0.3
  - if p is some and not q is neg then score is ok
  - rule: if (p is many or p is odd) and (q is pos or not p is few) then score is great
    weight: 0.8
  - if p is odd then score is fair
"""


def _parse(text: str) -> RuleBase:
    rb, problems = parse_rulebase(text)
    assert rb is not None, problems
    return rb


def _load(path: Path) -> RuleBase:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "no rule uses this term"
        return load_rulebase(path)


def _sample(rb: RuleBase, n: int, rng: np.random.Generator) -> Array:
    """Uniform over each range widened by a quarter on both sides (a third of the values
    are outside and get clipped), with one value in ten put exactly on a term vertex."""
    lo = np.array([v.lo for v in rb.inputs])
    hi = np.array([v.hi for v in rb.inputs])
    x = rng.uniform(lo - 0.25 * (hi - lo), hi + 0.25 * (hi - lo), size=(n, lo.size))
    for j, var in enumerate(rb.inputs):
        vertices = np.unique([p for t in var.terms for p in t.triangle.points])
        on_vertex = rng.random(n) < 0.1
        x[on_vertex, j] = rng.choice(vertices, size=int(on_vertex.sum()))
    return x


def _activations(ev: Evaluator, x: Array) -> Array:
    """Output-term activations (n, T), in the output's term order."""
    names = ev.rulebase.output.term_names
    return np.array([[ev.explain(row).activations[t] for t in names] for row in x])


# --- how far can a centroid on a grid be from the exact one? ----------------------
#
# The aggregated set f(y) = max_t min(a_t, mu_t(y)) is piecewise linear. Its kinks
# are the term vertices, the points where a term's side meets its own cut a_t, the
# points where a side of term s meets another term's level a_t, and the crossings
# of two sides (where the max switches from one term to another).
#
# A grid centroid evaluates f exactly at its points and integrates the interpolant
# g (straight lines between points) exactly. scikit-fuzzy's grid holds the
# universe (which has every vertex; see fuzzeval.interop.reference.universe) and the own-cut
# points; our brute force below holds the vertices only. Where a cell [y0, y0 + h]
# holds no missed kink, g = f. Where it does, f - g is 0 at both ends and has slope
# at most 2S (S: steepest non-vertical output side; vertical sides only jump at a
# vertex, which is on the grid), so
#     integral over the cell of |f - g| <= min(S h^2 / 2, a_max h)
# (a tent of height S h, and both f and g lie in [0, a_max]). The missed kinks are
# at most K = n_sides * (T - 1) + n_sides * (n_sides - 1) / 2 (plus n_sides more if
# the own-cut points are not on the grid), each in at most one cell. And
#     c_g - c_f = integral (y - c_f)(g - f) dy / integral g,  |y - c_f| <= W,
# so with A_f >= A_low = max_t w_t a_t (1 - a_t / 2) (w_t: base width of term t; the
# area of one clipped triangle) and A_g >= A_f - K min(...),
#     |c_g - c_f| <= W K min(S h^2 / 2, a_max h) / (A_low - K min(S h^2 / 2, a_max h)).
# It is O(h^2) (O(h) for tiny activations, where the area is small too). It is a
# worst case -- every possible kink in its own cell at its worst spot, |y - c| = W --
# and the measured errors stay at 0.2 % to 2 % of it (noted at each test).


def grid_bound(rb: RuleBase, act: Array, h: float, own_cuts_on_grid: bool = True) -> Array:
    """Upper bound on |grid centroid - exact centroid| per row of activations ``act`` (n, T)."""
    out = rb.output
    used = {r.output_term for r in rb.rules}
    slopes: list[float] = []
    for t in out.terms:
        left, peak, right = t.triangle.points
        if t.name in used:
            slopes += [1 / (peak - left)] if peak > left else []
            slopes += [1 / (right - peak)] if right > peak else []
    n_sides = len(slopes)
    k = n_sides * (len(used) - 1) + n_sides * (n_sides - 1) // 2
    k += 0 if own_cuts_on_grid else n_sides
    s = max(slopes, default=0.0)
    w = out.hi - out.lo
    base = np.array([t.triangle.right - t.triangle.left for t in out.terms])
    a_max = act.max(axis=1)
    a_low = (base * act * (1 - act / 2)).max(axis=1)
    cell = k * np.minimum(s * h * h / 2, a_max * h)
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = np.where(a_low > cell, w * cell / (a_low - cell), w)
    slack = 1e-9 * w  # rounding; a vertical side in our engine is a slope of 1e12 / width
    return np.where(a_max > 0, bound, 0.0) + slack


# --- brute force: a second, numpy-only implementation of the semantics ------------


def _mu(x: Array, points: tuple[float, float, float]) -> Array:
    """Triangle membership; a coincident pair of points is a vertical side."""
    left, peak, right = points
    with np.errstate(divide="ignore", invalid="ignore"):
        up = np.ones_like(x) if peak == left else (x - left) / (peak - left)
        down = np.ones_like(x) if right == peak else (right - x) / (right - peak)
    return np.where((x < left) | (x > right), 0.0, np.clip(np.minimum(up, down), 0.0, 1.0))


def _degree(cond: Condition, mu: dict[tuple[str, str], Array]) -> Array:
    if isinstance(cond, Is):
        return mu[(cond.variable, cond.term)]
    if isinstance(cond, Not):
        return 1.0 - _degree(cond.operand, mu)
    parts: Array = np.array([_degree(c, mu) for c in cond.operands])
    out: Array = parts.min(axis=0) if isinstance(cond, And) else parts.max(axis=0)
    return out


def brute_force_activations(rb: RuleBase, x: Array) -> Array:
    """(n, T) activations: clip, fuzzify, min/max/1-mu, times weight, max per output term."""
    mu = {}
    for j, var in enumerate(rb.inputs):
        col = np.clip(x[:, j], var.lo, var.hi)
        for t in var.terms:
            mu[(var.name, t.name)] = _mu(col, t.triangle.points)
    names = rb.output.term_names
    act = np.zeros((x.shape[0], len(names)))
    for rule in rb.rules:
        k = names.index(rule.output_term)
        act[:, k] = np.maximum(act[:, k], rule.weight * _degree(rule.condition, mu))
    return act


def brute_force_centroids(rb: RuleBase, act: Array, n_grid: int) -> Array:
    """Trapezoid rule on linspace(lo, hi, n_grid) plus the output vertices (and the float
    just outside a vertical side, so that a jump is a jump); ``default`` if nothing fires."""
    out = rb.output
    pts = [np.linspace(out.lo, out.hi, n_grid)]
    for t in out.terms:
        pts.append(np.array(t.triangle.points))
        left, _, right = t.triangle.points
        pts.append(np.array([np.nextafter(left, -np.inf), np.nextafter(right, np.inf)]))
    y = np.unique(np.clip(np.concatenate(pts), out.lo, out.hi))
    mus = np.array([_mu(y, t.triangle.points) for t in out.terms])  # (T, N)
    grades = np.full(act.shape[0], rb.default)
    for start in range(0, act.shape[0], 16):
        a = act[start : start + 16]
        f = np.minimum(a[:, :, None], mus[None]).max(axis=1)  # (chunk, N)
        area = np.trapezoid(f, y, axis=1)
        moment = np.trapezoid(f * y, y, axis=1)
        fired = a.max(axis=1) > 0
        grades[start : start + 16][fired] = moment[fired] / area[fired]
    return grades


# --- import cost ----------------------------------------------------------------


def test_import_fuzzeval_does_not_import_skfuzzy() -> None:
    code = "import fuzzeval, fuzzeval.interop.reference, sys; print('skfuzzy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "False"


# --- scikit-fuzzy's tipping example ---------------------------------------------


@pytest.fixture(scope="module")
def tipping() -> RuleBase:
    return _load(DATA / "skfuzzy_tipping.yaml")


def _tipping_by_hand(y: Array) -> Array:
    """Aggregated tip set for quality 6.5, service 9.8, worked out by hand.

    quality: poor 0, average 0.7, good 0.3; service: poor 0, average 0.04, good 0.96.
    low: max(q.poor, s.poor) = 0; medium: s.average = 0.04; high: max(s.good, q.good) = 0.96.
    """
    low = np.clip(1 - y / 13, 0, 1)
    medium = np.clip(np.minimum(y / 13, (25 - y) / 12), 0, 1)
    high = np.clip((y - 13) / 12, 0, 1)
    clipped = np.array([np.minimum(0.0, low), np.minimum(0.04, medium), np.minimum(0.96, high)])
    out: Array = clipped.max(axis=0)
    return out


def test_tipping_brute_force(tipping: RuleBase) -> None:
    """(b) Exact engine vs a trapezoid rule with step 1e-5 written out here.

    The hand set has 5 kinks off the grid at most; each costs <= S h^2 / 2 =
    (1/12)(1e-5)^2 / 2 of area, over an area of 6.51 and |y - c| <= 25: the
    integration error is < 1e-10, so 1e-6 leaves room for rounding only.
    """
    exact, _ = _tipping_exact()
    ours = compile_rulebase(tipping).grade([[6.5, 9.8]])[0]
    assert ours == pytest.approx(exact, abs=1e-6)
    assert ours == pytest.approx(19.857759206917, abs=1e-9)  # what both give (|diff| ~ 1e-13)


@functools.cache
def _tipping_exact() -> tuple[float, float]:
    """Centroid and area of the hand set, by the trapezoid rule with step 1e-5 (once a
    process: 2.5 million points, and five tests read it)."""
    y = np.linspace(0.0, 25.0, 2_500_001)
    f = _tipping_by_hand(y)
    area = float(np.trapezoid(f, y))
    return float(np.trapezoid(f * y, y)) / area, area


def _skfuzzy_tipping_prediction(h: float) -> float:
    """What scikit-fuzzy must give on a tip grid of step h, if the missed kink is all.

    The high term's rising side (y - 13) / 12 reaches medium's level 0.04 at y = 13.48,
    a kink of the set that scikit-fuzzy does not put on its grid (it adds only the
    points where each term meets its *own* cut). In the cell [y0, y0 + h] around it,
    it draws a straight line from (y0, 0.04) to (y0 + h, (y0 + h - 13) / 12), over the
    kink: the triangle (y0, 0.04), (13.48, 0.04), (y0 + h, ...) counts as area too.
    """
    c, area = _tipping_exact()
    y0 = np.floor(13.48 / h) * h
    y1 = y0 + h
    tri_area = (13.48 - y0) * ((y1 - 13) / 12 - 0.04) / 2
    tri_centroid = (y0 + 13.48 + y1) / 3
    return float((c * area + tri_centroid * tri_area) / (area + tri_area))


def test_skfuzzy_docs_value_is_a_grid_value(tipping: RuleBase) -> None:
    """(c) scikit-fuzzy's documented 19.8476 is its integer grid, not the continuous centroid.

    On the documentation's tip universe 0, 1, ..., 25 the missed triangle (see
    _skfuzzy_tipping_prediction) has area 0.0104 at y = 13.49, far left of the
    centroid: it pulls the result down by 0.0102. Adding it to the exact set
    reproduces the documented value to 1e-11.
    """
    from skfuzzy import control as ctrl
    from skfuzzy import trimf

    # The documentation's code, literally.
    quality = ctrl.Antecedent(np.arange(0, 11, 1), "quality")
    service = ctrl.Antecedent(np.arange(0, 11, 1), "service")
    tip = ctrl.Consequent(np.arange(0, 26, 1), "tip")
    quality.automf(3)
    service.automf(3)
    tip["low"] = trimf(tip.universe, [0, 0, 13])
    tip["medium"] = trimf(tip.universe, [0, 13, 25])
    tip["high"] = trimf(tip.universe, [13, 25, 25])
    rules = [
        ctrl.Rule(quality["poor"] | service["poor"], tip["low"]),
        ctrl.Rule(service["average"], tip["medium"]),
        ctrl.Rule(service["good"] | quality["good"], tip["high"]),
    ]
    sim = ctrl.ControlSystemSimulation(ctrl.ControlSystem(rules))
    sim.input["quality"] = 6.5
    sim.input["service"] = 9.8
    sim.compute()
    docs = float(sim.output["tip"])
    assert docs == pytest.approx(SKFUZZY_DOCS_TIP, abs=1e-12)

    # Our translation on the same output grid (resolution 26 on [0, 25] is 0..25).
    assert reference_grades(tipping, [[6.5, 9.8]], resolution=26)[0] == pytest.approx(
        docs, abs=1e-12
    )

    ours = compile_rulebase(tipping).grade([[6.5, 9.8]])[0]
    assert abs(ours - docs) < 0.02
    assert abs(ours - docs) > 1e-3  # a real difference, not rounding: 0.01015
    assert _skfuzzy_tipping_prediction(1.0) == pytest.approx(docs, abs=1e-9)


@pytest.mark.parametrize(
    ("resolution", "measured"),
    # |skfuzzy - ours|; the general bound (grid_bound) is 0.024, 1.5e-3 and 9.5e-5.
    [(251, 6.6e-5), (1001, 4.1e-6), (4001, 2.6e-7)],
)
def test_tipping_fine_universe(tipping: RuleBase, resolution: int, measured: float) -> None:
    """(a) On a fine universe scikit-fuzzy agrees with us up to its grid error.

    The error is the one missed triangle: its area (13.48 - y0)(h - 13.48 + y0)/(2 * 12)
    is O(h^2), the constant set by where 13.48 falls in its cell (at resolution 10001
    it is a grid point and the error is 2e-13). So: within the general bound, equal to
    the prediction to 1e-9, and of the measured size.
    """
    ev = compile_rulebase(tipping)
    x = np.array([[6.5, 9.8]])
    h = 25.0 / (resolution - 1)
    ref = reference_grades(tipping, x, resolution)[0]
    ours = ev.grade(x)[0]
    assert abs(ref - ours) <= grid_bound(tipping, _activations(ev, x), h)[0]
    assert ref == pytest.approx(_skfuzzy_tipping_prediction(h), abs=1e-9)
    assert abs(ref - ours) == pytest.approx(measured, rel=0.05)


# --- random inputs: grades ---------------------------------------------------------

# (rule base, inputs drawn). 2,100 in all; ~4-10 ms each in scikit-fuzzy.
GRADE_CASES: dict[str, tuple[Callable[[], RuleBase], int]] = {
    "skfuzzy_tipping": (lambda: _load(DATA / "skfuzzy_tipping.yaml"), 350),
    "spec_tipping": (lambda: _load(DATA / "spec_tipping.yaml"), 300),
    "tipping": (lambda: _load(RULEBASES / "tipping.yaml"), 350),
    "mixed": (lambda: _parse(MIXED), 600),
    "gappy": (lambda: _parse(GAPPY), 500),
}


@pytest.fixture(scope="module", params=sorted(GRADE_CASES))
def grade_case(request: pytest.FixtureRequest) -> tuple[RuleBase, Array, Array]:
    """A rule base, seeded random inputs, and our activations for them."""
    make, n = GRADE_CASES[request.param]
    rb = make()
    rng = np.random.default_rng(sum(map(ord, request.param)))
    x = _sample(rb, n, rng)
    return rb, x, _activations(compile_rulebase(rb), x)


def test_random_grades_match_skfuzzy(grade_case: tuple[RuleBase, Array, Array]) -> None:
    """One vectorised grade() call against a scikit-fuzzy simulation per input.

    Measured max |error| at the rule bases' resolution 1001 (share of the bound):
    skfuzzy_tipping 1.6e-5 (1.1 %), spec_tipping 3.9e-5 (1.9 %), tipping 8.2e-6 (0.8 %),
    mixed 1.3e-4 (0.2 %), gappy 1.7e-5 (0.2 %). Half or more of the rows have an input
    outside its range; gappy has 234 rows (spec_tipping 6) where nothing fires.
    """
    rb, x, act = grade_case
    ev = compile_rulebase(rb)
    ours = ev.grade(x)
    ref = reference_grades(rb, x)
    h = rb.output.width / (rb.resolution - 1)  # vertices only make steps smaller
    bound = grid_bound(rb, act, h)
    worst = int(np.argmax(np.abs(ours - ref) / bound))
    assert np.all(np.abs(ours - ref) <= bound), (
        f"input {x[worst]}: ours {ours[worst]!r}, skfuzzy {ref[worst]!r}, bound {bound[worst]:.3g}"
    )
    # No rule fired: both give the default exactly, and that is what our activations say.
    none = act.max(axis=1) == 0
    assert np.all(ours[none] == rb.default)
    assert np.all(ref[none] == rb.default)
    if rb.name == "gappy":
        assert none.sum() > 50  # the default path is exercised


def test_random_grades_converge_like_h_squared(
    grade_case: tuple[RuleBase, Array, Array],
) -> None:
    """Ten times the grid step must give a much larger error (~100x): what remains at
    resolution 1001 is scikit-fuzzy's grid, not a disagreement that does not shrink."""
    rb, x, _ = grade_case
    x = x[:80]
    ours = compile_rulebase(rb).grade(x)
    fine = np.abs(reference_grades(rb, x) - ours).max()
    coarse = np.abs(reference_grades(rb, x, (rb.resolution - 1) // 10 + 1) - ours).max()
    assert fine <= coarse / 10  # measured ratios: 71 to 190


def test_random_grades_match_brute_force(grade_case: tuple[RuleBase, Array, Array]) -> None:
    """Independent numpy evaluation (fuzzify, rules, trapezoid on 200,001 points).

    Activations are computed here from the condition trees, not taken from our engine;
    they agree to 1e-16. Centroids within the grid bound for h = width / 2e5 (median
    bound 5e-8 to 2e-6; measured max errors 7e-10 to 1.5e-8, at most 1.1 % of it).
    """
    rb, x, act = grade_case
    x = x[:120]
    ours = compile_rulebase(rb).grade(x)
    brute_act = brute_force_activations(rb, x)
    np.testing.assert_allclose(brute_act, act[:120], rtol=0, atol=1e-12)
    n_grid = 200_001
    brute = brute_force_centroids(rb, brute_act, n_grid)
    bound = grid_bound(rb, brute_act, rb.output.width / (n_grid - 1), own_cuts_on_grid=False)
    assert np.all(np.abs(ours - brute) <= bound)


# --- random inputs: rule strengths (weighted average) -------------------------------


@pytest.mark.parametrize(
    "make",
    [lambda: _load(RULEBASES / "fuzzeval_example.yaml"), lambda: _parse(WA_MIXED)],
    ids=["fuzzeval_example", "wa_mixed"],
)
def test_weighted_average_strengths_match_skfuzzy(make: Callable[[], RuleBase]) -> None:
    """scikit-fuzzy has no per-rule weighted average: compare the rule strengths, and
    the weighted average (eq. 2) worked out here from scikit-fuzzy's strengths."""
    rb = make()
    ev = compile_rulebase(rb)
    x = _sample(rb, 250, np.random.default_rng(7))
    ours = np.array([[r.strength for r in ev.explain(row).rules] for row in x])
    ref = np.array([reference_strengths(rb, row) for row in x])
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)  # measured max 2e-16

    peaks = np.array([rb.output.term(r.output_term).triangle.peak for r in rb.rules])
    total = ref.sum(axis=1)
    expected = np.full(len(x), rb.default)
    fired = total > 0
    expected[fired] = (ref[fired] @ peaks) / total[fired]
    np.testing.assert_allclose(ev.grade(x), expected, rtol=0, atol=1e-12)  # measured 3e-16


def test_fuzzeval_paper_board() -> None:
    """The worked example's board (3, 2, 2): strengths from scikit-fuzzy, grade 0.0930."""
    rb = _load(RULEBASES / "fuzzeval_example.yaml")
    strengths = reference_strengths(rb, [3, 2, 2])
    np.testing.assert_allclose(
        strengths, [1 / 13, 0.25, 1 / 3, 1 / 14, 0.2, 0.5, 1 / 14], rtol=0, atol=1e-12
    )
    assert compile_rulebase(rb).grade([[3, 2, 2]])[0] == pytest.approx(0.0930, abs=5e-5)


# --- the translation itself ----------------------------------------------------------


def test_nothing_fires_gives_the_default() -> None:
    rb = _parse(GAPPY)
    x = np.array([[4.0, 0.0], [6.5, 1.0], [-3.0, 1.0]])  # gaps; the last is clipped to 0
    assert np.all(reference_grades(rb, x) == rb.default)
    assert np.all(compile_rulebase(rb).grade(x) == rb.default)
    assert not reference_strengths(rb, x[0]).any()
    # Repeated inputs take scikit-fuzzy's cached path, which would keep the previous
    # output when nothing fires; the reference clears it.
    again = np.array([[9.0, 1.0], [4.0, 0.0], [9.0, 1.0], [4.0, 0.0]])
    grades = reference_grades(rb, again)
    assert grades[1] == grades[3] == rb.default
    assert grades[0] == grades[2] != rb.default


def test_universe_makes_fuzzification_exact() -> None:
    rb = _parse(GAPPY)
    x_var = rb.input("x")
    grid = universe(x_var, 11)
    assert grid[0] == 0 and grid[-1] == 10
    for t in x_var.terms:
        assert set(t.triangle.points) <= set(grid.tolist())
    # x.cliff = [5, 5, 6]: a vertical side inside the range jumps within one float.
    assert np.nextafter(5.0, -np.inf) in grid
    system = build_control_system(rb, resolution=11)
    assert [r.label for r in system.rules] == [f"rule{i}" for i in range(len(rb.rules))]
    assert system.weights == (1.0, 1.0, 0.6, 1.0)
    # Just below the vertical side: 0 in both (skfuzzy would ramp over a grid step).
    below = np.nextafter(5.0, -np.inf) - 1e-9
    assert reference_strengths(rb, [below, 0.5])[2] == 0.0
    assert compile_rulebase(rb).explain({"x": below, "z": 0.5}).rules[2].strength == 0.0
