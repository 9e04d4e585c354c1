"""fuzzeval.learn.calibration_step: Eq. 1 by hand (several points of one triangle moving, one
running into a neighbour, moved or fixed), triangles that stay triangles, the bounds on
the rate, missing values among the winning inputs, no warning for a variable without
samples, a rounding hair between two moving points, PointMove's dict form; and rule-base
text that keeps its comments."""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval import load_rulebase, parse_rulebase
from fuzzeval.engine.membership import POINT_NAMES
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.formats.yaml_edit import rewrite_points
from fuzzeval.learn.calibration_step import PointMove, calibrate
from tests.strategies import one_term, rulebases

ROOT = Path(__file__).resolve().parent.parent
TEXT = """\
# A tip, calibrated.
name: t
defuzzifier: weighted_average
default: 0
inputs:
  q:
    range: [0, 10]
    terms:
      low: {points: [0, 0, 5], adjust: [right]}   # where "low" ends
      mid: {points: [2, 5, 8], adjust: [left, peak, right]}
      high: [5, 10, 10]
      edge: {points: [1, 2, 3], adjust: [peak]}
output:
  name: tip
  range: [0, 20]
  terms: {small: 0, big: 20}
rules:
  - if q is low then tip is small
  - if q is mid or q is high then tip is big
  - if q is edge then tip is small
"""


def _rb() -> RuleBase:
    rb, problems = parse_rulebase(TEXT)
    assert rb is not None, problems
    return rb


def test_equation_one_by_hand() -> None:
    new, moves = calibrate(_rb(), {"q": [6.0, 7.0, 8.0]}, rate=0.1)  # mean 7
    got = {(m.term, m.point): (m.before, m.after) for m in moves}
    assert got[("low", "right")] == (5.0, pytest.approx(5.2))  # 5 + 0.1 (7 - 5)
    assert got[("mid", "left")] == (2.0, pytest.approx(2.5))
    assert got[("mid", "peak")] == (5.0, pytest.approx(5.2))
    assert got[("mid", "right")] == (8.0, pytest.approx(7.9))
    assert got[("edge", "peak")] == (2.0, pytest.approx(2.5))
    assert all(m.target == 7.0 and m.samples == 3 and not m.stopped for m in moves)
    assert new.input("q").term("mid").triangle.points == pytest.approx((2.5, 5.2, 7.9))
    assert new.input("q").term("high") == _rb().input("q").term("high")  # not adjustable


def test_a_point_stops_at_its_neighbour_and_no_samples_no_move() -> None:
    new, moves = calibrate(_rb(), {"q": [10.0] * 4}, rate=1.0)  # the whole way to 10
    q = new.input("q")
    assert q.term("mid").triangle.points == (10.0, 10.0, 10.0)  # all three moved: in order
    assert q.term("edge").triangle.points == (1.0, 3.0, 3.0)  # the peak stops at right
    assert {(m.term, m.point) for m in moves if m.stopped} == {("edge", "peak")}
    same, moves = calibrate(_rb(), {})
    assert same == _rb() and all(m.samples == 0 and math.isnan(m.target) for m in moves)


def test_moves_round_trip_through_dicts() -> None:
    _, moves = calibrate(_rb(), {"q": [1.0]})
    assert tuple(PointMove.from_dict(m.to_dict()) for m in moves) == moves


def _with_adjust(rb: RuleBase, which: list[bool]) -> RuleBase:
    inputs = []
    k = 0
    for var in rb.inputs:
        terms = []
        for term in var.terms:
            points = tuple(p for p in POINT_NAMES if which[k % len(which)])
            k += 1
            terms.append(replace(term, adjust=points))
        inputs.append(replace(var, terms=tuple(terms)))
    return replace(rb, inputs=tuple(inputs))


@settings(max_examples=60, deadline=None)
@given(rb=rulebases(), which=st.lists(st.booleans(), min_size=1, max_size=5),
       data=st.data(), rate=st.floats(0.01, 1.0))
def test_any_calibration_keeps_valid_triangles_and_moves_toward_the_mean(
        rb: RuleBase, which: list[bool], data: st.DataObject, rate: float) -> None:
    rb = _with_adjust(rb, which)
    winning = {v.name: data.draw(st.lists(st.floats(v.lo - 5, v.hi + 5), max_size=6))
               for v in rb.inputs}
    new, moves = calibrate(rb, winning, rate)  # with_points would raise on a bad triangle
    for m in moves:
        var = new.input(m.variable)
        tri = var.term(m.term).triangle
        assert var.lo <= tri.left <= tri.peak <= tri.right <= var.hi
        if m.samples:
            aim = min(max(m.target, var.lo), var.hi)
            assert min(m.before, aim) - 1e-9 <= m.after <= max(m.before, aim) + 1e-9
            if not m.stopped:
                assert m.after == pytest.approx(m.before + rate * (aim - m.before))
        else:
            assert m.after == m.before


