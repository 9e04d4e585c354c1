"""The weighted average gives the rule base's ``default`` (not 0) where no rule fires:
fixed cases, directly and through a compiled rule base."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval import compile_rulebase, parse_rulebase
from fuzzeval.engine.defuzzify import weighted_average

pytestmark = pytest.mark.audit


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
