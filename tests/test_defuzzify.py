"""fuzzeval.engine.defuzzify against hand-worked centroids and weighted averages, and against a
brute-force integration of max_t min(a_t, mu_t(y)) on a fine grid (written here, without
the closed form): overlapping terms, vertical sides inside the range, shoulders at the
ends, several candidates at once; and the weighted average giving the rule base's
``default`` (not 0) where no rule fires, directly and through a compiled rule base."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from fuzzeval import compile_rulebase, parse_rulebase
from fuzzeval.engine.defuzzify import centroid, plan_centroid, weighted_average
from fuzzeval.engine.membership import Triangle

Array = npt.NDArray[np.float64]


def _mu(y: Array, tri: Triangle) -> Array:
    """Textbook membership, vertical sides as steps (1 at the peak)."""
    left, peak, right = tri.points
    out = np.zeros_like(y)
    if peak > left:
        rising = (y >= left) & (y <= peak)
        out[rising] = (y[rising] - left) / (peak - left)
    if right > peak:
        falling = (y >= peak) & (y <= right)
        out[falling] = (right - y[falling]) / (right - peak)
    out[y == peak] = 1.0
    return out


def _brute(tris: list[Triangle], act: list[float], lo: float, hi: float,
           default: float) -> float:
    y = np.linspace(lo, hi, 400_001)
    f = np.zeros_like(y)
    for t, a in zip(tris, act, strict=True):
        f = np.maximum(f, np.minimum(a, _mu(y, t)))
    area = np.trapezoid(f, y)
    return float(np.trapezoid(f * y, y) / area) if area > 0 else default


def _grade(tris: list[Triangle], act: list[list[float]], lo: float, hi: float,
           default: float = -99.0) -> Array:
    plan = plan_centroid(tris, lo, hi)
    return centroid(plan, np.array(act, dtype=np.float64), default)


# --- centroid by hand -----------------------------------------------------------------


@pytest.mark.mutation_pin
def test_a_fully_active_triangle_has_the_mean_of_its_vertices() -> None:
    got = _grade([Triangle(1.0, 2.0, 6.0)], [[1.0], [0.3]], 0.0, 10.0)
    assert got[0] == pytest.approx(3.0, abs=1e-12)  # (1 + 2 + 6) / 3


@pytest.mark.mutation_pin
def test_a_clipped_left_shoulder_by_hand() -> None:
    # [0, 0, 4] clipped at 1/2: flat 1/2 on [0, 2], then (4 - y) / 4 down to 4.
    # Area 1 + 1/2 = 3/2; moment 1 + 4/3 = 7/3; centroid 14/9.
    got = _grade([Triangle(0.0, 0.0, 4.0)], [[0.5]], 0.0, 8.0)
    assert got[0] == pytest.approx(14 / 9, abs=1e-12)


@pytest.mark.mutation_pin
def test_a_clipped_right_shoulder_inside_the_range_by_hand() -> None:
    # [4, 8, 8] on [0, 10] clipped at 1/2: mirror image of the case above about y = 6,
    # and nothing beyond its vertical right side at 8: centroid 12 - 14/9... around 8:
    # mirror of [0, 0, 4] about 4 -> 8 - 14/9.
    got = _grade([Triangle(4.0, 8.0, 8.0)], [[0.5]], 0.0, 10.0)
    assert got[0] == pytest.approx(8.0 - 14 / 9, abs=1e-9)  # vertical: 1e-12 of the range


@pytest.mark.mutation_pin
def test_two_disjoint_terms_weigh_by_their_areas() -> None:
    # [0, 1, 2] at 1: area 1, centroid 1.  [6, 7, 8] at 1/2: trapezoid symmetric about 7,
    # area 2 * 1/2 - 1/4 = 3/4.  (1 * 1 + 3/4 * 7) / (7/4) = 25/7.
    got = _grade([Triangle(0.0, 1.0, 2.0), Triangle(6.0, 7.0, 8.0)], [[1.0, 0.5]], 0.0, 8.0)
    assert got[0] == pytest.approx(25 / 7, abs=1e-12)


@pytest.mark.mutation_pin
def test_nothing_active_gives_the_default_for_that_candidate_only() -> None:
    tris = [Triangle(0.0, 2.0, 4.0), Triangle(4.0, 6.0, 8.0)]
    got = _grade(tris, [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]], 0.0, 8.0, default=0.25)
    assert list(got) == [0.25, pytest.approx(6.0), pytest.approx(2.0)]


# --- centroid against brute force -------------------------------------------------------

CASES: list[tuple[list[tuple[float, float, float]], float, float]] = [
    # overlapping, all sloped
    ([(0, 4, 8), (4, 8, 12), (2, 6, 10)], 0.0, 12.0),
    # vertical sides inside the range, both directions, crossing sloped sides
    ([(2, 5, 5), (5, 5, 9), (0, 3, 7), (4, 8, 12)], 0.0, 12.0),
    # shoulders at both ends, a narrow middle term, a negative range
    ([(-10, -10, -4), (-6, -5, -3), (-5, 0, 0), (-8, -2, -1)], -10.0, 0.0),
    # vertical sides of terms that do not overlap one another
    ([(1, 3, 3), (6, 6, 9)], 0.0, 10.0),
]


@pytest.mark.mutation_pin
@pytest.mark.parametrize(("points", "lo", "hi"), CASES)
def test_centroids_match_brute_force_integration(
    points: list[tuple[float, float, float]], lo: float, hi: float
) -> None:
    tris = [Triangle(*map(float, p)) for p in points]
    rng = np.random.default_rng(len(points))
    acts = rng.choice([0.0, 0.1, 0.25, 0.5, 0.8, 1.0], size=(12, len(tris)))
    acts[0] = 1.0
    acts[1] = 0.0
    acts[2] = rng.uniform(0, 1, len(tris))
    got = _grade(tris, acts.tolist(), lo, hi, default=1234.5)
    for a, g in zip(acts, got, strict=True):
        want = _brute(tris, list(a), lo, hi, default=1234.5)
        assert g == pytest.approx(want, abs=2e-4 * (hi - lo)), (list(a), g, want)


# --- weighted average ---------------------------------------------------------------------


def _wa_by_hand(s: Array, v: Array, default: float) -> list[float]:
    out = []
    for j in range(s.shape[1]):
        den = float(sum(s[:, j]))
        out.append(float(sum(s[:, j] * v)) / den if den > 0 else default)
    return out


@pytest.mark.mutation_pin
@pytest.mark.parametrize("n", [1, 2, 3, 255, 256, 300])
def test_weighted_average_by_hand_for_any_number_of_candidates(n: int) -> None:
    rng = np.random.default_rng(n)
    s = rng.uniform(0, 1, (4, n)) * (rng.uniform(0, 1, (4, n)) < 0.6)
    s[:, 0] = [0.5, 0.0, 0.25, 0.25]  # (0.5 * 2 + 0.25 * -4 + 0.25 * 8) / 1 = 2
    if n > 1:
        s[:, 1] = 0.0  # nothing fires
    v = np.array([2.0, 100.0, -4.0, 8.0])
    got = weighted_average(s, v, default=-7.5)
    assert got.shape == (n,)
    assert got[0] == pytest.approx(2.0, abs=1e-12)
    if n > 1:
        assert got[1] == -7.5
    assert list(got) == pytest.approx(_wa_by_hand(s, v, -7.5), abs=1e-12)


@pytest.mark.mutation_pin
def test_weighted_average_without_rules_is_the_default() -> None:
    got = weighted_average(np.zeros((0, 3)), np.zeros(0), default=0.75)
    assert list(got) == [0.75, 0.75, 0.75]


# --- the weighted average default where no rule fires ---------------------------------


@pytest.mark.audit
def test_weighted_average_gives_the_default_where_nothing_fires() -> None:
    values = np.array([1.0, 3.0, -2.0])
    strengths = np.array([[0.0, 0.5, 0.0, 1.0],
                          [0.0, 0.5, 0.0, 0.0],
                          [0.0, 0.0, 0.0, 1.0]])
    got = weighted_average(strengths, values, default=0.7)
    # Columns 0 and 2: no rule fires. Column 1: (0.5 + 1.5) / 1. Column 3: (1 - 2) / 2.
    assert got.tolist() == [0.7, 2.0, 0.7, -0.5]
    assert weighted_average(np.zeros((3, 2)), values, default=-0.25).tolist() == [-0.25, -0.25]
    assert weighted_average(np.zeros((0, 2)), values[:0], default=4.0).tolist() == [4.0, 4.0]


@pytest.mark.audit
def test_a_weighted_average_rule_base_grades_its_default_where_no_rule_fires() -> None:
    rb, problems = parse_rulebase("""
name: gap
defuzzifier: weighted_average
default: 0.25
inputs:
  x: {range: [0, 10], terms: {low: [0, 0, 2], high: [8, 10, 10]}}
output: {name: y, range: [0, 1], terms: {bad: 0, good: 1}}
rules:
  - if x is low then y is bad
  - if x is high then y is good
""")
    assert rb is not None, problems
    ev = compile_rulebase(rb)
    grades = ev.grade([[5.0], [0.0], [9.0], [1.0]])
    assert grades.tolist() == [0.25, 0.0, 1.0, 0.0]
    exp = ev.explain({"x": 5})
    assert not exp.fired and exp.grade == 0.25
    assert ev.grade([[5.0]] * 3).tolist() == pytest.approx([0.25] * 3)
