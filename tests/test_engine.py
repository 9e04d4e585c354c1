"""The engine against hand-worked numbers (Fuzzeval's Tables 2-5) and an independent
scalar oracle (tests/strategies.py), plus its invariants."""

from __future__ import annotations

import dataclasses
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzeval import compile_rulebase, load_rulebase, parse_rulebase
from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.engine.rulebase import RuleBase
from tests.strategies import inputs_for, oracle_grade, oracle_strengths, rulebases

ROOT = Path(__file__).resolve().parent.parent


def _example() -> RuleBase:
    return load_rulebase(ROOT / "rulebases" / "fuzzeval_example.yaml")


# --- Fuzzeval's worked example (Heinze et al. 2005, section 3) -------------------------

BOARD = {"SinglePieces": 3, "OpponentOnBar": 2, "SinglePiecesInHome": 2}
# Table 4, as exact fractions of Table 2's formulas at (3, 2, 2).
TABLE_4 = {
    "SinglePieces": {"Few": Fraction(1, 4), "Many": Fraction(1, 13)},
    "OpponentOnBar": {"Few": Fraction(1, 3), "Many": Fraction(1, 14)},
    "SinglePiecesInHome": {"Few": Fraction(1, 2), "Many": Fraction(1, 5)},
}
# Table 5 (rule 5 read as the table prints it: Many -> Weak).
TABLE_5 = [
    Fraction(1, 13), Fraction(1, 4), Fraction(1, 3), Fraction(1, 14),
    Fraction(1, 5), Fraction(1, 2), Fraction(1, 14),
]


def test_worked_example_memberships_match_table_4() -> None:
    exp = compile_rulebase(_example()).explain(BOARD)
    for var, terms in TABLE_4.items():
        for term, value in terms.items():
            assert exp.memberships[var][term] == pytest.approx(float(value), abs=1e-12)
    # The paper's printed, rounded figures.
    assert round(exp.memberships["SinglePieces"]["Many"], 3) == 0.077
    assert round(exp.memberships["OpponentOnBar"]["Many"], 3) == 0.071


def test_worked_example_strengths_match_table_5() -> None:
    exp = compile_rulebase(_example()).explain(BOARD)
    assert [r.strength for r in exp.rules] == pytest.approx([float(f) for f in TABLE_5])
    assert exp.activations == pytest.approx({"Weak": 1 / 3, "Good": 1 / 2})


def test_worked_example_grade() -> None:
    # Eq. 2 summed per rule with Weak = -1, Good = 1, in exact arithmetic: 763/8207.
    signs = [-1, 1, -1, 1, -1, 1, -1]
    exact = sum(s * f for s, f in zip(signs, TABLE_5, strict=True)) / sum(TABLE_5)
    assert exact == Fraction(763, 8207)
    grade = compile_rulebase(_example()).grade([[3, 2, 2]])[0]
    assert grade == pytest.approx(float(exact), abs=1e-12)
    assert round(grade, 4) == 0.0930
    # The paper prints 0.095: it summed the rounded degrees of Table 5.
    rounded = [0.077, 0.25, 0.33, 0.071, 0.2, 0.5, 0.071]
    paper = sum(s * f for s, f in zip(signs, rounded, strict=True)) / sum(rounded)
    assert round(paper, 3) == 0.095


# --- against the independent oracle ------------------------------------------------------


@given(data=st.data(), rb=rulebases())
def test_grades_match_scalar_oracle(data: st.DataObject, rb: RuleBase) -> None:
    xs = [data.draw(inputs_for(rb)) for _ in range(3)]
    ev = compile_rulebase(rb)
    got = ev.grade(np.array(xs))
    step = rb.output.width / 400_000
    for x, g in zip(xs, got, strict=True):
        assert g == pytest.approx(oracle_grade(rb, x), abs=20 * step + 1e-9)
        strengths = [f.strength for f in ev.explain(np.array(x)).rules]
        assert strengths == pytest.approx(oracle_strengths(rb, x), abs=1e-9)


