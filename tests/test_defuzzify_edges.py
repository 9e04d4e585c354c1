"""fuzzeval.engine.defuzzify at its edges (gaps found by mutation testing): defaults
given as ints, rule bases with no rules or no output terms, terms reaching beyond the output
range, the threshold for vertical sides, which sides get level points, and rows that cannot
disturb each other. Every expected value is worked out by hand (or by a plain sequential sum
written here)."""

from __future__ import annotations

from typing import cast

import numpy as np
import numpy.typing as npt
import pytest

from fuzzeval.engine.defuzzify import centroid, plan_centroid, weighted_average
from fuzzeval.engine.membership import Triangle

pytestmark = pytest.mark.mutation_pin

Array = npt.NDArray[np.float64]

# --- weighted_average -----------------------------------------------------------------


def test_weighted_average_with_an_int_default_grades_in_floats() -> None:
    strengths = np.array([[0.5, 0.0], [0.25, 0.0]])
    out = weighted_average(strengths, np.array([4.0, 1.0]), 0)
    assert out.dtype == np.float64
    # (0.5 * 4 + 0.25 * 1) / 0.75 = 3; nothing fires in the second column.
    assert out.tolist() == [3.0, 0.0]


@pytest.mark.parametrize("n", [1, 2, 300])
def test_weighted_average_without_rules_is_the_default(n: int) -> None:
    out = weighted_average(np.zeros((0, n)), np.zeros(0), 0.25)
    assert out.tolist() == [0.25] * n


@pytest.mark.parametrize("n", [256, 257])
def test_weighted_average_sums_rule_by_rule_for_fortran_ordered_strengths(n: int) -> None:
    rng = np.random.default_rng(7)
    rules = 16
    strengths = np.asfortranarray(rng.random((rules, n)))
    values = rng.random(rules) * 1000.0
    expected = []
    for j in range(n):
        num = den = 0.0
        for r in range(rules):
            num += float(strengths[r, j]) * float(values[r])
            den += float(strengths[r, j])
        expected.append(num / den)
    assert weighted_average(strengths, values, 0.0).tolist() == expected


# --- centroid -------------------------------------------------------------------------


def test_a_term_beyond_the_top_of_the_range_is_cut_at_hi() -> None:
    # On [0, 10] only the rising side y/10 of (0, 10, 20) is inside.
    # a = 1: centroid of y/10 on [0, 10] = (100/3) / 5 = 20/3.
    # a = 0.5: min(0.5, y/10): area 1.25 + 2.5 = 15/4, moment 25/6 + 75/4 = 275/12 -> 55/9.
    plan = plan_centroid([Triangle(0.0, 10.0, 20.0)], 0.0, 10.0)
    assert (plan.lo, plan.hi) == (0.0, 10.0)
    out = centroid(plan, np.array([[1.0], [0.5]]), 0.0)
    np.testing.assert_allclose(out, [20 / 3, 55 / 9], rtol=1e-13)


def test_a_term_beyond_the_bottom_of_the_range_is_cut_at_lo() -> None:
    # Mirror image on [0, 10] of the test above: 10 - 20/3 = 10/3 and 10 - 55/9 = 35/9.
    plan = plan_centroid([Triangle(-10.0, 0.0, 10.0)], 0.0, 10.0)
    assert (plan.lo, plan.hi) == (0.0, 10.0)
    out = centroid(plan, np.array([[1.0], [0.5]]), 0.0)
    np.testing.assert_allclose(out, [10 / 3, 35 / 9], rtol=1e-13)


def test_a_vertical_side_is_vertical_whatever_the_width() -> None:
    # On [0, 100], (50, 50, 100) has a vertical rising side (slope 1e12 / 100 = 1e10, over
    # the threshold 1e9 / 100); the set is the falling side alone: centroid 50 + 50/3.
    plan = plan_centroid([Triangle(50.0, 50.0, 100.0)], 0.0, 100.0)
    assert plan.vertical_rise.tolist() == [True]
    assert plan.vertical_fall.tolist() == [False]
    out = centroid(plan, np.array([[1.0]]), 0.0)
    np.testing.assert_allclose(out, [200 / 3], rtol=1e-12)


W = 1e9 * 2.0**-30  # exact: the threshold 1e9 / W is exactly 2**30
EPS = 2.0**-30  # a side this long has slope exactly 2**30


def test_a_side_exactly_at_the_threshold_is_vertical_and_has_no_level_points() -> None:
    rising = plan_centroid([Triangle(0.0, EPS, W)], 0.0, W)
    assert rising.vertical_rise.tolist() == [True]
    assert rising.vertical_fall.tolist() == [False]
    assert rising.var_term.tolist() == [0]  # the falling side's level point only
    assert rising.var_base.tolist() == [W]
    falling = plan_centroid([Triangle(0.0, W - EPS, W)], 0.0, W)
    assert falling.vertical_rise.tolist() == [False]
    assert falling.vertical_fall.tolist() == [True]
    assert falling.var_term.tolist() == [0]  # the rising side's level point only
    assert falling.var_base.tolist() == [0.0]


