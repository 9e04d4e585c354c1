"""What a stopped command says it has stored, and the rate figures of ``cribbage pegging``:
the small helpers the signal tests reach in other processes (outside mutation testing's
view), pinned here by value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import UsageError
from fuzzeval.play.store import History

pytestmark = pytest.mark.pinned

runner = CliRunner()


@pytest.mark.usefixtures("drift_not_drawn")
def test_a_stopped_calibration_and_evaluation_say_what_they_stored(tmp_path: Path) -> None:
    """A calibration's own rounds and their games; a history holding none has saved
    nothing (it said "0 finished rounds and 0 games" before, unlike tune and learn)."""
    from fuzzeval.cli.evaluate_calibration import _games
    from fuzzeval.learn.calibration_rounds import CALIBRATIONS

    db = tmp_path / "c.sqlite"
    done = runner.invoke(app, ["calibrate", "cribbage", "--opponent", "random", "--rounds",
                               "2", "--games-per-round", "3", "--workers", "1",
                               "--held-out-deals", "0", "--db", str(db), "--plot",
                               str(tmp_path / "d.png"), "--json"])
    assert done.exit_code == 0, done.output
    assert CALIBRATIONS.saved_in(db, None, None) == "2 finished rounds and 6 games"
    with History(db) as history:
        assert _games(history) == "6 games"
        settings = CALIBRATIONS.head(history, 1, "settings")[1][0]
    with History(db) as history, history.conn:  # one round of one game: singular
        history.conn.execute("UPDATE calibration_rounds SET match_id = NULL WHERE round > 0")
        history.conn.execute("DELETE FROM games WHERE idx > 0 OR match_id > 1")
    assert CALIBRATIONS.saved_in(db, None, None) == "1 finished round and 1 game"
    from fuzzeval.learn.calibration_rounds import CalibrationSettings
    from fuzzeval.play.runs import settings_from_json
    asked = settings_from_json(CalibrationSettings, settings)
    assert CALIBRATIONS.saved_in(db, asked, None) == "1 finished round and 1 game"
    assert CALIBRATIONS.saved_in(db, asked, "another start") is None
    with History(tmp_path / "empty.sqlite") as history:
        assert _games(history) == "0 games"
    assert CALIBRATIONS.saved_in(tmp_path / "empty.sqlite", None, None) is None


def test_a_stopped_learn_and_tuning_say_what_they_stored(tmp_path: Path) -> None:
    from fuzzeval.learn.td_runs import LEARNS
    from fuzzeval.learn.tune import TUNINGS, TuneSettings

    db = tmp_path / "l.sqlite"
    assert LEARNS.saved_in(db, None, None) is None  # nothing there yet
    done = runner.invoke(app, ["learn", "hearts", "-n", "8", "--block", "4",
                               "--measure-every", "0", "--order", "1", "--sample-games",
                               "2", "-w", "1", "--db", str(db), "-o",
                               str(tmp_path / "l.yaml"), "--plot", str(tmp_path / "l.png"),
                               "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["games"] == 8
    assert LEARNS.saved_in(db, None, None) == "8 games of learn 1"
    with History(tmp_path / "other.sqlite"):
        pass
    assert LEARNS.saved_in(tmp_path / "other.sqlite", None, None) is None  # no learn in it
    tuning = TuneSettings("cribbage", 10, 1)
    assert TUNINGS.saved_in(tmp_path / "none.sqlite", tuning, "x") is None
    assert TUNINGS.saved_in(db, tuning, "x") is None  # a database without that tuning


@pytest.mark.parametrize(("per_s", "shown"), [
    (4634.4, "4,634"), (9999.4, "9,999"), (10_000.0, "10k"), (209_400.0, "209k"),
    (999_999.0, "1000k"), (1_000_000.0, "1.0M"), (6_140_000.0, "6.1M")])
def test_pegging_rates_are_shown_in_thousands_and_millions(per_s: float, shown: str) -> None:
    from fuzzeval.games.cribbage.cli import _rate

    assert _rate(per_s) == shown


def test_tuning_refuses_a_zero_step_and_seeds_with_1_by_default() -> None:
    import typer

    from fuzzeval.learn.tune import TuneSettings, popsize_of

    for sigma in (0.0, -0.1, 1.5, 1e-300, 0.000999, float("nan")):
        with pytest.raises(UsageError, match=r"^--sigma must be in \[0.001, 1\]"):
            TuneSettings("cribbage", 10, 1, sigma0=sigma)
    assert TuneSettings("cribbage", 10, 1, sigma0=1.0).sigma0 == 1.0
    assert TuneSettings("cribbage", 10, 1, sigma0=0.001).sigma0 == 0.001
    command = typer.main.get_command(app)
    tune = command.get_command(command.context_class(command), "tune")  # type: ignore[attr-defined]
    assert {p.name: p.default for p in tune.params}["seed"] == 1

    class Line:  # CMA-ES's default population, 4 + 3 ln(dimension), for one dimension: 4
        dimension = 1
    assert popsize_of(Line(), TuneSettings("cribbage", 10, 1)) == 4  # type: ignore[arg-type]
    Line.dimension = 8  # 4 + int(3 ln 8) = 4 + 6
    assert popsize_of(Line(), TuneSettings("cribbage", 10, 1)) == 10  # type: ignore[arg-type]