@given(data=st.data(), rb=rulebases(defuzzifier="weighted_average", max_rules=30))
def test_many_rules_strengths_match_scalar_oracle(data: st.DataObject, rb: RuleBase) -> None:
    """Long rule lists make long waves of steps, done as one gathered numpy call each."""
    xs = [data.draw(inputs_for(rb)) for _ in range(3)]
    got = compile_rulebase(rb).strengths(np.array(xs))
    for x, row in zip(xs, got, strict=True):
        assert row == pytest.approx(oracle_strengths(rb, x), abs=1e-9)


def test_terms_no_rule_reads_are_not_computed() -> None:
    """Only the terms a rule reads get a register (the issue measured 3.46 M -> 5.30 M
    grades/s from dropping the others); explain still shows every term's membership."""
    text = """name: w
defuzzifier: weighted_average
default: 0
inputs:
  a: {range: [0, 10], terms: {L: [0, 0, 5], M: [0, 5, 10], H: [5, 10, 10]}}
  b: {range: [0, 4], terms: {L: [0, 0, 2], M: [0, 2, 4], H: [2, 4, 4]}}
  c: {range: [0, 1], terms: {x: [0, 0, 1]}}
output: {name: g, range: [0, 1], terms: {Lo: 0.25, Hi: 0.75}}
rules:
  - if a is L and b is H then g is Lo
  - if not a is H then g is Hi
"""
    rb, problems = parse_rulebase(text, "w.yaml")
    assert rb is not None, problems
    ev = compile_rulebase(rb)
    assert ev.term_keys == (("a", "L"), ("a", "H"), ("b", "H"))
    assert ev.term_col.tolist() == [0, 0, 1]
    xs = np.random.default_rng(7).uniform([0, 0, 0], [10, 4, 1], size=(50, 3))
    for x, row, g in zip(xs, ev.strengths(xs), ev.grade(xs), strict=True):
        assert row == pytest.approx(oracle_strengths(rb, list(x)), abs=1e-12)
        assert g == pytest.approx(oracle_grade(rb, list(x)), abs=1e-12)
    exp = ev.explain(xs[0])
    assert exp.memberships["a"]["M"] == pytest.approx(1 - abs(xs[0][0] - 5) / 5)
    assert exp.memberships["c"]["x"] == pytest.approx(1 - xs[0][2])


@given(data=st.data(), rb=rulebases())
def test_grade_inside_output_range_and_default_iff_nothing_fires(
    data: st.DataObject, rb: RuleBase
) -> None:
    x = data.draw(inputs_for(rb))
    ev = compile_rulebase(rb)
    exp = ev.explain(np.array(x))
    assert rb.output.lo - 1e-9 <= exp.grade <= rb.output.hi + 1e-9
    assert exp.grade == ev.grade([x])[0]
    if not exp.fired:
        assert exp.grade == rb.default
    assert exp.fired == any(s > 0 for s in oracle_strengths(rb, x))


@given(data=st.data(), rb=rulebases())
def test_permuting_rules_changes_nothing(data: st.DataObject, rb: RuleBase) -> None:
    perm = data.draw(st.permutations(rb.rules))
    shuffled = dataclasses.replace(rb, rules=tuple(perm))
    xs = np.array([data.draw(inputs_for(rb)) for _ in range(4)])
    a = compile_rulebase(rb).grade(xs)
    b = compile_rulebase(shuffled).grade(xs)
    if rb.defuzzifier == "centroid":
        np.testing.assert_array_equal(a, b)  # max and sort do not depend on order
    else:
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_long_batches_equal_row_by_row() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rb = load_rulebase(ROOT / "rulebases" / "tipping.yaml")
    ev = compile_rulebase(rb)
    rng = np.random.default_rng(7)
    xs = rng.uniform(-2, 12, size=(2085, 2))
    whole = ev.grade(xs)
    single = np.array([ev.grade(row[None, :])[0] for row in xs[::256]])
    np.testing.assert_array_equal(whole[::256], single)
    assert ev.grade(np.empty((0, 2))).shape == (0,)


# --- explanations and input checks -------------------------------------------------------


def test_explain_reports_clipped_inputs() -> None:
    ev = compile_rulebase(_example())
    exp = ev.explain({"SinglePieces": 20, "OpponentOnBar": -1, "SinglePiecesInHome": 2})
    assert exp.clipped == ("SinglePieces", "OpponentOnBar")
    assert exp.used["SinglePieces"] == 15 and exp.used["OpponentOnBar"] == 0
    assert exp.memberships["SinglePieces"] == pytest.approx({"Few": 0.0, "Many": 1.0})
    assert exp.to_dict()["clipped"] == ["SinglePieces", "OpponentOnBar"]


