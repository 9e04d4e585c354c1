"""A backgammon game that runs past its turn limit (players that never bear off, as a
learner's early self-play might) stops a match or a learn with one line naming the game,
not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.backgammon import game

runner = CliRunner()
SAYS = ("error: backgammon game 0 of seed 1 did not end: no one had borne off all their "
        "checkers after 5 turns")


@pytest.mark.parametrize("command", [
    ["match", "backgammon", "-p", "pubeval", "--opponent", "pubeval", "-n", "2", "-w", "1"],
    ["learn", "backgammon", "-n", "2", "--block", "1", "--measure-every", "0", "-o",
     "x.yaml"],
])
def test_a_game_past_the_turn_limit_is_one_line(command: list[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game, "MAX_TURNS", 5)
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, [*command, "--seed", "1", "--db", "h.sqlite"])
    assert done.exit_code == 1, done.output
    assert done.output == SAYS + "\n"  # the one line: no traceback, no stray empty line
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert not (tmp_path / "x.yaml").exists()
