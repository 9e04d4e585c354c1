"""Teaching a rule base: a teacher that *is* a rule base is recovered exactly."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval import compile_rulebase, parse_rulebase
from fuzzeval.learn.teach import (
    Normal,
    _group_softmax,
    firing_shares,
    fit_choices,
    refine_choices,
    snap_to_terms,
    taught_levels,
)

TERMS = {"Bad2": -1.0, "Bad1": -0.5, "Neutral": 0.0, "Good1": 0.5, "Good2": 1.0}
CONDITIONS = ["x is Low", "x is High", "y is Low", "y is High", "x is High and y is High"]


def _rulebase(consequents: list[str]) -> str:
    rules = "\n".join(f"  - if {c} then g is {t}"
                      for c, t in zip(CONDITIONS, consequents, strict=True))
    terms = "\n".join(f"    {k}: {v}" for k, v in TERMS.items())
    return f"""name: t
defuzzifier: weighted_average
default: 0
inputs:
  x: {{range: [0, 10], terms: {{Low: [0, 0, 10], High: [0, 10, 10]}}}}
  y: {{range: [0, 4], terms: {{Low: [0, 0, 4], High: [0, 4, 4]}}}}
output:
  name: g
  range: [-1, 1]
  terms:
{terms}
rules:
{rules}
"""


def _evaluator(consequents: list[str]):  # type: ignore[no-untyped-def]
    rb, problems = parse_rulebase(_rulebase(consequents), "t.yaml")
    assert rb is not None, problems
    return compile_rulebase(rb)


def test_shares_rebuild_the_grade_and_sum_to_one() -> None:
    ev = _evaluator(["Neutral", "Good2", "Bad1", "Good1", "Bad2"])
    x = np.random.default_rng(0).uniform([0, 0], [10, 4], size=(200, 2))
    shares = firing_shares(ev, x)
    values = np.array([0.0, 1.0, -0.5, 0.5, -1.0])
    assert shares.sum(axis=1) == pytest.approx(np.ones(200))
    assert shares @ values == pytest.approx(ev.grade(x))


TRUTH = ["Neutral", "Good2", "Neutral", "Bad1", "Good1"]


def _lesson(seed: int, decisions: int):  # type: ignore[no-untyped-def]
    """A teacher that is a rule base (TRUTH), a student concluding Neutral everywhere, and
    random decisions of ten candidates each."""
    rng = np.random.default_rng(seed)
    x = rng.uniform([0, 0], [10, 4], size=(10 * decisions, 2))
    groups = np.repeat(np.arange(decisions), 10)
    return _evaluator(TRUTH), _evaluator(["Neutral"] * 5), rng, x, groups


def test_a_teacher_that_is_a_rule_base_is_recovered_term_for_term() -> None:
    truth = TRUTH
    teacher, student, rng, x, groups = _lesson(1, 300)
    # The teacher's scale and per-decision offsets are its own: only differences count.
    target = 3.0 * teacher.grade(x) + rng.normal(size=300)[groups]
    normal = Normal.build(firing_shares(student, x), groups, target, ridge=1e-9)
    names = list(TERMS)
    terms, scale = snap_to_terms(normal, list(TERMS.values()),
                                 fixed={0: names.index("Neutral"), 2: names.index("Neutral")})
    assert [names[t] for t in terms] == truth
    assert scale == pytest.approx(3.0, rel=0.2)
    free = normal.solve({0: 0.0, 2: 0.0})
    assert free == pytest.approx(3.0 * np.array([0.0, 1.0, 0.0, -0.5, 0.5]), abs=1e-6)


def test_centring_makes_a_per_decision_constant_irrelevant() -> None:
    ev = _evaluator(["Neutral"] * 5)
    rng = np.random.default_rng(2)
    x = rng.uniform([0, 0], [10, 4], size=(400, 2))
    groups = np.repeat(np.arange(40), 10)
    target = x[:, 0] * 0.1
    shifted = target + 100.0 * rng.normal(size=40)[groups]
    a = Normal.build(firing_shares(ev, x), groups, target)
    b = Normal.build(firing_shares(ev, x), groups, shifted)
    assert a.solve({}) == pytest.approx(b.solve({}))


def test_equations_built_in_chunks_of_whole_decisions_add_up() -> None:
    ev = _evaluator(["Neutral"] * 5)
    rng = np.random.default_rng(3)
    x = rng.uniform([0, 0], [10, 4], size=(600, 2))
    groups = np.repeat(np.arange(60), 10)
    target, weight = rng.normal(size=600), rng.uniform(size=600)
    shares = firing_shares(ev, x)
    whole = Normal.build(shares, groups, target, weight=weight)
    parts = (Normal.build(shares[:250], groups[:250], target[:250], weight=weight[:250])
             + Normal.build(shares[250:], groups[250:], target[250:], weight=weight[250:]))
    assert parts.gram == pytest.approx(whole.gram)
    assert parts.rhs == pytest.approx(whole.rhs)
    assert parts.solve({}) == pytest.approx(whole.solve({}))


def test_imitating_the_teachers_choices_recovers_its_rule_base() -> None:
    truth = TRUTH
    teacher, student, _, x, groups = _lesson(4, 600)
    shares = firing_shares(student, x)
    values = fit_choices(shares, groups, teacher.grade(x), temperature=0.05, sharpness=20.0,
                         fixed=[0, 2])
    # Only the ranking within a decision is learnt: the values are the truth times a scale.
    want = np.array([0.0, 1.0, 0.0, -0.5, 0.5])
    scale = float(values @ want / (want @ want))
    assert scale > 0
    assert values == pytest.approx(scale * want, abs=0.1 * scale)
    normal = Normal.build(shares, groups, shares @ values)
    names = list(TERMS)
    terms, _ = snap_to_terms(normal, list(TERMS.values()), fixed={0: 2, 2: 2})
    assert [names[t] for t in terms] == truth


def test_the_fit_stops_after_its_iterations() -> None:
    """``iterations`` bounds L-BFGS: one iteration leaves the values far from the fit that
    300 reach (scipy's own default would run to 15,000 whatever was asked)."""
    teacher, student, _, x, groups = _lesson(4, 600)
    shares = firing_shares(student, x)
    args = (shares, groups, teacher.grade(x))
    one = fit_choices(*args, temperature=0.05, sharpness=20.0, fixed=[0, 2], iterations=1)
    full = fit_choices(*args, temperature=0.05, sharpness=20.0, fixed=[0, 2])
    assert np.abs(one - full).max() > 0.1 * np.abs(full).max()
    assert fit_choices(*args, temperature=0.05, sharpness=20.0, fixed=[0, 2],
                       iterations=300) == pytest.approx(full)


def test_no_conclusions_either_side_leaves_one_level_at_zero() -> None:
    assert taught_levels(np.zeros(5), per_side=3).tolist() == [0.0]
    assert taught_levels([], per_side=3).tolist() == [0.0]


def test_taught_levels_find_the_clusters_each_side_of_zero() -> None:
    rng = np.random.default_rng(5)
    centres = np.array([-4.0, -1.0, 0.5, 8.0])
    values = np.repeat(centres, 30) + rng.normal(scale=0.01, size=120)
    levels = taught_levels(values, per_side=2)
    assert levels == pytest.approx(np.r_[centres[:2], 0.0, centres[2:]] / 8.0, abs=0.01)
    only_good = taught_levels(values[values > 0], per_side=2)  # no Bad terms to place
    assert only_good == pytest.approx([0.0, 0.0625, 1.0], abs=0.01)


def _choice_loss(shares: np.ndarray, groups: np.ndarray, target: np.ndarray,  # type: ignore[type-arg]
                 values: np.ndarray, sharpness: float) -> float:  # type: ignore[type-arg]
    """Cross-entropy between teacher and student softmaxes, written out per decision."""
    total = 0.0
    for d in np.unique(groups):
        rows = groups == d
        t = np.exp(target[rows] / 0.05 - (target[rows] / 0.05).max())
        z = sharpness * shares[rows] @ values
        p = np.exp(z - z.max())
        total -= float(t / t.sum() @ np.log(p / p.sum()))
    return total


def test_refining_choices_walks_a_wrong_term_back_to_the_teachers() -> None:
    teacher, student, _, x, groups = _lesson(6, 400)
    shares = firing_shares(student, x)
    target = teacher.grade(x)
    names, levels = list(TERMS), np.array(list(TERMS.values()))
    truth = np.array([names.index(t) for t in TRUTH])
    for rule, step in [(1, -1), (1, -2), (3, 1), (3, -1), (4, 1), (4, -1)]:
        start = truth.copy()
        start[rule] += step
        got = refine_choices(shares, groups, target, start, levels, temperature=0.05,
                             sharpness=20.0, fixed=[0, 2])
        assert [names[t] for t in got] == TRUTH, (rule, step)
    # Two wrong rules that make up for each other are a local optimum a one-rule step
    # cannot leave; it is never worse than the start.
    start = truth.copy()
    start[1] -= 2
    start[4] += 1
    got = refine_choices(shares, groups, target, start, levels, temperature=0.05,
                         sharpness=20.0, fixed=[0, 2])
    assert (_choice_loss(shares, groups, target, levels[got], 20.0)
            < _choice_loss(shares, groups, target, levels[start], 20.0))
    assert _group_softmax(np.zeros(4), np.array([0, 0, 1, 1])) == pytest.approx([0.5] * 4)


def test_a_rule_that_fires_in_no_decision_keeps_its_term() -> None:
    """A rule no decision fires (a small data set: the teach script's --also test found
    it) keeps its term while the others are refined; it used to stop the refinement with
    numpy's "zero-size array" error."""
    teacher, student, _, x, groups = _lesson(6, 400)
    shares = firing_shares(student, x)
    shares = np.hstack([shares, np.zeros((shares.shape[0], 1), dtype=shares.dtype)])
    target = teacher.grade(x)
    names, levels = list(TERMS), np.array(list(TERMS.values()))
    truth = np.array([names.index(t) for t in TRUTH])
    start = np.r_[truth, 1]
    start[1] -= 1
    got = refine_choices(shares, groups, target, start, levels, temperature=0.05,
                         sharpness=20.0, fixed=[0, 2])
    assert [names[t] for t in got] == [*TRUTH, names[1]]