def test_explain_names_missing_and_unknown_inputs() -> None:
    ev = compile_rulebase(_example())
    with pytest.raises(ValueError, match="missing SinglePiecesInHome; unknown Blots"):
        ev.explain({"SinglePieces": 1, "OpponentOnBar": 0, "Blots": 2})


def test_grade_rejects_wrong_shape_and_nan() -> None:
    ev = compile_rulebase(_example())
    with pytest.raises(ValueError, match=r"shape \(n, 3\) with columns SinglePieces"):
        ev.grade(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="'OpponentOnBar' is NaN"):
        ev.grade([[1.0, float("nan"), 2.0]])


def test_no_rule_fires_gives_default() -> None:
    rb, problems = parse_rulebase(
        """
name: gap
defuzzifier: centroid
default: 0.25
inputs:
  x: {range: [0, 10], terms: {low: [0, 0, 2], high: [8, 10, 10]}}
output: {name: y, range: [0, 1], terms: {bad: [0, 0, 1], good: [0, 1, 1]}}
rules:
  - if x is low then y is bad
  - if x is high then y is good
"""
    )
    assert rb is not None, problems
    ev = compile_rulebase(rb)
    grades = ev.grade([[5.0], [0.0], [10.0]])
    assert grades[0] == 0.25
    assert grades[1] == pytest.approx(1 / 3)  # centroid of the left triangle [0, 0, 1]
    assert grades[2] == pytest.approx(2 / 3)
    assert not ev.explain({"x": 5}).fired


def test_evaluator_arrays_are_read_only() -> None:
    ev = compile_rulebase(_example())
    with pytest.raises(ValueError):
        ev.term_par[0, 0] = 1.0
    with pytest.raises(ValueError):
        ev.program[0, 0] = 1


def test_point_edits_are_pure_and_validated() -> None:
    rb = _example()
    refs = rb.adjustable_points()
    assert [str(r) for r in refs] == ["SinglePieces.Few.right", "SinglePieces.Many.left"]
    moved = rb.with_points({refs[0]: 3.0})
    assert moved.point(refs[0]) == 3.0 and rb.point(refs[0]) == 4.0  # the original is unchanged
    # Few is now [0, 0, 3]: at 3 pieces its membership is 0 instead of 0.25.
    assert compile_rulebase(moved).explain(BOARD).memberships["SinglePieces"]["Few"] == 0.0
    with pytest.raises(ValueError, match="left <= peak <= right"):
        rb.with_points({refs[1]: 15.5})  # Many's left beyond its peak
    with pytest.raises(KeyError, match="no such points"):
        rb.with_points({dataclasses.replace(refs[0], term="Some"): 1.0})


@pytest.mark.parametrize(("term", "want"), [("[-10, -9.25, -9.25]", -9.5),
                                            ("[-9.25, -9.25, -8.5]", -9.0),
                                            ("[-10, -10, -9.25]", -9.75)])
def test_centroid_of_a_triangle_with_a_vertical_side_far_from_the_range_end(
        term: str, want: float) -> None:
    """A triangle's centroid is the mean of its vertices. A hypothesis example found a
    vertical side inside a wide range leaving a sliver of membership that was stretched
    across the rest of the range (-9.4972 for -9.5)."""
    rb = parse_rulebase(f"""
name: v
defuzzifier: centroid
default: 0
inputs: {{x: {{range: [0, 1], terms: {{high: [0, 1, 1]}}}}}}
output: {{name: y, range: [-10, 5], terms: {{t: {term}}}}}
rules: ["if x is high then y is t"]
""")[0]
    assert rb is not None
    assert compile_rulebase(rb).grade([[1.0]])[0] == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("name", ["cribbage_linguistic", "backgammon_refined"])
