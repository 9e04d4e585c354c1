"""Our hold'em against OpenSpiel's ``universal_poker`` with the ACPC reverse-blinds game
string: the same player to act, the same legal actions at every decision and the same
chips, on seeded random hands (10,000 of each kind in the module's script) and on the
hand-worked hands of test_holdem_rules."""

from __future__ import annotations

import pytest

from fuzzeval.games.holdem import openspiel, rules
from fuzzeval.games.holdem.openspiel import GAME_STRING
from fuzzeval.games.holdem.scripts.check_openspiel import agree, main, replay
from tests.games.test_holdem_rules import deal


def test_the_game_string_is_the_issues() -> None:
    assert GAME_STRING == (
        "universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,"
        "raiseSize=10 10 20 20,firstPlayer=2 1 1 1,maxRaises=3 4 4 4,numSuits=4,"
        "numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1)")


def test_random_hands_agree() -> None:
    result = agree(600, seed=11)
    assert result.hands == 600 and result.decisions > 2_000
    assert result.showdowns > 30 and result.capped > 20


def test_hands_without_folds_agree_through_caps_and_split_pots() -> None:
    result = agree(400, seed=12, folds=False)
    assert result.showdowns == 400 and result.capped > 100 and result.splits > 5


@pytest.mark.parametrize(("cards", "betting", "won"), [
    ("AsAh|2c7d/9h9d2s/Ks/4c", "f", (5, -5)),
    ("AsAh|2c7d/9h9d2s/Ks/4c", "rf", (-10, 10)),
    ("AsAh|2c7d/9h9d2s/Ks/4c", "cc/rrf", (-20, 20)),
    ("QcJd|AsAh/9h9d2s/Ks/4c", "rc/rc/rc/rc", (-70, 70)),
    ("2c3d|4h5c/AsKsQs/Js/Ts", "rrrc/rrrrc/rrrrc/rrrrc", (0, 0)),  # capped, split
    ("Ac3d|Ad4h/9h9d2s/2h/Kc", "cc/cc/cc/cc", (0, 0)),
])
def test_hand_worked_hands_agree(cards: str, betting: str, won: tuple[int, int]) -> None:
    d = deal(cards)
    b, decisions = replay(d, betting.replace("/", ""))
    assert rules.chips(d, b) == won and decisions == len(betting.replace("/", ""))


def test_a_rule_changed_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: a fifth bet allowed, or the big blind acting first after the
    flop, differs from OpenSpiel within a few hands."""
    monkeypatch.setattr(rules, "MAX_BETS", 5)
    with pytest.raises(AssertionError, match="OpenSpiel"):
        agree(200, seed=3, folds=False)
    monkeypatch.undo()
    monkeypatch.setattr(rules, "BIG", 1)
    with pytest.raises(AssertionError, match="OpenSpiel"):
        agree(50, seed=3)


def test_script_prints_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "30"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "no folds" in out and " 30 " in out
    assert openspiel.ACTION_IDS == {"f": 0, "c": 1, "r": 2}
