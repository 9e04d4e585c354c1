"""A run's settings check themselves (calibration, tuning, learn): a library caller is
refused what the command refuses, in the command's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzzeval.errors import UsageError
from fuzzeval.learn.calibration_rounds import CalibrationSettings, check_rounds
from fuzzeval.learn.td_runs import LearnSettings
from fuzzeval.learn.tune import TuneSettings


@pytest.mark.parametrize(("make", "message"), [
    (lambda: CalibrationSettings("cribbage", "random", 4, 2, rate=2.0),
     r"^--rate must be in \(0, 1\] \(got 2\)$"),
    (lambda: CalibrationSettings("cribbage", "random", 4, 2, rate=float("nan")),
     r"^--rate must be in \(0, 1\] \(got nan\)$"),
    (lambda: CalibrationSettings("cribbage", "random", 4, 2, win_unit="hand"),  # type: ignore[arg-type]
     r"^--win-unit must be game or deal \(got 'hand'\)$"),
    (lambda: CalibrationSettings("cribbage", "random", 4, 2, window="some"),  # type: ignore[arg-type]
     r"^--window must be round or all \(got 'some'\)$"),
    (lambda: CalibrationSettings("cribbage", "random", 0, 2),
     r"^--games-per-round must be at least 1 \(got 0\)$"),
    (lambda: check_rounds(CalibrationSettings("cribbage", "random", 100_000, 2), 100_000),
     r"^--rounds 100,000 of --games-per-round 100,000 are more than 100,000,000 games in "
     "all$"),
    (lambda: TuneSettings("cribbage", 0, 1), r"^--training-deals must be at least 1 \(got 0\)$"),
    (lambda: TuneSettings("cribbage", 10**8, 1),
     r"^--training-deals must be at most 1,000,000 \(got 100,000,000\)$"),
    (lambda: TuneSettings("cribbage", 10, 1, sigma0=5.0),
     r"^--sigma must be in \[0.001, 1\], a share of each point's range \(got 5\)$"),
    (lambda: TuneSettings("cribbage", 10, 1, popsize=1),
     r"^--popsize must be 0 \(CMA-ES's default\) or at least 2 \(got 1\)$"),
    (lambda: TuneSettings("cribbage", 10, 1, popsize=-1),
     r"^--popsize must be at least 0 \(got -1\)$"),
])
def test_a_library_caller_is_refused_what_the_command_refuses(make: object,
                                                              message: str) -> None:
    with pytest.raises(UsageError, match=message):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("seed", [-1, 2**63])
def test_every_kinds_settings_refuse_a_seed_as_the_command_line_does(seed: int) -> None:
    """The range ``--seed`` allows, in its words: a library caller got a numpy error
    later (or none) before."""
    words = rf"^Invalid value for '--seed': {seed} is not in the range 0<=x<={2**63 - 1}\.$"
    for make in (lambda: CalibrationSettings("cribbage", "random", 4, seed),
                 lambda: TuneSettings("cribbage", 10, seed),
                 lambda: LearnSettings("hearts", seed=seed)):
        with pytest.raises(UsageError, match=words):
            make()


@pytest.mark.parametrize(("deals", "words"), [
    (-5, r"^--held-out-deals must be at least 0 \(got -5\)$"),
    (1_000_001, r"^--held-out-deals must be at most 1,000,000 \(got 1,000,001\)$")])
def test_held_out_deals_are_refused_in_the_library_in_the_commands_words(
        tmp_path: Path, deals: int, words: str) -> None:
    """tune's check was in its command only: ``tune_into(held_out=-5)`` went on, and
    ``held_out_measures`` took -5 for none."""
    from fuzzeval.learn.held_out import held_out_measures
    from fuzzeval.learn.tune import tune_into, tune_job
    from fuzzeval.play.registry import load_game

    job = tune_job(TuneSettings("cribbage", 10, 1), None, 20)
    with pytest.raises(UsageError, match=words):
        tune_into(tmp_path / "t.sqlite", job, "start", deals)
    assert not (tmp_path / "t.sqlite").exists()
    with pytest.raises(UsageError, match=words):
        held_out_measures(load_game("cribbage"), None, deals)  # type: ignore[arg-type]
