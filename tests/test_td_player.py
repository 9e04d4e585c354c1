"""The td player (fuzzeval.learn.td_player): a rule base that reads what a decision does not
offer is refused, naming every feature it lacks. (How it chooses, and what TD(λ) teaches it:
tests/test_td_runs.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.engine.evaluator import compile_rulebase
from fuzzeval.errors import FuzzevalError
from fuzzeval.formats.loading import load_rulebase_text
from fuzzeval.learn.td_player import ValuePlayer
from fuzzeval.play.game import Candidates, Payoff
from fuzzeval.resources import find_rulebase


@pytest.mark.mutation_pin
def test_a_base_reading_features_a_decision_lacks_is_refused_naming_them() -> None:
    rb = load_rulebase_text(find_rulebase("hearts_td").read_text())
    offered = rb.input_names[2:]  # all but rank and is_heart
    cands = Candidates("play", ("a",), np.zeros((1, len(offered))), offered)
    player = ValuePlayer(compile_rulebase(rb), Payoff("points", higher_is_better=False))
    with pytest.raises(FuzzevalError) as info:
        player.rows(cands)
    assert str(info.value) == ("rule base 'hearts_td' reads rank, is_heart: not features of "
                               "this decision")
