"""fuzzeval.engine.membership against hand-worked numbers and scikit-fuzzy's ``trimf``: the
membership function, the slopes of vertical sides, and the loader's range, resolution and
triangle checks at their exact boundaries (gaps found by mutation testing)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from fuzzeval.engine.membership import (
    Triangle,
    membership,
    number_text,
    range_problem,
    resolution,
    resolution_problem,
    side_slopes,
    triangle_problem,
)

pytestmark = pytest.mark.mutation_pin

SMALLEST_NORMAL = sys.float_info.min  # 2.2250738585072014e-308

# --- number_text ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "want"),
    [(10.0, "10"), (3, "3"), (-2.0, "-2"), (0.5, "0.5"), (5e-324, "5e-324"), (1e16, "1e+16"),
     (0.05, "0.05")],
)
def test_number_text_is_the_shortest_text_without_a_trailing_point_zero(
    x: float, want: str
) -> None:
    assert number_text(x) == want


# --- resolution and range_problem ----------------------------------------------------


@pytest.mark.parametrize(
    ("lo", "hi", "want"),
    [(0.0, 1.0, 1e-9),  # floor of 1
     (0.1, 0.5, 1e-9),  # |lo|, |hi| < 1: still the floor
     (0.0, 4.0, 4e-9),  # |hi| is the largest
     (-3.0, 1.0, 3e-9),  # |lo| is the largest
     (-5.0, 2.0, 5e-9)],
)
def test_resolution_is_1e_9_times_the_largest_of_1_and_the_ends(
    lo: float, hi: float, want: float
) -> None:
    assert resolution(lo, hi) == pytest.approx(want, rel=1e-12)


def test_a_range_exactly_the_resolution_wide_is_accepted() -> None:
    assert range_problem(0.0, 1e-9) is None
    assert range_problem(-1.0, 1.0) is None


def test_a_too_narrow_range_names_the_bound_and_the_range() -> None:
    assert range_problem(0.0, 5e-10) == (
        "must be at least 1e-09 * max(1, |low|, |high|) = 1e-09 wide (got [0, 5e-10])"
    )
    assert range_problem(100.0, 100.00000001) == (
        "must be at least 1e-09 * max(1, |low|, |high|) = 1e-07 wide "
        "(got [100, 100.00000001])"
    )


# --- resolution_problem: output triangles --------------------------------------------


def test_output_points_closer_than_the_resolution_on_one_side_are_refused() -> None:
    # [0, 10]: the resolution is 1e-8.
    assert resolution_problem((0.0, 5e-9, 10.0), 0.0, 10.0, True) == (
        "points must be equal or at least 1e-09 * max(1, |low|, |high|) = 1e-08 apart "
        "(got [0, 5e-09, 10])"
    )
    # Only the rising side is short, away from 0 (peak + left is not small).
    assert resolution_problem((2.0, 2.000000005, 10.0), 0.0, 10.0, True) is not None
    # Only the falling side is short, away from 0.
    assert resolution_problem((0.0, 7.999999995, 8.0), 0.0, 10.0, True) is not None
    assert resolution_problem((-8.0, -7.999999995, 0.0), -10.0, 10.0, True) is not None


def test_output_points_exactly_the_resolution_apart_or_equal_are_accepted() -> None:
    # [0, 1]: the resolution is exactly 1e-9.
    assert resolution_problem((0.0, 1e-9, 1.0), 0.0, 1.0, True) is None
    assert resolution_problem((0.0, 0.0, 1e-9), 0.0, 1.0, True) is None
    assert resolution_problem((0.0, 0.0, 0.0), 0.0, 1.0, True) is None
    assert resolution_problem((0.0, 0.5, 1.0), 0.0, 1.0, True) is None


def test_input_points_only_need_a_finite_slope() -> None:
    # Far closer than an output's resolution, but a normal double apart: accepted.
    assert resolution_problem((0.0, 5e-9, 10.0), 0.0, 10.0, False) is None
    assert resolution_problem((0.0, SMALLEST_NORMAL, 1.0), 0.0, 1.0, False) is None
    assert resolution_problem((0.0, 0.0, SMALLEST_NORMAL), 0.0, 1.0, False) is None


def test_input_points_closer_than_the_smallest_normal_are_refused() -> None:
    assert resolution_problem((0.0, 5e-324, 1.0), 0.0, 1.0, False) == (
        "points must be equal or at least 2.23e-308 apart, so that a side's slope is "
        "finite (got [0, 5e-324, 1])"
    )
    # Rising side short, straddling 0 (peak + left is negative).
    assert resolution_problem((-1e-308, 0.0, 1.0), -1.0, 1.0, False) is not None
    # Falling side short, with the other side long.
    assert resolution_problem((0.0, 0.0, 1e-308), 0.0, 1.0, False) is not None
    assert resolution_problem((-1.0, -1e-308, 0.0), -1.0, 1.0, False) is not None


# --- triangle_problem and Triangle ---------------------------------------------------


def test_a_triangle_sticking_out_on_either_side_is_refused_with_its_points() -> None:
    assert triangle_problem((-1.0, 0.0, 1.0), 0.0, 2.0) == (
        "points must lie inside the range [0, 2] (got [-1.0, 0.0, 1.0])"
    )
    assert triangle_problem((1.0, 2.0, 3.0), 0.0, 2.0) == (
        "points must lie inside the range [0, 2] (got [1.0, 2.0, 3.0])"
    )
    assert triangle_problem((0.0, 1.0, 2.0), 0.0, 2.0) is None


def test_an_unordered_triangle_names_its_points() -> None:
    with pytest.raises(ValueError, match=r"^triangle needs left <= peak <= right \(got \[2\.0, "
                                         r"1\.0, 3\.0\]\)$"):
        Triangle(2.0, 1.0, 3.0)


# --- side_slopes and membership ------------------------------------------------------


def test_a_vertical_side_is_1e12_over_the_width_steep() -> None:
    rise, fall = side_slopes(Triangle(0.0, 0.0, 4.0), 4.0)
    assert rise == pytest.approx(2.5e11) and fall == 0.25
    rise, fall = side_slopes(Triangle(0.0, 2.0, 2.0), 8.0)
    assert rise == 0.5 and fall == pytest.approx(1.25e11)
    assert side_slopes(Triangle(1.0, 3.0, 7.0), 10.0) == (0.5, 0.25)


def test_membership_next_to_a_vertical_side_scales_with_the_width() -> None:
    # Slope 1e12 / 4: a quarter of 1e-12 * 4 from the peak is membership 0.75.
    tri = Triangle(1.0, 1.0, 4.0)
    got = membership([1.0 - 1e-12, 1.0, 1.0 - 4e-12], tri, width=4.0)
    assert got == pytest.approx([0.75, 1.0, 0.0], abs=1e-3)


def test_membership_by_hand() -> None:
    tri = Triangle(0.0, 2.0, 6.0)
    xs = np.array([[-1.0, 0.0, 1.0, 2.0], [4.0, 5.0, 6.0, 7.0]])
    want = np.array([[0.0, 0.0, 0.5, 1.0], [0.5, 0.25, 0.0, 0.0]])
    got = membership(xs, tri)
    assert got.shape == (2, 4)
    np.testing.assert_allclose(got, want, atol=1e-15)


def test_membership_below_tiny_is_zero() -> None:
    tri = Triangle(0.0, 1.0, 2.0)
    got = membership([1e-13, 2.0 - 1e-13, 1e-6], tri)
    assert got[0] == 0.0
    assert got[1] == 0.0
    assert got[2] == pytest.approx(1e-6, rel=1e-6)


def test_a_singleton_is_one_exactly_at_its_point() -> None:
    got = membership([2.0, 2.0 + 1e-6, 2.0 - 1e-6], Triangle(2.0, 2.0, 2.0), width=10.0)
    assert list(got) == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("points", [(0.0, 2.0, 6.0), (-3.0, -1.0, 4.0), (1.0, 5.0, 5.5)])
def test_membership_matches_skfuzzy_trimf(points: tuple[float, float, float]) -> None:
    x = np.linspace(-5.0, 10.0, 301)
    from skfuzzy import trimf  # here, not at collection: 0.5 s of scipy and networkx

    want = trimf(x, list(points))
    np.testing.assert_allclose(membership(x, Triangle(*points)), want, atol=1e-12)


def test_membership_without_a_width_takes_a_width_of_one() -> None:
    # Vertical left side at 1: slope 1e12 / 1, so half of 1e-12 below the peak is 0.5.
    got = membership([1.0 - 0.5e-12], Triangle(1.0, 1.0, 4.0))
    assert got[0] == pytest.approx(0.5, abs=1e-3)
