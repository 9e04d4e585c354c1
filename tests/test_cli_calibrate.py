"""``fuzzeval calibrate``: what it prints, pinned."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()

pytestmark = pytest.mark.pinned


@pytest.mark.usefixtures("drift_not_drawn")
def test_calibration_rounds_are_a_table_with_each_round_s_shift(tmp_path: Path) -> None:
    """Each round: its win rate with the Wilson interval (3 wins of 3: 43.9 %-100.0 %, or
    0 of 3: 0.0 %-56.1 %), the points it moved and their mean shift."""
    done = runner.invoke(app, ["calibrate", "cribbage", "--opponent", "random", "--rounds",
                               "2", "--games-per-round", "3", "-w", "1",
                               "--held-out-deals", "0", "--db", str(tmp_path / "c.sqlite"),
                               "--plot", str(tmp_path / "c.png")])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    head = lines.index("  round          win rate (95%)   points moved   mean |shift|  ")
    assert set(lines[head + 1].strip()) == {"─"}
    intervals = {3: "(43.9%–100.0%)", 2: "(20.8%–93.9%)", 1: "(6.1%–79.2%)",
                 0: "(0.0%–56.1%)"}
    for k in (1, 2):
        m = re.fullmatch(r" +(\d) +(\d+\.\d)% (\(.*?\)) +(\d+) +(\d\.\d{4}) +", lines[head + 1 + k])
        assert m is not None, lines[head + 1 + k]
        wins = round(float(m[2]) * 3 / 100)
        assert (int(m[1]), m[3]) == (k, intervals[wins])
        assert int(m[4]) > 0 and float(m[5]) > 0
