"""The output sets a viewer draws (``fuzzeval.engine.output_sets``): the clipped terms and
their aggregate against scikit-fuzzy's, and the singletons' contributions worked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.engine.evaluator import compile_rulebase
from fuzzeval.engine.output_sets import output_sets
from fuzzeval.formats.loading import load_rulebase
from tests.conftest import RULEBASES

skfuzzy = pytest.importorskip("skfuzzy")


def test_the_tipping_sets_are_scikit_fuzzy_s_clip_and_aggregate() -> None:
    rb = load_rulebase(RULEBASES / "tipping.yaml")
    exp = compile_rulebase(rb).explain({"quality": 6.5, "service": 9.8})
    # by hand: low: poor(6.5) or poor(9.8) = 0; medium: average(9.8) or average(6.5) =
    # max(0.04, 0.7); high: good(9.8) and not poor(6.5) = 0.96, good(6.5) x 0.5 = 0.15
    assert exp.activations == pytest.approx({"low": 0.0, "medium": 0.7, "high": 0.96})
    sets = output_sets(rb, exp, steps=250)
    y = np.linspace(0, 25, 251)
    assert sets.grid == pytest.approx(y.tolist())
    want = {"low": np.fmin(0.0, skfuzzy.trimf(y, [0, 0, 13])),
            "medium": np.fmin(0.7, skfuzzy.trimf(y, [0, 13, 25])),
            "high": np.fmin(0.96, skfuzzy.trimf(y, [13, 25, 25]))}
    for term, values in want.items():
        assert sets.clipped[term] == pytest.approx(values.tolist(), abs=1e-12)
    aggregate = np.fmax(want["low"], np.fmax(want["medium"], want["high"]))
    assert sets.aggregate == pytest.approx(aggregate.tolist(), abs=1e-12)
    assert sets.aggregate[130] == pytest.approx(0.7)  # y = 13: medium's plateau
    # the grid's centroid is the exact centroid's to the grid's error
    assert skfuzzy.defuzz(y, aggregate, "centroid") == pytest.approx(sets.grade, abs=0.01)
    assert sets.strength == {} and sets.contribution == {}
    assert sets.defuzzifier == "centroid"
    # what a viewer is sent: the same numbers as JSON lists, under these names
    sent = json.loads(json.dumps(sets.to_dict()))
    assert sorted(sent) == ["aggregate", "clipped", "contribution", "defuzzifier", "grade",
                            "grid", "strength"]
    assert sent["defuzzifier"] == "centroid" and sent["grid"] == pytest.approx(y.tolist())
    for term, values in want.items():
        assert sent["clipped"][term] == pytest.approx(values.tolist(), abs=1e-12)
    assert sent["aggregate"] == pytest.approx(aggregate.tolist(), abs=1e-12)
    assert sent["strength"] == {} and sent["contribution"] == {}
    assert sent["grade"] == pytest.approx(skfuzzy.defuzz(y, aggregate, "centroid"), abs=0.01)


@pytest.mark.mutation_pin
def test_a_vertical_side_is_drawn_as_steep_as_the_engine_makes_it(tmp_path: Path) -> None:
    """A vertical side stands for a slope of 1e12 over the output's width (24,000 here):
    a grid point 2**-31 left of it is at 1 - 2**-31 * 1e12 / 24000 = 0.98060, not 0 (a
    slope of 1e12 over a width of 1)."""
    path = tmp_path / "v.yaml"
    path.write_text("""name: v
defuzzifier: centroid
default: 0
inputs:
  x: {range: [0, 10], terms: {low: [0, 0, 10]}}
output:
  name: v
  range: [0, 24000]
  terms: {big: [100.0000000004656612873077392578125, 100.0000000004656612873077392578125,
                24000]}
rules:
  - if x is low then v is big
""")
    rb = load_rulebase(path)
    sets = output_sets(rb, compile_rulebase(rb).explain({"x": 0.0}), steps=240)
    assert sets.grid[1] == 100.0  # the grid's step: 24000 / 240
    assert sets.clipped["big"][1] == pytest.approx(1 - 1e12 / (24000 * 2**31), abs=1e-9)
    assert sets.clipped["big"][0] == 0.0 and sets.clipped["big"][2] == pytest.approx(
        1 - 100 / 23900, abs=1e-9)  # 200 on the falling side


def test_a_singleton_base_gives_each_term_s_strength_and_contribution(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    text = """name: s
defuzzifier: weighted_sum
default: 0
inputs:
  x: {range: [0, 10], terms: {low: [0, 0, 10], high: [0, 10, 10]}}
output: {name: v, range: [-5, 5], terms: {bad: -4, good: 2}}
rules:
  - if x is low then v is bad
  - rule: if x is high then v is good
    weight: 0.5
  - if x is high then v is bad
"""
    path.write_text(text)
    rb = load_rulebase(path)
    sets = output_sets(rb, compile_rulebase(rb).explain({"x": 2.0}))
    # low(2) = 0.8, high(2) = 0.2: bad 0.8 + 0.2 = 1.0, good 0.2 x 0.5 = 0.1
    assert sets.strength == pytest.approx({"bad": 1.0, "good": 0.1})
    assert sets.contribution == pytest.approx({"bad": -4.0, "good": 0.2})
    assert sets.grade == pytest.approx(-3.8)  # the weighted sum: the contributions' sum
    assert sets.grid == () and sets.aggregate == () and sets.clipped == {}
    assert sets.defuzzifier == "weighted_sum"
    assert json.loads(json.dumps(sets.to_dict())) == {
        "defuzzifier": "weighted_sum", "grid": [], "clipped": {}, "aggregate": [],
        "strength": pytest.approx({"bad": 1.0, "good": 0.1}),
        "contribution": pytest.approx({"bad": -4.0, "good": 0.2}),
        "grade": pytest.approx(-3.8)}
    path.write_text(text.replace("weighted_sum", "weighted_average"))
    rb = load_rulebase(path)
    sets = output_sets(rb, compile_rulebase(rb).explain({"x": 2.0}))
    assert sets.grade == pytest.approx(-3.8 / 1.1)  # divided by the total strength
    assert sum(sets.contribution.values()) / sum(sets.strength.values()) == \
        pytest.approx(sets.grade)


def test_an_option_is_explained_only_from_features_its_candidates_carry() -> None:
    from fuzzeval.games.cribbage.cards import parse_cards
    from fuzzeval.games.cribbage.game import discard_candidates
    from fuzzeval.play.advice import explain_option

    candidates = discard_candidates(tuple(sorted(parse_cards("5H 5S JD QC 4S 9C", 6))), True)
    assert len(candidates) == 15 and candidates.labels[0] == "4S 5H"
    tipping = compile_rulebase(load_rulebase(RULEBASES / "tipping.yaml"))
    with pytest.raises(ValueError, match=r"^the options carry no feature "
                       r"'quality' of the rule base tipping$"):
        explain_option(tipping, candidates, 0)
    linguistic = compile_rulebase(load_rulebase(RULEBASES / "cribbage_linguistic.yaml"))
    # the throw 4S 9C keeps 5H 5S JD QC: fifteens 5H+JD, 5H+QC, 5S+JD, 5S+QC (8 points)
    # and the pair of fives (2): kept_points 10
    why = explain_option(linguistic, candidates, candidates.labels.index("4S 9C"))
    assert why.inputs["kept_points"] == 10.0
