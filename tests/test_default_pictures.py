"""The pictures a command draws by default are named after its database: each calibration's
drift, each tournament's matrix, and ``fuzzeval plot`` redraws them under the same names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from tests.test_cli_runs import CALIBRATE

runner = CliRunner()
TOURNAMENT = ["tournament", "cribbage", "-p", "random", "-p", "greedy", "--games", "2",
              "--workers", "1", "--json"]


def test_each_calibration_database_gets_its_own_drift_picture(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for db in ("runs/x.sqlite", "runs/y_calibration.sqlite"):
        done = runner.invoke(app, [*CALIBRATE, "--db", db])
        assert done.exit_code == 0, done.output
    x, y = Path("plots/x_drift.png"), Path("plots/y_drift.png")
    assert x.stat().st_size > 10_000 and y.stat().st_size > 10_000
    # the default database keeps the documented name (README: plots/cribbage_drift.png)
    done = runner.invoke(app, CALIBRATE)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["plot"] == str(Path("plots/cribbage_drift.png"))
    # a second calibration in one database (other settings) does not overwrite the first
    done = runner.invoke(app, [*CALIBRATE, "--db", "runs/x.sqlite", "--seed", "2"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["plot"] == str(Path("plots/x_drift_2.png"))
    # `fuzzeval plot drift DB` redraws the picture calibrate wrote for that database
    redrawn = runner.invoke(app, ["plot", "drift", "runs/y_calibration.sqlite"])
    assert redrawn.exit_code == 0 and "plots/y_drift.png" in redrawn.output, redrawn.output
    curve = runner.invoke(app, ["plot", "curve", "runs/x.sqlite", "--calibration", "1"])
    assert curve.exit_code == 0 and "plots/x_curve.png" in curve.output, curve.output
    rounds = runner.invoke(app, ["plot", "membership", "runs/x.sqlite"])
    assert rounds.exit_code == 0 and "plots/x_rounds_0_1_2.png" in rounds.output, rounds.output


def test_each_tournament_database_gets_its_own_matrix_picture(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for db, picture in (("runs/a.sqlite", "plots/a_tournament.png"),
                        ("runs/b.sqlite", "plots/b_tournament.png"),
                        (None, "plots/cribbage_tournament.png")):
        done = runner.invoke(app, [*TOURNAMENT, *(["--db", db] if db else [])])
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)["plot"] == picture
        assert Path(picture).stat().st_size > 10_000