def test_a_grade_does_not_depend_on_the_batch_it_is_graded_in(name: str) -> None:
    """Bit for bit: a game grades 15 throws, a report or a batch millions; both must agree,
    or near ties would be broken differently (a matrix product's blocking depends on n)."""
    from fuzzeval.resources import default_rulebase

    rb = load_rulebase(default_rulebase(name))
    ev = compile_rulebase(rb)
    rng = np.random.default_rng(5)
    x = np.stack([rng.uniform(v.lo, v.hi, 3000) for v in rb.inputs], axis=1)
    together = ev.grade(x)
    for size in (1, 2, 15, 20, 255, 256, 257, 777):
        parts = np.concatenate([ev.grade(x[i:i + size]) for i in range(0, 3000, size)])
        np.testing.assert_array_equal(parts, together)


@given(st.integers(1, 60), st.integers(1, 600), st.integers(0, 2**32 - 1))
def test_the_weighted_average_sums_rule_after_rule(rules: int, n: int, seed: int) -> None:
    """Every path (one column, a few, many) gives the plain sequential sums, bit for bit."""
    from fuzzeval.engine.defuzzify import weighted_average

    rng = np.random.default_rng(seed)
    s = rng.random((rules, n)) * (rng.random((rules, n)) < 0.7)
    v = rng.normal(size=rules)
    got = weighted_average(s, v, default=-1.0)
    for j in range(n):
        num = den = 0.0
        for r in range(rules):
            num += float(s[r, j]) * float(v[r])
            den += float(s[r, j])
        assert got[j] == (num / den if den > 0 else -1.0)


WEIGHTED = """
name: lean
defuzzifier: weighted_sum
default: -1
inputs:
  x:
    range: [0, 10]
    terms: {low: [0, 0, 10], high: [0, 10, 10]}
output:
  name: y
  range: [-1, 10]
  terms: {a: 2, b: 5}
rules:
  - if x is low then y is a
  - rule: if x is high then y is b
    weight: 0.5
"""


def _compiled(text: str) -> Evaluator:
    rb, problems = parse_rulebase(text, "lean.yaml")
    assert rb is not None and not problems, problems
    return compile_rulebase(rb)


def test_the_weighted_sum_by_hand_on_both_paths() -> None:
    """At x = 4: low 0.6, high 0.4 x 0.5 = 0.2, so 0.6 x 2 + 0.2 x 5 = 2.2 (the weighted
    average would be 2.2 / 0.8 = 2.75); at 10 only the half-weight rule: 2.5 (average 5);
    at 0, 1 x 2 = 2. Graded through numpy (a few candidates) and the compiled kernel."""
    from fuzzeval.engine.kernels import compiled, numpy_twins

    ev = _compiled(WEIGHTED)
    xs = np.array([[4.0], [10.0], [0.0], [12.0]])
    want = [2.2, 2.5, 2.0, 2.5]
    np.testing.assert_allclose(ev.grade(xs), want, rtol=1e-15)
    out = np.empty(4)
    assert compiled.grade_wa(xs, out, *ev._program(), ev.values, -1.0, False) == -1
    np.testing.assert_allclose(out, want, rtol=1e-15)
    assert ev.flat is not None  # every rule one term: graded by the flat kernel
    assert compiled.grade_flat(xs, out, ev.term_col, ev.term_par, *ev.flat, ev.weights,
                               ev.values, -1.0, False) == -1
    np.testing.assert_allclose(out, want, rtol=1e-15)
    np.testing.assert_allclose(numpy_twins.grade_wa(xs, *ev._program(), ev.values, -1.0, False),
                               want, rtol=1e-15)
    average = _compiled(WEIGHTED.replace("weighted_sum", "weighted_average"))
    np.testing.assert_allclose(average.grade(xs), [2.75, 5.0, 2.0, 5.0], rtol=1e-15)
    assert ev.explain({"x": 4.0}).grade == pytest.approx(2.2, rel=1e-15)


def test_the_weighted_sum_gives_the_default_only_where_no_rule_fires() -> None:
    text = WEIGHTED.replace("{low: [0, 0, 10], high: [0, 10, 10]}",
                            "{low: [0, 0, 4], high: [6, 10, 10]}")
    ev = _compiled(text)
    # 5 fires nothing: the default; 2 fires low at 0.5: 1.0, not the average's 2
    np.testing.assert_allclose(ev.grade([[5.0], [2.0], [8.0]]), [-1.0, 1.0, 1.25])
