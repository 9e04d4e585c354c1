"""Eq. 1 by hand, triangles that stay triangles, and rule-base text that keeps its comments."""

from __future__ import annotations

import math
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
from tests.strategies import rulebases

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
