"""``fuzzeval tournament``: what it prints, pinned."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()

pytestmark = pytest.mark.pinned


def test_a_two_seat_tournament_with_winners_measures_win_rates(tmp_path: Path) -> None:
    done = runner.invoke(app, ["tournament", "cribbage", "-p", "random", "-p", "greedy",
                               "--games", "2", "-w", "1", "--db", str(tmp_path / "t.sqlite"),
                               "--plot", str(tmp_path / "t.png")])
    assert done.exit_code == 0, done.output
    assert "the row player's win rate against each column's" in " ".join(done.output.split())
