"""benchmarks/hearts_passes.py: the passes and the play of a player apart. Its games are
those of ``fuzzeval match --duplicate`` (checked against a stored match), a player split
with itself is that player, and its table names every row."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from benchmarks.hearts_passes import Split, half_width, per_deal
from fuzzeval.cli import app
from fuzzeval.games.hearts.game import GAME
from fuzzeval.play.match import make_player
from fuzzeval.play.store import History

ROOT = Path(__file__).resolve().parents[2]


def test_its_deals_are_the_duplicate_matchs(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    done = CliRunner().invoke(app, ["match", "hearts", "-p", "td", "--opponent", "heuristic",
                                    "--duplicate", "-n", "12", "--seed", "26", "-w", "1",
                                    "--db", str(db)])
    assert done.exit_code == 0, done.output
    with History(db) as history:
        paid = [o.payoffs[0] for o in history.outcomes(1)]
    td = make_player(GAME, "td")
    assert per_deal(td, 3, 26).tolist() == np.reshape(paid, (3, 4)).mean(axis=1).tolist()


def test_a_player_split_with_itself_is_that_player() -> None:
    heuristic, td = make_player(GAME, "heuristic"), make_player(GAME, "td")
    assert per_deal(Split(td, td), 2, 5).tolist() == per_deal(td, 2, 5).tolist()
    assert per_deal(Split(heuristic, heuristic), 2, 5).tolist() == per_deal(
        heuristic, 2, 5).tolist()
    assert per_deal(Split(heuristic, td), 2, 5).tolist() != per_deal(td, 2, 5).tolist()


def test_half_width_by_hand() -> None:
    """Student's t below 30 values (t(0.975, 1) = 12.706), 1.96 from 30 on, 0 for one."""
    assert half_width(np.array([1.0, 3.0])) == pytest.approx(12.7062, abs=1e-4)  # sd sqrt 2
    assert half_width(np.array([0.0, 2.0] * 25)) == pytest.approx(1.959964 * np.sqrt(50 / 49)
                                                                 / np.sqrt(50))
    assert half_width(np.array([4.0])) == 0.0


def test_the_table_names_every_row_and_bad_input_is_one_line() -> None:
    script = str(ROOT / "benchmarks" / "hearts_passes.py")
    done = subprocess.run([sys.executable, script, "--deals", "1"], capture_output=True,
                          text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split("|")[1].strip() for line in done.stdout.splitlines()
            if line.startswith("| ")]
    assert rows == ["player", "heuristic", "td", "td plays, heuristic passes",
                    "heuristic plays, td passes"]
    assert max(len(line) for line in done.stdout.splitlines()) <= 80
    bad = subprocess.run([sys.executable, script, "--rulebase", "nope"], capture_output=True,
                         text=True, check=False, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.splitlines()[-1].startswith(
        "hearts_passes.py: error: --rulebase nope: no shipped rule base 'nope'")
