"""fuzzeval.engine.evaluator on a small rule base worked by hand: explanations (and their
dict form), rule strengths with weights, batches longer than a chunk, conditions nested deep
enough to need temporaries, and the messages for bad input (gaps found by mutation
testing)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from fuzzeval import compile_rulebase, parse_rulebase
from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.engine.evaluator import compile_rulebase as compile_
from fuzzeval.engine.membership import Triangle
from fuzzeval.engine.rulebase import And, Condition, Is, Not, Or, Rule, RuleBase, Term, Variable

pytestmark = pytest.mark.mutation_pin

# a on [0, 10]: lo = 1 - a/10, hi = a/10.  b on [0, 4]: s = 1 - b/4, l = b/4.
TEXT = """\
name: hand
defuzzifier: weighted_average
default: 0.5
inputs:
  a: {range: [0, 10], terms: {lo: [0, 0, 10], hi: [0, 10, 10]}}
  b: {range: [0, 4], terms: {s: [0, 0, 4], l: [0, 4, 4]}}
output: {name: y, range: [0, 1], terms: {nay: 0, aye: 1}}
rules:
  - if a is hi and b is l then y is aye
  - rule: if a is lo or not b is l then y is nay
    weight: 0.5
  - if a is hi and not b is s then y is aye
"""


def _rb(text: str = TEXT) -> RuleBase:
    rb, problems = parse_rulebase(text, "hand.yaml")
    assert rb is not None, problems
    return rb


def _ev() -> Evaluator:
    return compile_rulebase(_rb())


def _hand(a: float, b: float) -> tuple[list[float], float]:
    """Strengths (weights applied) and grade by eq. 2, from the definitions above."""
    lo, hi = 1 - a / 10, a / 10
    s, l_ = 1 - b / 4, b / 4
    strengths = [min(hi, l_), 0.5 * max(lo, 1 - l_), min(hi, 1 - s)]
    values = [1.0, 0.0, 1.0]
    den = sum(strengths)
    grade = sum(w * v for w, v in zip(strengths, values, strict=True)) / den if den else 0.5
    return strengths, grade


def test_explain_by_hand() -> None:
    exp = _ev().explain({"b": 1.0, "a": 6.0})
    assert exp.inputs == {"a": 6.0, "b": 1.0}
    assert exp.used == {"a": 6.0, "b": 1.0}
    assert exp.clipped == ()
    assert exp.memberships == {"a": {"lo": pytest.approx(0.4), "hi": pytest.approx(0.6)},
                               "b": {"s": pytest.approx(0.75), "l": pytest.approx(0.25)}}
    strengths, grade = _hand(6.0, 1.0)  # 0.25, 0.375, 0.25
    assert [r.strength for r in exp.rules] == pytest.approx(strengths)
    assert [r.index for r in exp.rules] == [0, 1, 2]
    assert [r.output_term for r in exp.rules] == ["aye", "nay", "aye"]
    assert [r.weight for r in exp.rules] == [1.0, 0.5, 1.0]
    assert [r.text for r in exp.rules] == [
        "if a is hi and b is l then y is aye",
        "if a is lo or not b is l then y is nay",
        "if a is hi and not b is s then y is aye",
    ]
    assert exp.activations == pytest.approx({"nay": 0.375, "aye": 0.25})
    assert exp.grade == pytest.approx(grade) and exp.grade == pytest.approx(0.5 / 0.875)
    assert exp.fired


def test_explain_of_an_array_equals_explain_of_a_mapping() -> None:
    ev = _ev()
    assert ev.explain(np.array([6.0, 1.0])) == ev.explain({"a": 6.0, "b": 1.0})
    assert ev.explain([[6.0, 1.0]]).grade == ev.grade([[6.0, 1.0]])[0]


def test_explain_clips_only_the_inputs_outside_their_range() -> None:
    exp = _ev().explain({"a": 12.0, "b": 2.0})
    assert exp.inputs == {"a": 12.0, "b": 2.0}
    assert exp.used == {"a": 10.0, "b": 2.0}
    assert exp.clipped == ("a",)
    assert exp.memberships["a"] == {"lo": 0.0, "hi": 1.0}
    exp = _ev().explain({"a": 3.0, "b": -1.0})
    assert exp.clipped == ("b",) and exp.used == {"a": 3.0, "b": 0.0}


def test_explanation_as_a_dict() -> None:
    exp = _ev().explain({"a": 12.0, "b": 1.0})
    d = exp.to_dict()
    assert list(d) == ["inputs", "used", "clipped", "memberships", "rules", "activations",
                       "grade", "fired"]
    assert d["inputs"] == {"a": 12.0, "b": 1.0} and d["used"] == {"a": 10.0, "b": 1.0}
    assert d["clipped"] == ["a"]
    assert d["memberships"] == exp.memberships
    assert d["rules"][1] == {"index": 1, "text": "if a is lo or not b is l then y is nay",
                             "output_term": "nay", "weight": 0.5,
                             "strength": pytest.approx(0.375)}
    assert d["activations"] == exp.activations
    assert d["grade"] == exp.grade and d["fired"] is True


def test_nothing_fires_gives_the_default_and_says_so() -> None:
    text = TEXT.replace("  - rule: if a is lo or not b is l then y is nay\n    weight: 0.5\n",
                        "")
    exp = compile_rulebase(_rb(text)).explain({"a": 0.0, "b": 0.0})
    assert [r.strength for r in exp.rules] == [0.0, 0.0]
    assert exp.activations == {"nay": 0.0, "aye": 0.0}
    assert exp.grade == 0.5 and not exp.fired


def test_explain_names_exactly_what_is_missing_and_unknown() -> None:
    ev = _ev()
    with pytest.raises(ValueError) as info:
        ev.explain({"a": 1.0})
    assert str(info.value) == "inputs must be exactly a, b; missing b"
    with pytest.raises(ValueError) as info:
        ev.explain({"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0})
    assert str(info.value) == "inputs must be exactly a, b; unknown c, d"
    with pytest.raises(ValueError) as info:
        ev.explain({"c": 3.0})
    assert str(info.value) == "inputs must be exactly a, b; missing a, b; unknown c"


def test_bad_shapes_and_nan_are_refused_with_where() -> None:
    ev = _ev()
    assert ev.n_inputs == 2
    with pytest.raises(ValueError) as info:
        ev.grade(np.zeros((3, 3)))
    assert str(info.value) == ("expected an array of shape (n, 2) with columns a, b "
                               "(got shape (3, 3))")
    with pytest.raises(ValueError, match=r"got shape \(2,\)"):
        ev.grade(np.zeros(2))  # one dimension, even of the right length
    with pytest.raises(ValueError, match=r"got shape \(1, 1, 2\)"):
        ev.strengths(np.zeros((1, 1, 2)))
    with pytest.raises(ValueError) as info:
        ev.grade([[1.0, 2.0], [3.0, 1.0], [2.0, float("nan")]])
    assert str(info.value) == "input 'b' is NaN (row 2)"
    with pytest.raises(ValueError, match=r"^input 'a' is NaN \(row 0\)$"):
        ev.strengths([[float("nan"), 1.0]])


def test_strengths_and_grades_of_a_long_batch_by_hand() -> None:
    ev = _ev()
    rng = np.random.default_rng(3)
    n = 2053
    xs = np.column_stack([rng.uniform(-1, 11, n), rng.uniform(-0.5, 4.5, n)])
    got_s = ev.strengths(xs)
    got_g = ev.grade(xs)
    assert got_s.shape == (n, 3) and got_g.shape == (n,)
    for i in [0, 1, 1023, 1024, 1025, 2048, n - 1]:
        a, b = float(np.clip(xs[i, 0], 0, 10)), float(np.clip(xs[i, 1], 0, 4))
        want_s, want_g = _hand(a, b)
        assert got_s[i] == pytest.approx(want_s, abs=1e-12)
        assert got_g[i] == pytest.approx(want_g, abs=1e-12)
    assert ev.strengths(np.empty((0, 2))).shape == (0, 3)


def _deep_rulebase(rules: int) -> RuleBase:
    """Many rules whose conditions need temporaries: not (x is t_k and not y is u_k), and
    (x is ... or y is ...) and not x is ...; enough of each to be gathered in waves."""
    xs = Variable("x", 0.0, 8.0, tuple(
        Term(f"t{k}", Triangle(float(k), float(k) + 1, float(k) + 2)) for k in range(7)))
    ys = Variable("y", 0.0, 8.0, tuple(
        Term(f"u{k}", Triangle(max(0.0, k - 1.5), float(k), min(8.0, k + 1.5)))
        for k in range(9)))
    out = Variable("g", 0.0, 1.0, (Term("lo", Triangle(0.0, 0.0, 0.0)),
                                   Term("hi", Triangle(1.0, 1.0, 1.0))))
    rs = []
    for r in range(rules):
        t, u = f"t{r % 7}", f"u{(3 * r) % 9}"
        if r % 3 == 0:
            cond: Condition = Not(And((Is("x", t), Not(Is("y", u)))))
        elif r % 3 == 1:
            cond = And((Or((Is("x", t), Is("y", u))), Not(Is("x", f"t{(r + 2) % 7}"))))
        else:
            cond = Or((Not(Not(Is("y", u))), And((Is("x", t), Is("y", u), Is("x", "t3")))))
        rs.append(Rule(cond, "hi" if r % 2 else "lo", 1.0 if r % 4 else 0.5))
    return RuleBase("deep", "weighted_average", 0.5, (xs, ys), out, tuple(rs))


def _tri(x: float, p: tuple[float, float, float]) -> float:
    left, peak, right = p
    if x == peak:
        return 1.0
    if left < x < peak:
        return (x - left) / (peak - left)
    if peak < x < right:
        return (right - x) / (right - peak)
    return 0.0


def _deep_strengths(x: float, y: float, rules: int) -> list[float]:
    def mx(k: int) -> float:
        return _tri(x, (float(k), k + 1.0, k + 2.0))

    def my(k: int) -> float:
        return _tri(y, (max(0.0, k - 1.5), float(k), min(8.0, k + 1.5)))

    out = []
    for r in range(rules):
        t, u = r % 7, (3 * r) % 9
        if r % 3 == 0:
            d = 1 - min(mx(t), 1 - my(u))
        elif r % 3 == 1:
            d = min(max(mx(t), my(u)), 1 - mx((r + 2) % 7))
        else:
            d = max(my(u), min(mx(t), my(u), mx(3)))
        out.append(d * (1.0 if r % 4 else 0.5))
    return out


@pytest.mark.parametrize("rules", [5, 30])
def test_deep_conditions_in_long_waves_by_hand(rules: int) -> None:
    rb = _deep_rulebase(rules)
    ev = compile_(rb)
    grid = np.array([(x, y) for x in np.linspace(0, 8, 17) for y in np.linspace(0, 8, 13)])
    got = ev.strengths(grid)
    grades = ev.grade(grid)
    for (x, y), row, g in zip(grid, got, grades, strict=True):
        want = _deep_strengths(float(x), float(y), rules)
        assert row == pytest.approx(want, abs=1e-12), (x, y)
        hi = sum(w for r, w in enumerate(want) if r % 2)
        den = sum(want)
        assert g == pytest.approx(hi / den if den > 0 else 0.5, abs=1e-12)


def test_a_rule_on_an_unknown_output_term_is_refused() -> None:
    rb = _rb()
    bad = Rule(Is("a", "lo"), "maybe", 1.0)
    broken = dataclasses.replace(rb, rules=(*rb.rules, bad))
    with pytest.raises(ValueError) as info:
        compile_(broken)
    assert str(info.value) == "rule concludes on unknown output term 'maybe'"


def test_explain_memberships_use_the_variables_width_for_a_vertical_side() -> None:
    """Found by mutation testing: explain() computing memberships with the default width 1
    drew a vertical side 1,000 times too steep. A vertical side is a slope of 1e12 / width:
    just below the peak of [500, 500, 600] on a range 1,000 wide, at 500 - 1e-10, the
    membership is 1 - 1e-10 * 1e12 / 1000 = 0.9, as the rule that reads it fires."""
    rb, problems = parse_rulebase("""name: v
