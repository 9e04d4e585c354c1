"""fuzzeval.learn.calibration_step: the bounds on the rate, missing values among the winning inputs,
no warning for a variable without samples, a rounding hair between two moving points,
and PointMove's dict form (gaps found by mutation testing)."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

from fuzzeval.learn.calibration_step import PointMove, calibrate
from tests.strategies import one_term

pytestmark = pytest.mark.mutation_pin


@pytest.mark.parametrize("rate", [0.0, -0.1, 1.0000001, 1.5, 2.0])
def test_a_rate_outside_0_to_1_is_refused(rate: float) -> None:
    with pytest.raises(ValueError) as info:
        calibrate(one_term("[2, 5, 8]", "[peak]"), {"q": [6.0]}, rate)
    assert str(info.value) == f"rate must be in (0, 1] (got {rate})"


@pytest.mark.parametrize("rate", [1e-9, 0.5, 1.0])
def test_a_rate_in_0_to_1_is_accepted(rate: float) -> None:
    _, moves = calibrate(one_term("[2, 5, 8]", "[peak]"), {"q": [7.0]}, rate)
    assert moves[0].after == pytest.approx(5.0 + rate * 2.0)  # eq. 1 toward the mean 7


def test_missing_values_among_the_winning_inputs_are_skipped() -> None:
    # None and nan are decisions without this feature: the mean is that of 6 and 8.
    winning: list[float | None] = [6.0, None, 8.0, float("nan")]
    new, moves = calibrate(one_term("[2, 5, 8]", "[peak]"),
                           {"q": np.array(winning, dtype=object)}, 0.5)
    assert moves[0].target == 7.0 and moves[0].samples == 2
    assert moves[0].after == 6.0  # 5 + 0.5 (7 - 5)
    assert new.input("q").term("t").triangle.points == (2.0, 6.0, 8.0)


def test_a_variable_without_samples_stays_put_without_a_warning() -> None:
    rb = one_term("[2, 5, 8]", "[left, peak]")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same, moves = calibrate(rb, {})
        again, moves2 = calibrate(rb, {"q": [float("nan")]})
    assert same == rb and again == rb
    assert all(math.isnan(m.target) and m.samples == 0 and m.shift == 0 for m in moves)
    assert all(math.isnan(m.target) and m.samples == 0 for m in moves2)


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
