"""Every table the command line prints fits an 80-column terminal (long names fold onto a
second line, numbers never wrap), as the commands run: a new process with COLUMNS=80."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

WIDTH = 80
COMMANDS = {
    "evaluate": ["evaluate", "fuzzeval_example", "-i", "SinglePieces=3", "-i",
                 "OpponentOnBar=2", "-i", "SinglePiecesInHome=2", "--explain"],
    "rulebase show": ["rulebase", "show", "backgammon_refined"],
    "match cribbage": ["match", "cribbage", "-p", "greedy", "--opponent", "random", "-n", "3",
                       "--db", "{tmp}/m.sqlite"],
    "match backgammon": ["match", "backgammon", "-p", "random", "-n", "2", "--db",
                         "{tmp}/m.sqlite"],
    "evaluate-calibration": ["evaluate-calibration", "{calibration}", "--games", "4",
                             "--held-out-deals", "20", "-w", "1"],
    "tournament, five players": ["tournament", "cribbage", "--games", "1", "-w", "1", "--db",
                                 "{tmp}/t.sqlite", "--plot", "{tmp}/t.png"],
    "tournament, seven players (one row a pairing)": [
        "tournament", "cribbage", "-p", "random", "-p", "greedy", "-p", "es", "-p", "fuzzy",
        "-p", "random:pegging=basic", "-p", "greedy:pegging=basic", "-p",
        "fuzzy:rulebase=cribbage_linguistic", "--games", "1", "-w", "1",
        "--db", "{tmp}/t.sqlite", "--plot", "{tmp}/t.png"],
    "tune": ["tune", "cribbage", "--budget", "15", "--training-deals", "20",
             "--held-out-deals", "20", "-w", "1", "--db", "{tmp}/tune.sqlite"],
    "cribbage discard": ["cribbage", "discard", "--crib", "mine",
                         "5H", "5S", "JD", "QC", "4S", "9C"],
    "cribbage discard fuzzy": ["cribbage", "discard", "--crib", "mine",
                               "5H", "5S", "JD", "QC", "4S", "9C",
                               "-p", "fuzzy:rulebase=cribbage_linguistic", "--explain"],
    "cribbage report": ["cribbage", "report", "--deals", "20", "-w", "1", "--plot",
                        "{tmp}/r.png"],
    "backgammon moves": ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31", "-p",
                         "fuzzy:rulebase=backgammon_simple", "--explain"],
}


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(WIDTH)}
    return subprocess.run([sys.executable, "-m", "fuzzeval", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


@pytest.fixture(scope="module")
def calibration(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A small calibration, and what `calibrate` printed making it."""
    tmp = tmp_path_factory.mktemp("widths")
    db = tmp / "c.sqlite"
    done = _run(["calibrate", "cribbage", "--opponent", "random", "--rounds", "2",
                 "--games-per-round", "4", "--held-out-deals", "30", "-w", "1", "--db", str(db)],
                tmp)
    assert done.returncode == 0, done.stderr
    return db, done.stdout


def test_calibrate_fits_80_columns(calibration: tuple[Path, str]) -> None:
    _, printed = calibration
    assert "win rate" in printed and _widest(printed) <= WIDTH, printed


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_table_fits_80_columns(name: str, tmp_path: Path,
                                     request: pytest.FixtureRequest) -> None:
    # the calibration only where the command reads it: made once a worker that needs it
    needs = any("{calibration}" in a for a in COMMANDS[name])
    made = request.getfixturevalue("calibration")[0] if needs else None
    args = [a.format(tmp=tmp_path, calibration=made) for a in COMMANDS[name]]
    done = _run(args, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "─" in done.stdout or "━" in done.stdout  # a table was printed
    assert _widest(done.stdout) <= WIDTH, done.stdout


def test_a_match_table_keeps_long_names_whole_and_its_margins_signed(tmp_path: Path) -> None:
    """A long player's name was cut ('fuzzy:rulebase=cribbage_l…'), a margin that rounds to
    zero read -0.0, and hold'em's margin in chips stood under a row in small bets."""
    from fuzzeval.cli.match import _signed

    long = "fuzzy:rulebase=cribbage_linguistic_tuned"
    done = _run(["match", "cribbage", "-p", long, "--opponent", "random", "-n", "2",
                 "--db", str(tmp_path / "m.sqlite")], tmp_path)
    assert done.returncode == 0, done.stderr
    header = [line for line in done.stdout.splitlines() if line.startswith("┃")]
    cells = ["".join(line.split("┃")[2].strip() for line in header)]
    assert cells == [long] and _widest(done.stdout) <= WIDTH
    assert [_signed(x) for x in (-0.04, 0.0, -0.0, 0.04, -1.25, 6.5)] == [
        "+0.0", "+0.0", "+0.0", "+0.0", "-1.2", "+6.5"]
    held = _run(["match", "holdem", "-p", "call", "--opponent", "random", "-n", "2",
                 "--db", str(tmp_path / "h.sqlite")], tmp_path)
    assert held.returncode == 0 and "small bets per hand" in held.stdout
    assert "margin" not in held.stdout


@pytest.mark.parametrize("command", [["match"], ["tournament"], ["play"], ["cribbage", "peg"],
                                     ["tune"]])
def test_a_help_text_flows_to_the_width(command: list[str], tmp_path: Path) -> None:
    """The docstrings' own line ends were kept, leaving 'another' or 'Every' alone on a line
    of `--help` at 80 columns: each paragraph now fills its lines."""
    done = _run([*command, "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    paragraphs: list[list[str]] = [[]]
    for line in done.stdout.split("╭")[0].splitlines():  # the text above the boxes
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    told = [p for p in paragraphs if p and not p[0].startswith("Usage:")]
    assert told
    for lines in told:
        assert all(len(line) >= 55 for line in lines[:-1]), lines
