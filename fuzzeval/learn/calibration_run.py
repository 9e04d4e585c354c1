"""A calibration as ``fuzzeval calibrate`` runs it, in one call: its rounds into a history
file, then the game's own measure of the rule base before and after, on held-out deals.

Beside ``calibration_rounds`` (the rounds) and ``held_out`` (the measures), which it joins:
``held_out`` reads ``calibration_rounds``, so the join cannot live in either.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

from fuzzeval.learn.calibration_rounds import (
    Calibration,
    CalibrationJob,
    RoundResult,
    run_calibration,
)
from fuzzeval.learn.held_out import held_out_measures
from fuzzeval.learn.measure import Comparison
from fuzzeval.play.rows import GameRows
from fuzzeval.play.spec import check_held_out
from fuzzeval.play.store import History


@dataclass(frozen=True)
class Calibrated:
    """A calibration's result: the stored calibration, and the game's own measures of its
    initial and calibrated rule base on held-out deals (() when none)."""

    calibration: Calibration
    held_out: tuple[Comparison, ...]


def calibrate_into(path: Path, job: CalibrationJob, deals: int,
                   executor: Executor | None = None, resume: bool = False, *,
                   on_round_start: Callable[[int, int], None] | None = None,
                   on_game: Callable[[GameRows], None] | None = None,
                   on_round: Callable[[RoundResult], None] | None = None,
                   on_phase: Callable[[str, int], None] = lambda _d, _t: None,
                   on_advance: Callable[[int], None] = lambda _k: None) -> Calibrated:
    """Play (or finish) ``job``'s rounds into the history at ``path`` (the round callbacks
    as ``run_calibration``'s), then measure ``deals`` held-out deals (0: none): their
    phase is said to ``on_phase`` with its total, and ``on_advance`` counts it. Held-out
    deals out of range are refused before any round."""
    check_held_out(deals)
    with History(path) as history:
        cal = run_calibration(history, job.game, job.settings, job.source, job.rounds,
                              executor, resume, on_round_start, on_game, on_round)
    on_phase("held-out deals: exact values", 2 * deals)
    return Calibrated(cal, held_out_measures(job.game, cal, deals, None, executor,
                                             path.resolve().parent / "cache", on_advance))
