"""A backgammon game that runs past its turn limit (players that never bear off, as a
learner's early self-play might) stops a match with one line naming the game, not a
traceback; in a learn it is a draw, so the learn goes on (a resume would meet it again)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.formats.loading import load_rulebase_text
from fuzzeval.games.backgammon import game
from fuzzeval.learn.td_runs import LearnSettings, learn_games, start_source
from fuzzeval.play.registry import load_game

runner = CliRunner()
SAYS = ("error: backgammon game 0 of seed 1 did not end: no one had borne off all their "
        "checkers after 5 turns")


def test_a_match_game_past_the_turn_limit_is_one_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game, "MAX_TURNS", 5)
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, ["match", "backgammon", "-p", "pubeval", "--opponent", "pubeval",
                               "-n", "2", "-w", "1", "--seed", "1", "--db", "h.sqlite"])
    assert done.exit_code == 1, done.output
    assert done.output == SAYS + "\n"  # the one line: no traceback, no stray empty line
    assert done.exception is None or isinstance(done.exception, SystemExit)


def test_a_learning_game_past_the_turn_limit_is_a_draw(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """From all-zero conclusions every value is 0, so a draw (payoff 0) teaches nothing: the
    step is exactly 0; the same game played to its end pays and teaches; the learn (from a
    given start: sampling a start plays games that must end) goes on."""
    settings = LearnSettings("backgammon", order=1, measure_every=0, sample_games=1)
    bg = load_game("backgammon")
    source = start_source(bg, settings, "")
    zeros = np.zeros(len(load_rulebase_text(source).rules))
    ended, paid, episodes = learn_games(bg, source, zeros, settings, [0])
    assert episodes == 2 and paid == 0.0 and np.any(ended != 0)  # zero-sum: -x + x
    monkeypatch.setattr(game, "MAX_TURNS", 5)
    step, paid, episodes = learn_games(bg, source, zeros, settings, [0])
    assert episodes == 2 and paid == 0.0 and not np.any(step)
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, ["learn", "backgammon", "-n", "2", "--block", "1", "--rulebase",
                               "backgammon_td", "--measure-every", "0", "-o",
                               "x.yaml", "--seed", "1", "--db", "h.sqlite", "-w", "1"])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "x.yaml").exists()