def test_only_overlapping_terms_give_a_side_level_points() -> None:
    # (0, 1, 2) and (2, 3, 4) only touch: each side gets its own term's level point only.
    plan = plan_centroid([Triangle(0.0, 1.0, 2.0), Triangle(2.0, 3.0, 4.0)], 0.0, 4.0)
    assert plan.var_term.tolist() == [0, 0, 1, 1]
    assert plan.var_base.tolist() == [0.0, 2.0, 2.0, 4.0]
    assert plan.var_coef.tolist() == [1.0, -1.0, 1.0, -1.0]
    out = centroid(plan, np.array([[1.0, 1.0], [1.0, 0.0]]), 0.0)
    np.testing.assert_allclose(out, [2.0, 1.0], rtol=1e-13)


def test_no_output_terms_gives_the_default() -> None:
    plan = plan_centroid([], 0.0, 10.0)
    assert plan.var_term.dtype == np.intp
    assert centroid(plan, np.zeros((2, 0)), 3.0).tolist() == [3.0, 3.0]


def test_centroid_with_an_int_default_grades_in_floats() -> None:
    plan = plan_centroid([Triangle(0.0, 5.0, 10.0)], 0.0, 10.0)
    out = centroid(plan, np.array([[1.0], [0.0]]), 0)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, [5.0, 0.0], rtol=1e-13)


def test_a_nan_activation_does_not_touch_the_other_rows() -> None:
    plan = plan_centroid([Triangle(0.0, 5.0, 10.0)], 0.0, 10.0)
    out = centroid(plan, np.array([[1.0], [np.nan], [0.5]]), 7.0)
    np.testing.assert_allclose(out[[0, 2]], [5.0, 5.0], rtol=1e-13)
    assert out[1] == 7.0


def test_a_fired_term_outside_the_range_gives_the_default_not_nan() -> None:
    plan = plan_centroid([Triangle(20.0, 30.0, 40.0)], 0.0, 10.0)
    with np.errstate(all="raise"):
        out = centroid(plan, np.array([[1.0]]), 7.0)
    assert out.tolist() == [7.0]


def test_plans_are_in_float64_for_int_points() -> None:
    # Triangle points given as ints (as YAML or a caller may): the centroid of the whole
    # triangle (0, 3, 9) is (0 + 3 + 9) / 3 = 4.
    plan = plan_centroid([Triangle(0, 3, 9)], 0, 9)
    for field in (plan.peak, plan.rise, plan.fall, plan.fixed, plan.var_base, plan.var_coef):
        assert field.dtype == np.float64
    np.testing.assert_allclose(centroid(plan, np.array([[1.0]]), 0.0), [4.0], rtol=1e-13)


def test_plans_are_in_float64_for_float32_points() -> None:
    # side_slopes gives float32 slopes for float32 points; the plan still holds float64.
    pts = [cast(float, np.float32(v)) for v in (0.0, 3.0, 10.0)]
    plan = plan_centroid([Triangle(*pts)], 0.0, 10.0)
    for field in (plan.peak, plan.rise, plan.fall, plan.fixed, plan.var_base, plan.var_coef):
        assert field.dtype == np.float64


def test_weighted_average_sums_rule_by_rule_for_fortran_ordered_strengths_below_256() -> None:
    """Found while sorting survivors: a Fortran-ordered (R, n) array with n < 256 was summed
    pairwise along the rules, not in rule order as the docstring says."""
    from fuzzeval.engine.defuzzify import weighted_average

    rng = np.random.default_rng(3)
    strengths = np.asfortranarray(rng.random((300, 255)))
    values = rng.random(300)
    num = np.zeros(255)
    den = np.zeros(255)
    for r in range(300):  # the plain sequential sum, rule after rule
        num = num + strengths[r] * values[r]
        den = den + strengths[r]
    assert np.array_equal(weighted_average(strengths, values, 0.0), num / den)


def test_moving_points_that_do_not_exist_names_each() -> None:
    from fuzzeval.engine.rulebase import PointRef
    from fuzzeval.formats.loading import load_rulebase

    rb = load_rulebase("tipping")
    with pytest.raises(KeyError) as raised:
        rb.with_points({PointRef("quality", "fine", "peak"): 5.0,
                        PointRef("tip", "low", "left"): 1.0})
    assert raised.value.args == ("no such points: quality.fine.peak, tip.low.left",)