defuzzifier: weighted_average
default: 0
inputs:
  x: {range: [0, 1000], terms: {t: [500, 500, 600]}}
output: {name: y, range: [0, 1], terms: {one: 1}}
rules: ["if x is t then y is one"]
""")
    assert rb is not None, problems
    ev = compile_rulebase(rb)
    exp = ev.explain({"x": 500 - 1e-10})
    assert exp.memberships["x"]["t"] == pytest.approx(0.9, abs=1e-4)  # 500 - 1e-10 rounds
    assert exp.rules[0].strength == exp.memberships["x"]["t"]


@pytest.mark.parametrize("defuzzifier", ["weighted_average", "centroid"])
def test_a_nan_in_the_very_first_input_is_refused(defuzzifier: str) -> None:
    """Found by mutation testing: the kernels report the flat index of the first NaN, and
    index 0 (row 0, first input) must count as found (``bad > 0`` missed it, grading on)."""
    rb, problems = parse_rulebase(f"""name: n
defuzzifier: {defuzzifier}
default: 0
inputs:
  a: {{range: [0, 10], terms: {{lo: [0, 0, 10], hi: [0, 10, 10]}}}}
  b: {{range: [0, 4], terms: {{l: [0, 0, 4]}}}}
output: {{name: y, range: [0, 1], terms: {{bad: [0, 0, 1], good: [0, 1, 1]}}}}
rules: ["if a is hi and b is l then y is good", "if a is lo then y is bad"]
""")
    assert rb is not None, problems
    ev = compile_rulebase(rb)
    for call in (ev.grade, ev.strengths):
        with pytest.raises(ValueError, match=r"^input 'a' is NaN \(row 0\)$"):
            call([[float("nan"), 1.0], [2.0, 3.0]])


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float16])
def test_other_number_types_are_graded_as_float64(dtype: type) -> None:
    """A float32 (or int, or float16) input is graded as the same values in float64: the
    grades are those of the float64 copy, to the last bit (without the conversion, a
    float16 input reaches the compiled kernel, which has no float16: mutant _check 5)."""
    rng = np.random.default_rng(4)
    for defuzz in ("weighted_average", "centroid"):
        text = TEXT.replace("defuzzifier: weighted_average", f"defuzzifier: {defuzz}")
        if defuzz == "centroid":
            text = text.replace("terms: {nay: 0, aye: 1}", "terms: {nay: [0, 0, 1], "
                                                            "aye: [0, 1, 1]}")
        ev = compile_rulebase(_rb(text))
        raw = rng.uniform([0, 0], [10, 4], size=(50, 2)) * 1.37
        xs = raw.astype(dtype)
        assert xs.dtype == dtype
        want = ev.grade(xs.astype(np.float64))
        assert np.array_equal(ev.grade(xs), want)
        assert np.array_equal(ev.strengths(xs), ev.strengths(xs.astype(np.float64)))


def test_any_memory_layout_is_graded_alike() -> None:
    """A Fortran-ordered, a strided or a read-only input (copied into one C-ordered array
    before the kernel) grades as the plain array does."""
    ev = compile_rulebase(_rb())
    rng = np.random.default_rng(6)
    plain = np.ascontiguousarray(rng.uniform([0, 0], [10, 4], size=(40, 2)))
    want = ev.grade(plain)
    fortran = np.asfortranarray(plain)
    strided = np.repeat(plain, 2, axis=0)[::2]
    frozen = plain.copy()
    frozen.flags.writeable = False
    assert not fortran.flags.c_contiguous and not strided.flags.c_contiguous
    for xs in (fortran, strided, frozen):
        assert np.array_equal(ev.grade(xs), want)
        assert np.array_equal(ev.strengths(xs), ev.strengths(plain))


# Two rules only: a batch longer than a chunk, and explain's refusal of complex input.
SMALL = """\
name: small
defuzzifier: weighted_average
default: 0.5
inputs:
  a: {range: [0, 10], terms: {lo: [0, 0, 10], hi: [0, 10, 10]}}
  b: {range: [0, 4], terms: {s: [0, 0, 4], l: [0, 4, 4]}}
output: {name: y, range: [0, 1], terms: {nay: 0, aye: 1}}
rules:
  - if a is hi and b is l then y is aye
  - if a is lo then y is nay
"""


def _small_ev() -> Evaluator:
    rb, problems = parse_rulebase(SMALL, "small.yaml")
    assert rb is not None, problems
    return compile_rulebase(rb)


def test_grade_and_strengths_of_a_long_batch_by_hand() -> None:
    ev = _small_ev()
    a = np.linspace(0.0, 10.0, 2049)
    xs = np.column_stack([a, np.full_like(a, 4.0)])
    grades = ev.grade(xs)
    # a is hi = a/10 (b is l = 1), a is lo = 1 - a/10: grade = a/10 (values 1 and 0).
    np.testing.assert_allclose(grades, a / 10, rtol=0, atol=1e-15)
    strengths = ev.strengths(xs)
    np.testing.assert_allclose(strengths[:, 0], a / 10, rtol=0, atol=1e-15)
    np.testing.assert_allclose(strengths[:, 1], 1 - a / 10, rtol=0, atol=1e-15)


def test_explain_refuses_complex_inputs() -> None:
    ev = _small_ev()
    with pytest.raises(TypeError):
        ev.explain([1 + 2j, 2.0])
