"""held_out_measures: the game's own measure of the initial and the calibrated rule base,
asked for the number of held-out deals given (one included), and nothing without one."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from fuzzeval.engine.rulebase import PointRef, RuleBase
from fuzzeval.learn.calibration_rounds import Calibration, CalibrationSettings, RoundResult
from fuzzeval.learn.held_out import held_out_measures, held_out_seed

TIPPING = Path(__file__).resolve().parents[1] / "rulebases" / "tipping.yaml"


class _Peak:
    """A measure reading tipping's adjustable peak, one contribution a deal."""

    names = ("peak",)

    def __init__(self, deals: int) -> None:
        self.deals = deals

    def contributions(self, rb: RuleBase) -> np.ndarray:
        peak = rb.point(PointRef("quality", "average", "peak"))
        return np.full((1, self.deals), peak)


class _Game:
    def __init__(self) -> None:
        self.asked: list[tuple[Any, ...]] = []

    def rulebase_measure(self, inputs: tuple[str, ...], deals: int, seed: int, *rest: Any
                         ) -> _Peak:
        self.asked.append((inputs, deals, seed))
        return _Peak(deals)


def _calibration() -> Calibration:
    text = TIPPING.read_text()
    moved = text.replace("average: {points: [0, 5, 10], adjust: [peak]}",
                         "average: {points: [0, 4, 10], adjust: [peak]}")
    assert moved != text
    return Calibration(1, CalibrationSettings("toy", "random", 10, 5), "tipping", 1,
                       (RoundResult(0, text, match_id=1, games=10, wins=5), RoundResult(1, moved)))


def test_one_held_out_deal_is_measured_and_none_is_nothing() -> None:
    game = _Game()
    (one,) = held_out_measures(game, _calibration(), 1)  # type: ignore[arg-type]
    assert (one.name, one.units, one.before, one.after) == ("peak", 1, 5.0, 4.0)
    assert game.asked == [(("quality", "service"), 1, held_out_seed(5))]
    assert held_out_measures(game, _calibration(), 0) == ()  # type: ignore[arg-type]
    assert len(game.asked) == 1


@pytest.mark.mutation_pin
def test_a_measures_table_shows_before_after_and_the_paired_change() -> None:
    from fuzzeval.cli.common import measures_table
    from fuzzeval.learn.measure import Comparison

    table = measures_table("t", (Comparison("efficiency", 10, 0.5, 0.625, (0.1, 0.15)),))
    out = io.StringIO()
    Console(file=out, width=80).print(table)
    lines = [" ".join(line.split()) for line in out.getvalue().splitlines()]
    assert "measure initial calibrated change (paired 95%)" in lines
    assert "efficiency 0.5000 0.6250 +0.1250 ± 0.0250" in lines
