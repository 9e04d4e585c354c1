"""Values, not only the form, of the game-agnostic sampling loop (``fuzzeval.search.sampling``):
the stop rule judges every trial so far, and a simulation's means are the playouts' exact
expectations (worked out here by enumeration, not by the code under test)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np
import pytest

from fuzzeval.search.sampling import (
    SamplingSettings,
    Simulator,
    StopRule,
    playout_simulator,
    simulate,
)
from tests.toy import MaxPlayer, ToyGame, ToyHooks, ToyState

pytestmark = pytest.mark.pinned


def scripted(blocks: Sequence[Sequence[Sequence[float]]], calls: list[int]) -> Simulator:
    """A simulator that gives these batches of trial values, one per call, in order."""

    def run(n: int, rng: np.random.Generator) -> np.ndarray:
        block = np.array(blocks[len(calls)], dtype=np.float64)
        calls.append(n)
        assert block.shape[0] == n
        return block

    return run


def test_the_stop_rule_judges_every_trial_so_far_not_the_last_batch() -> None:
    # Batch 1: candidate 1 is 10 better in both trials; batch 2: candidate 0 is. Each batch
    # alone is "obvious" (a gap of 10, no spread), the four trials together are a tie
    # (means 5 and 5): no stop after trial 4, so the third batch runs too.
    blocks = [[[0, 10], [0, 10]], [[10, 0], [10, 0]], [[10, 0], [10, 0]]]
    rules: tuple[StopRule, ...] = ("obvious", "paired")
    for rule in rules:
        calls: list[int] = []
        settings = SamplingSettings(trials=6, stop=rule, batch=2, min_trials=4)
        result = simulate(scripted(blocks, calls), 2, settings, np.random.default_rng(0))
        assert calls == [2, 2, 2], rule
        assert result.trials == 6 and not result.stopped
        # By hand: candidate 0 scored 0, 0, 10, 10, 10, 10 (mean 20/3), candidate 1 the
        # mirror (mean 10/3); both deviate by 20/3 twice and 10/3 four times: the sample
        # deviation is sqrt((2 * 400/9 + 4 * 100/9) / 5).
        assert result.means.tolist() == pytest.approx([20 / 3, 10 / 3], abs=1e-12)
        sd = np.sqrt((2 * 400 / 9 + 4 * 100 / 9) / 5)
        assert result.sds.tolist() == pytest.approx([sd, sd], abs=1e-12)
        assert result.best == 0
        assert result.record() == {"trials": 6, "stopped": 0, "means": "6.667 3.333",
                                   "sds": f"{sd:.3f} {sd:.3f}"}


def test_a_stop_takes_the_earlier_batches_into_account() -> None:
    # The other way round: the last batch alone is a tie (1, -1 against -1, 1), but with
    # the three batches before it the second candidate leads by 7.5 (means -0 and 7.5; the
    # deviations 0.53 and 4.63, the paired differences' standard error 1.67): obvious by
    # both rules after 8 trials.
    ahead = [[0, 10], [0, 10]]
    blocks = [ahead, ahead, ahead, [[1, -1], [-1, 1]], [[0, 0], [0, 0]]]
    values = np.array([row for block in blocks[:4] for row in block], dtype=np.float64)
    sds = values.std(axis=0, ddof=1)
    assert sds.sum() + 2 < 7.5  # Billings et al.'s rule fires, with room
    diffs = values[:, 1] - values[:, 0]
    assert diffs.mean() > 2.5 * diffs.std(ddof=1) / np.sqrt(8) + 2  # and the paired one
    rules: tuple[StopRule, ...] = ("obvious", "paired")
    for rule in rules:
        calls: list[int] = []
        settings = SamplingSettings(trials=10, stop=rule, batch=2, min_trials=8)
        result = simulate(scripted(blocks, calls), 2, settings, np.random.default_rng(0))
        assert calls == [2, 2, 2, 2] and result.trials == 8 and result.stopped, rule
        assert result.means.tolist() == [0.0, 7.5]  # (0 * 6 + 1 - 1) / 8, (60 - 1 + 1) / 8
        assert result.best == 1


def test_a_toy_simulations_means_are_the_exact_expectations() -> None:
    # Seat 0 (sum 4) takes 3, 9 or 5 on the fifth turn; seat 1 (sum 7) then takes the
    # largest of three fresh numbers 0..10. The worth of taking o is 4 + o - 7 - M, M the
    # largest of three: its distribution by enumerating all 11^3 draws.
    largest = np.array([max(t) for t in product(range(11), repeat=3)], dtype=np.float64)
    mean_m, sd_m = largest.mean(), largest.std()
    assert mean_m == pytest.approx(85 / 11)  # sum_k P(M > k) = 11 - (1^3 + ... + 11^3) / 11^3
    exact = [4 + o - 7 - mean_m for o in (3, 9, 5)]
    game = ToyGame()
    root = ToyState(turn=4, first=0, offers=(3, 9, 5), sums=(4, 7))
    sim = playout_simulator(game, ToyHooks(root), game.candidates(root),
                            (MaxPlayer(), MaxPlayer()))
    n = 3000
    result = simulate(sim, 3, SamplingSettings(trials=n, stop="none", batch=500),
                      np.random.default_rng(11))
    assert result.trials == n and not result.stopped
    # Each mean is an average of n independent draws of -M (shifted): within 5 standard
    # errors of the expectation (a wrong one, e.g. the seat's own offer left out, is >= 3
    # points off); the common random numbers make the differences exact.
    se = sd_m / np.sqrt(n)
    assert np.abs(result.means - exact).max() < 5 * se
    assert result.means[1] - result.means[0] == pytest.approx(6, abs=1e-12)
    assert result.means[2] - result.means[0] == pytest.approx(2, abs=1e-12)
    # The deviation of every candidate is M's (the same draws): within 10 %.
    assert result.sds == pytest.approx([sd_m] * 3, rel=0.1)
    assert result.best == 1
