"""``fuzzeval evaluate-calibration``: its tables read cell by cell and its default number
of held-out deals (values worked by hand)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar, cast

import pytest
from rich.progress import Progress
from typer.testing import CliRunner

from fuzzeval.cli import app
from tests.cli_tables import title

runner = CliRunner()
ENV = {"COLUMNS": "80"}


class _Bars(Progress):
    """A progress bar that remembers its tasks."""

    made: ClassVar[list[_Bars]] = []

    def __init__(self, *columns: Any, **options: Any) -> None:
        super().__init__(*columns, **options)
        _Bars.made.append(self)


def _evaluate_calibration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          result: Any) -> list[str]:
    """evaluate-calibration's printed lines for a held-out result given by hand (the
    matches themselves are tested in tests/test_calibration_rounds.py)."""
    from fuzzeval.learn import calibration_rounds, held_out
    from fuzzeval.play.store import History

    db = tmp_path / "c.sqlite"
    with History(db):
        pass
    cal = SimpleNamespace(id=3, finished_rounds=(1, 2), rulebase_name="toy",
                          settings=SimpleNamespace(game="cribbage", opponent="random"))
    games_seen: list[int] = []

    def evaluate(history: Any, game: Any, c: Any, games: int, seed: Any, pool: Any,
                 deals: int, cache: Any, on_game: Any) -> held_out.HeldOut:
        assert c is cal and (games, seed, deals) == (10, None, 2000)
        for _ in range(2 * games):
            on_game(None)
        games_seen.append(games)
        return cast(held_out.HeldOut, result)

    monkeypatch.setattr(calibration_rounds, "load_calibration", lambda h, i: cal)
    monkeypatch.setattr(held_out, "evaluate_calibration", evaluate)
    monkeypatch.setattr("rich.progress.Progress", _Bars)
    _Bars.made = []
    res = runner.invoke(app, ["evaluate-calibration", str(db), "-n", "10", "-w", "1"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    assert games_seen == [10]
    # the bar counts both rule bases' games, and ends full
    assert [(t.completed, t.total) for t in _Bars.made[-1].tasks] == [(20, 20)]
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    top = lines.index("") + 1
    assert lines[top].split() == ["measure", "initial", "calibrated", "change", "(paired",
                                  "95%)"]
    return lines


def _rows(lines: list[str]) -> list[list[str]]:
    """The cells of a table's rows under its header (cells are 2+ spaces apart)."""
    top = lines.index("") + 3
    return [[w.strip() for w in line.split("  ") if w.strip()] for line in lines[top:] if line]


@pytest.mark.mutation_pin
def test_evaluate_calibration_table_of_a_game_with_winners(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.learn.held_out import HeldOut
    from fuzzeval.learn.measure import Comparison
    from fuzzeval.play.match import MatchSummary

    initial = MatchSummary(games=10, win_rate=0.5, interval=(0.2366, 0.7634),
                           mean_margin=-3.25, units=0, sides=())
    calibrated = MatchSummary(games=10, win_rate=0.7, interval=(0.3968, 0.8922),
                              mean_margin=4.5, units=0, sides=())
    lines = _evaluate_calibration(tmp_path, monkeypatch, HeldOut(
        10, 77, initial, calibrated, 0.2, (-0.1, 0.5),
        (Comparison("discard efficiency", 100, 0.9, 0.95, (0.03, 0.07)),)))
    assert title(lines) == ("toy before and after 2 rounds of calibration, against random: "
                             "10 held-out games and 2,000 held-out deals each (seed 77)")
    # +20.0 % +- half the interval's width, (0.5 - -0.1) / 2 = 30 %; the margin's change is
    # 4.50 - -3.25 = 7.75; the measure's 0.95 - 0.90 = 0.05 +- (0.07 - 0.03) / 2.
    assert _rows(lines) == [["win rate", "50.0%", "70.0%", "+20.0% ± 30.0%"],
                            ["95% interval", "23.7–76.3%", "39.7–89.2%"],
                            ["mean final margin", "-3.25", "+4.50", "+7.75"],
                            ["discard efficiency", "0.9000", "0.9500", "+0.0500 ± 0.0200"]]
    top = lines.index("") + 3
    assert lines[top + 1].startswith("    95% interval")  # indented under its win rate


@pytest.mark.mutation_pin
def test_evaluate_calibration_table_of_a_game_without_winners(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hearts-like: the rate of beating the table's mean, and the mean payoff itself."""
    from fuzzeval.learn.held_out import HeldOut
    from fuzzeval.play.match import MatchSummary

    def summary(mean: float) -> MatchSummary:
        return MatchSummary(games=10, win_rate=None, interval=(0.0, 0.0), mean_margin=None,
                            units=0, sides=(), mean=mean, unit="points a game")

    lines = _evaluate_calibration(tmp_path, monkeypatch, HeldOut(
        10, 77, summary(-1.25), summary(-0.5), 0.3, (0.1, 0.5), (), rates=(0.3, 0.6),
        payoff_difference=0.75, payoff_interval=(0.25, 1.25)))
    assert title(lines) == ("toy before and after 2 rounds of calibration, against random: "
                             "10 held-out games each (seed 77)")
    # 60 % - 30 % +- (0.5 - 0.1) / 2; -0.5 - -1.25 = 0.75 +- (1.25 - 0.25) / 2
    assert _rows(lines) == [["beat the table's mean", "30.0%", "60.0%", "+30.0% ± 20.0%"],
                            ["points a game", "-1.250", "-0.500", "+0.750 ± 0.500"]]


@pytest.mark.mutation_pin
def test_held_out_deals_default_is_the_commands(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python API and `evaluate-calibration` measure the same held-out deals unless
    told otherwise: 2,000 (docs/cli.md, --held-out-deals)."""
    from fuzzeval.learn import held_out
    from fuzzeval.learn.calibration_rounds import (
        CalibrationSettings,
        load_calibration,
        run_calibration,
    )
    from fuzzeval.play.store import History
    from tests.toy import RULEBASE, ToyGame

    measured: list[int] = []

    def measures(game: Any, cal: Any, deals: int, *rest: Any) -> tuple[()]:
        measured.append(deals)
        return ()

    monkeypatch.setattr(held_out, "held_out_measures", measures)
    with History(tmp_path / "toy.sqlite") as h:
        run_calibration(h, ToyGame(), CalibrationSettings("toy", "random", 2, 1), RULEBASE, 1)
        result = held_out.evaluate_calibration(h, ToyGame(), load_calibration(h), 2)
    assert measured == [2000] and result.games == 2
    res = runner.invoke(app, ["evaluate-calibration", "--help"], env={"COLUMNS": "250"})
    assert "[default: 2000]" in next(line for line in res.stdout.splitlines()
                                     if "--held-out-deals" in line)
