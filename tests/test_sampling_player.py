"""Gaps mutmut found in the sampling player and the run estimates (docs/checking.md,
"Every module"): expected values from the docstrings' rules, not from the code."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.play.estimate import duration
from fuzzeval.play.match import make_player
from tests.test_sampling import VisibleToy
from tests.toy import ToyState

pytestmark = pytest.mark.mutation_pin


def test_the_sampling_player_defaults_to_the_seeds_rule_and_stops_no_earlier_than_50() -> None:
    player = make_player(VisibleToy(), "sampling", rollout="random")
    settings = player.settings  # type: ignore[attr-defined]
    assert (settings.trials, settings.stop, settings.min_trials) == (500, "obvious", 50)


def test_one_trial_is_a_valid_budget() -> None:
    player = make_player(VisibleToy(), "sampling", rollout="random",
                         trials=1)
    assert (player.settings.trials, player.settings.min_trials) == (1, 1)  # type: ignore[attr-defined]


def test_choose_is_the_choice_decide_makes() -> None:
    game = VisibleToy()
    player = make_player(game, "sampling", rollout="random", trials=60,
                         stop="none")
    cands = game.candidates(ToyState(turn=0, first=0, offers=(2, 8, 5), sums=(0, 0)))
    # offers 2, 8, 5: taking the 8 leads by the most in every trial (common random numbers)
    assert player.choose(cands, np.random.default_rng(0)) == 1


def test_durations_below_90_seconds_are_in_seconds_from_90_in_minutes() -> None:
    assert duration(89.4) == "89 s"
    assert duration(90) == "2 min"  # 1.5 min, rounded half to even


def test_softmax_draws_from_grades_too_large_to_exponentiate() -> None:
    """exp(1000) overflows: without the shift by the largest grade the probabilities were
    inf/inf (NaN) and the draw failed. Grades 1000 and 1001 at temperature 1 are drawn as
    1 and e, so the second with chance e / (1 + e) = 0.731."""
    from fuzzeval.search.sampling import softmax_choice

    rng = np.random.default_rng(3)
    with np.errstate(over="raise", invalid="raise"):
        picks = [softmax_choice(np.array([1000.0, 1001.0]), 1.0, rng) for _ in range(4000)]
    # 4,000 draws: the share's standard deviation is 0.007, so 0.731 ± 0.03 is 4 of them
    assert abs(np.mean(picks) - np.e / (1 + np.e)) < 0.03
