"""Hold'em told action by action (``history show``) and played at the terminal (``fuzzeval
play holdem``), hidden cards hidden from the person until the showdown."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import NotationError
from fuzzeval.games.holdem.game import GAME, State
from fuzzeval.games.holdem.play import HoldemPlay
from fuzzeval.games.holdem.rules import START, legal, parse_betting
from tests.games.test_holdem_rules import deal

runner = CliRunner()
PLAY = HoldemPlay()
NAMES = ("ann", "bob")


def told(cards: str, betting: str, button: int, viewer: int | None = None) -> list[str]:
    """Every line narrated for ``betting`` (no '/') on ``cards``."""
    state = State(deal(cards), START, button)
    lines = PLAY.start(state, NAMES)
    for action in betting:
        after = GAME.apply(state, legal(state.betting).index(action), np.random.default_rng())
        lines += PLAY.narrate(state, legal(state.betting).index(action), after, NAMES, viewer)
        state = after
    return lines


def test_a_hand_told_to_its_showdown() -> None:
    lines = told("AsAh|QcJd/9h9d2s/Ks/4c", "rcccrrccc", button=1)
    assert lines == [
        "button (small blind 5, acts first): bob; big blind (10): ann",
        "hole cards: ann AsAh, bob QcJd",
        "bob (button) raised",
        "ann (big blind) called",
        "flop: 9h 9d 2s (pot 40)",
        "ann (big blind) checked",
        "bob (button) checked",
        "turn: 9h 9d 2s Ks (pot 40)",
        "ann (big blind) bet",
        "bob (button) raised",
        "ann (big blind) called",
        "river: 9h 9d 2s Ks 4c (pot 120)",
        "ann (big blind) checked",
        "bob (button) checked",
        "showdown: ann As Ah, two pair",
        "showdown: bob Qc Jd, pair",
        "ann took the pot of 120 chips (+60)",
    ]


def test_a_fold_and_a_split_told_and_hidden_cards_kept_hidden() -> None:
    folded = told("AsAh|QcJd/9h9d2s/Ks/4c", "f", button=0, viewer=1)
    assert folded[1:] == ["ann (button) folded", "bob took the pot of 15 chips (+5)"]
    assert not any("As" in line or "Qc" in line for line in folded)
    split = told("2c3d|4h5c/AsKsQs/Js/Ts", "cccccccc", button=0)
    assert split[-1] == "the pot of 20 chips was split"
    assert "showdown: bob 2c 3d, straight flush" in split


def test_a_person_types_words_or_letters() -> None:
    state = GAME.new_game(np.random.default_rng(2), 0)
    cands = GAME.candidates(state)
    assert [PLAY.parse(t, cands) for t in ("f", "Call", " raise ", "c")] == [0, 1, 2, 1]
    with pytest.raises(NotationError, match="'check': not an action here"):
        PLAY.parse("check", cands)
    assert PLAY.prompt(cands) == "fold, call, raise (f, c, r)"
    checked = GAME.apply(GAME.apply(state, 1, np.random.default_rng()), 0,
                         np.random.default_rng())
    shown = PLAY.situation(GAME.candidates(checked), NAMES, 1)
    assert shown[1] == "pot 20, to call 0, bets this round 0 of 4; betting so far: cc/"
    assert parse_betting("cc/") == checked.betting


def test_history_show_tells_a_stored_hand(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    played = runner.invoke(app, ["match", "holdem", "-p", "call", "--opponent", "random",
                                 "-n", "4", "--db", db, "-w", "1"])
    assert played.exit_code == 0, played.output
    shown = runner.invoke(app, ["history", "show", db, "--game", "1"])
    assert shown.exit_code == 0, shown.output
    assert "hole cards: call " in shown.output and "(button)" in shown.output
    assert shown.output.splitlines()[-1].startswith("final score call ")


def test_a_person_plays_a_hand_at_the_terminal(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "holdem", "--opponent", "call", "-n", "1", "--db",
                                 str(tmp_path / "p.sqlite"), "--seed", "4"],
                           input="c\nx\nc\nc\nc\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "error: 'x': not an action here (legal: check, bet)" in out
    assert "you (button) called" in out and "showdown: call " in out
    assert "you were paid" in out and "small bets per hand over 1" in out
    assert "nobody won" not in out
