"""The tuner's best-so-far, pinned against the values it was shown: after each generation it
is the largest objective of every rule base evaluated so far, the start's included, so it
never goes down and never falls below the start (the tuned file is never worse on the
training units than the file it came from)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.engine.rulebase import PointRef, RuleBase
from fuzzeval.formats.loading import load_rulebase
from fuzzeval.learn.tune import Generation, Space, TuneSettings, run_tuning
from fuzzeval.play.store import History

pytestmark = pytest.mark.pinned

TIPPING = Path(__file__).resolve().parents[1] / "rulebases" / "tipping.yaml"
PEAK = PointRef("quality", "average", "peak")  # tipping's one adjustable point, at 5


class Recorder:
    """A measure that remembers, in order, the objective of every rule base it is shown:
    -(peak - target)^2 on each of two units (+-0.5 noise that averages out)."""

    names: tuple[str, ...] = ("closeness",)

    def __init__(self, target: float, bumpy: bool = False) -> None:
        self.target = target
        self.bumpy = bumpy
        self.seen: list[float] = []

    def contributions(self, rb: RuleBase) -> np.ndarray:
        peak = rb.point(PEAK)
        value = -(peak - self.target) ** 2
        if self.bumpy:  # many local optima: later generations often score worse
            value += 3 * np.sin(7 * peak)
        self.seen.append(value)
        return np.array([[value + 0.5, value - 0.5]])


def tune(db: Path, measure: Recorder, budget: int, seed: int) -> list[Generation]:
    rb = load_rulebase(TIPPING)
    gens: list[Generation] = []
    with History(db) as h:
        run_tuning(h, Space.of(rb), measure, TuneSettings("toy", 2, seed),
                   TIPPING.read_text(), budget=budget, on_generation=gens.append)
    return gens


def test_a_start_that_is_already_best_stays_the_best(tmp_path: Path) -> None:
    # The peak starts at the optimum (5): the start scores 0, every other point less.
    measure = Recorder(target=5.0)
    gens = tune(tmp_path / "t.sqlite", measure, budget=40, seed=1)
    assert len(gens) >= 5
    assert measure.seen[0] == 0.0  # the start, evaluated first
    assert sum(v < 0 for v in measure.seen[1:]) > len(measure.seen) // 2  # worse ones
    for g in gens:
        assert g.best == 0.0
        assert g.mean < 0  # every generation's own mean is worse than the start


@pytest.mark.parametrize("seed", [2, 5])
def test_the_best_so_far_is_the_running_maximum_of_what_was_evaluated(
        tmp_path: Path, seed: int) -> None:
    measure = Recorder(target=3.3, bumpy=True)
    gens = tune(tmp_path / "t.sqlite", measure, budget=120, seed=seed)
    assert len(gens) >= 10
    start = measure.seen[0]
    for g in gens:
        assert g.best == pytest.approx(max(measure.seen[:g.evaluations]), abs=1e-12)
        assert g.best >= start
    bests = [g.best for g in gens]
    assert bests == sorted(bests)  # never down
    # ...and it moves: some generation improved on the start, and some generation's own
    # mean fell below the best found before it (so a "best" that was only the current
    # generation's would have gone down).
    assert bests[-1] > start
    assert any(g.mean < prev.best for prev, g in pairwise(gens))