def test_rewritten_text_keeps_comments_and_loads_the_calibrated_rule_base() -> None:
    new, _ = calibrate(_rb(), {"q": [6.0, 7.0, 8.0]})
    text = rewrite_points(TEXT, new)
    assert "# A tip, calibrated." in text and '# where "low" ends' in text
    back, problems = parse_rulebase(text)
    assert back is not None and not problems
    assert back.inputs == new.inputs and back.rules == new.rules
    assert text.count("\n") == TEXT.count("\n")


def test_the_shipped_cribbage_rule_base_rewrites_in_place() -> None:
    path = ROOT / "rulebases" / "cribbage_expected_points.yaml"
    rb = load_rulebase(path)
    new, moves = calibrate(rb, {"hand_value": np.full(10, 9.0), "crib_value": [4.0]})
    assert {f"{m.variable}.{m.term}.{m.point}" for m in moves} == {
        "hand_value.fair.peak", "crib_value.rich.left"}
    text = rewrite_points(path.read_text(), new)
    assert text.splitlines()[0] == path.read_text().splitlines()[0]
    back, _ = parse_rulebase(text)
    assert back is not None and back.input("hand_value").term("fair").triangle.peak == 8.1


# --- the rate's bounds, missing and absent samples, a rounding hair, PointMove as a dict


@pytest.mark.mutation_pin
@pytest.mark.parametrize("rate", [0.0, -0.1, 1.0000001, 1.5, 2.0])
def test_a_rate_outside_0_to_1_is_refused(rate: float) -> None:
    with pytest.raises(ValueError) as info:
        calibrate(one_term("[2, 5, 8]", "[peak]"), {"q": [6.0]}, rate)
    assert str(info.value) == f"rate must be in (0, 1] (got {rate})"


@pytest.mark.mutation_pin
@pytest.mark.parametrize("rate", [1e-9, 0.5, 1.0])
def test_a_rate_in_0_to_1_is_accepted(rate: float) -> None:
    _, moves = calibrate(one_term("[2, 5, 8]", "[peak]"), {"q": [7.0]}, rate)
    assert moves[0].after == pytest.approx(5.0 + rate * 2.0)  # eq. 1 toward the mean 7


@pytest.mark.mutation_pin
def test_missing_values_among_the_winning_inputs_are_skipped() -> None:
    # None and nan are decisions without this feature: the mean is that of 6 and 8.
    winning: list[float | None] = [6.0, None, 8.0, float("nan")]
    new, moves = calibrate(one_term("[2, 5, 8]", "[peak]"),
                           {"q": np.array(winning, dtype=object)}, 0.5)
    assert moves[0].target == 7.0 and moves[0].samples == 2
    assert moves[0].after == 6.0  # 5 + 0.5 (7 - 5)
    assert new.input("q").term("t").triangle.points == (2.0, 6.0, 8.0)


@pytest.mark.mutation_pin
def test_a_variable_without_samples_stays_put_without_a_warning() -> None:
    rb = one_term("[2, 5, 8]", "[left, peak]")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same, moves = calibrate(rb, {})
        again, moves2 = calibrate(rb, {"q": [float("nan")]})
    assert same == rb and again == rb
    assert all(math.isnan(m.target) and m.samples == 0 and m.shift == 0 for m in moves)
    assert all(math.isnan(m.target) and m.samples == 0 for m in moves2)


@pytest.mark.mutation_pin
def test_a_rounding_hair_between_two_moving_points_is_closed() -> None:
    # Left and peak one unit in the last place apart, pulled toward 8.2155... at 0.3: in
    # floating point the pulled left (3.6773451928317686) lands one ulp above the pulled
    # peak (3.677345192831768), so the peak stops at the left and the triangle stays valid.
    left, peak = 1.7324210837160359, 1.732421083716036
    assert left < peak
    rb = one_term(f"[{left!r}, {peak!r}, 5]", "[left, peak]")
    new, moves = calibrate(rb, {"q": [8.215501447435145]}, 0.3)
    after = new.input("q").term("t").triangle.points
    assert after[0] == after[1] == left + 0.3 * (8.215501447435145 - left)
    assert after[2] == 5.0
    assert {m.point: m.stopped for m in moves} == {"left": False, "peak": True}


@pytest.mark.mutation_pin
def test_moves_as_dicts_write_a_missing_target_as_null_and_keep_stopped() -> None:
    _, moves = calibrate(one_term("[2, 5, 8]", "[peak]"), {})
    d = moves[0].to_dict()
    assert d == {"variable": "q", "term": "t", "point": "peak", "before": 5.0,
                 "target": None, "after": 5.0, "samples": 0, "stopped": False}
    json.dumps(d, allow_nan=False)  # strict JSON: no NaN
    back = PointMove.from_dict(d)
    assert math.isnan(back.target) and back.after == 5.0 and back.samples == 0
    stopped = PointMove("q", "t", "peak", 3.0, 9.0, 6.0, 4, True)
    assert stopped.to_dict()["target"] == 9.0
    assert PointMove.from_dict(stopped.to_dict()) == stopped
    assert PointMove.from_dict(json.loads(json.dumps(moves[0].to_dict()))).target != 0.0


# --- several points of one triangle, one running into a neighbour ---------------------

# (points, adjust, winning inputs, rate, points after, which stopped), by hand:
# shift = rate * (mean - point); a moving point stops at the fixed points of its triangle.
CASES = [
    # All three pulled the whole way to 0: they arrive together, nothing stops.
    ("[2, 5, 8]", "[left, peak, right]", [0.0], 1.0, (0.0, 0.0, 0.0), set()),
    # All three pulled half way to 0 (the mean of 1 and -1): 1, 2.5, 4.
    ("[2, 5, 8]", "[left, peak, right]", [1.0, -1.0], 0.5, (1.0, 2.5, 4.0), set()),
    # All three pulled half way to 10: 6, 7.5, 9 -- in order, nothing stops.
    ("[2, 5, 8]", "[left, peak, right]", [9.0, 11.0], 0.5, (6.0, 7.5, 9.0), set()),
    # Two moving points that do not reach the fixed one: left 1, peak 2.5 (toward 0 at 0.5);
    # peak 7.5, right 9 (toward 10 at 0.5).
    ("[2, 5, 8]", "[left, peak]", [0.0], 0.5, (1.0, 2.5, 8.0), set()),
    ("[2, 5, 8]", "[peak, right]", [10.0], 0.5, (2.0, 7.5, 9.0), set()),
    # The peak stops at the fixed right (8) while the left moves on freely to 3.5.
    ("[2, 5, 5.5]", "[left, peak]", [7.0], 0.3, (3.5, 5.5, 5.5), {"peak"}),
    # Left and peak toward 10 at 0.8: left 8.4, peak 9; the peak stops at the fixed right
    # (8) and the left, which would pass the peak's new place, stops there too: 8, 8, 8.
    ("[2, 5, 8]", "[left, peak]", [10.0], 0.8, (8.0, 8.0, 8.0), {"left", "peak"}),
    # Peak and right toward 0 at 0.8: peak 1, right 1.6; the peak stops at the fixed left
    # (2), and the right, now below the peak's new place, stops there: 2, 2, 2.
    ("[2, 5, 8]", "[peak, right]", [0.0], 0.8, (2.0, 2.0, 2.0), {"peak", "right"}),
    # The same with the default rate 0.1 on a narrow triangle: left 5.41 would pass the
    # peak, stopped at the fixed right (5.05).
    ("[4.9, 5, 5.05]", "[left, peak]", [10.0], 0.1, (5.05, 5.05, 5.05),
                 {"left", "peak"}),
    # Left and right toward 10 at 0.5 around a fixed peak: the left (6) stops at the peak
    # (5), the right moves freely to 9.
    ("[2, 5, 8]", "[left, right]", [10.0], 0.5, (5.0, 5.0, 9.0), {"left"}),
    # Left and right toward 0 at 0.5: the left moves to 1, the right (4) stops at 5.
    ("[2, 5, 8]", "[left, right]", [0.0, 0.0], 0.5, (1.0, 5.0, 5.0), {"right"}),
    # A mean outside the range pulls from its end (10): left 3.6, peak 6, right 8.4.
    ("[2, 5, 8]", "[left, peak, right]", [30.0], 0.2, (3.6, 6.0, 8.4), set()),
    # Only the peak moves, toward 9 at 1: it stops at the fixed right (6).
    ("[1, 3, 6]", "[peak]", [9.0], 1.0, (1.0, 6.0, 6.0), {"peak"}),
]


@pytest.mark.audit
@pytest.mark.parametrize(("points", "adjust", "winning", "rate", "after", "stopped"), CASES)
def test_several_points_of_one_triangle_by_hand(points: str, adjust: str, winning: list[float],
                                                rate: float, after: tuple[float, ...],
                                                stopped: set[str]) -> None:
    new, moves = calibrate(one_term(points, adjust), {"q": winning}, rate)
    assert new.input("q").term("t").triangle.points == pytest.approx(after, abs=1e-12)
    assert {m.point: m.after for m in moves} == pytest.approx(
        {p: after[("left", "peak", "right").index(p)] for p in adjust.strip("[]").split(", ")},
        abs=1e-12)
    assert {m.point for m in moves if m.stopped} == stopped
    assert all(m.samples == len(winning) and m.target == np.mean(winning) for m in moves)
