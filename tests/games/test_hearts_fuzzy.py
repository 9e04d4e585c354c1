"""The fuzzy Hearts player and its rule base: it loads clean, grades the candidates in
one call, plays what a player would in hand-worked positions, and refuses a base that
reads anything but Hearts features."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.formats.loading import check_rulebase, load_rulebase
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.advice import position
from fuzzeval.games.hearts.cards import card_str
from fuzzeval.games.hearts.fuzzy import FuzzyHearts, fuzzy_player
from fuzzeval.games.hearts.game import GAME
from fuzzeval.games.hearts.players import heuristic_player, play_out
from fuzzeval.games.hearts.view import view

FUZZY = fuzzy_player()
RNG = np.random.default_rng(0)


def choice(state: rules.State) -> str:
    cards = rules.legal(state)
    return card_str(cards[FUZZY(view(state), cards, RNG)])


def test_the_shipped_base_checks_clean_and_reads_only_hearts_features() -> None:
    rb, problems = check_rulebase("rulebases/hearts.yaml")
    assert rb is not None and problems == []  # no warning either
    assert GAME.make_player("fuzzy").rulebase.name == "hearts"
    assert GAME.rulebase_player == "fuzzy" and GAME.default_rulebase == "hearts"


def test_a_base_reading_other_inputs_is_refused_with_the_feature_list() -> None:
    with pytest.raises(ValueError, match=r"not hearts features \(rank, is_heart"):
        fuzzy_player(rulebase="tipping")
    with pytest.raises(ValueError, match="unknown options of player 'fuzzy'"):
        GAME.make_player("fuzzy", depth=2)


def test_dumps_the_queen_when_void() -> None:
    # clubs led; I hold no club: the QS goes (rule: the discard, the queen first)
    s = position("QS AH KH 3D 4D 5D 6D 7D 8D 9D TD JD",
                 trick="KC", earlier="2C,3C,4C,5C")
    assert choice(s) == "QS"


def test_ducks_with_the_highest_card_that_loses() -> None:
    s = position("2D 9D QD AD 3S 4S 5S 6S 7S 8S 9S TS", trick="TD,JD",
                 earlier="2C,3C,4C,5C")
    assert choice(s) == "9D"


def test_last_on_a_pointless_trick_takes_it_with_the_highest() -> None:
    s = position("2D 9D QD AD 3S 4S 5S 6S 7S 8S 9S TS", trick="TD,JD,3D",
                 earlier="2C,3C,4C,5C")
    assert choice(s) == "AD"
    # with a heart on it, duck: the 9D under the JD
    s = position("2D 9D QD AD 3S 4S 5S 6S 7S 8S 9S TS", trick="TD,JD,3H",
                 earlier="2C,3C,4C,5C")
    assert choice(s) == "9D"


def test_leads_a_low_spade_to_flush_the_queen_and_never_leads_the_queen() -> None:
    s = position("3S 8D 9D TD JD QD KD AD 6C 7C 8C 9C", earlier="2C,3C,4C,5C")
    assert choice(s) == "3S"
    s = position("QS 3S 8D 9D TD JD QD KD AD 7C 8C 9C", earlier="2C,3C,4C,5C")
    assert choice(s) not in ("QS", "3S")  # holding the queen, keep its guard


def test_passes_the_unguarded_queen_first() -> None:
    s = position("QS 2S 2H 3H 4H 5D 6D 7D 8C 9C TC JC 2D", pass_to="left")
    assert choice(s) == "QS"


def test_grades_every_candidate_in_one_call_and_ties_go_to_the_lowest() -> None:
    s = position("2D 9D QD AD 3S 4S 5S 6S 7S 8S 9S TS", trick="KD",
                 earlier="2C,3C,4C,5C")
    grades, feats = FUZZY.judge(view(s), rules.legal(s))
    assert grades.shape == (4,) and feats.shape == (4, len(FUZZY.rulebase.input_names))
    assert grades[0] == pytest.approx(7.5 + 2.5 * 0 / 12)  # 2D: a duck, rank low
    assert grades[1] == pytest.approx(7.5 + 2.5 * 7 / 12)  # 9D: a duck, rank 7
    flat = FuzzyHearts(load_rulebase("hearts"))
    object.__setattr__(flat, "evaluator", type("E", (), {
        "grade": staticmethod(lambda x: np.zeros(len(x)))})())
    assert flat(view(s), rules.legal(s), RNG) == 0  # all tied: the lowest card


def test_plays_whole_hands_legally_in_both_rule_sets() -> None:
    for opts in (rules.STANDARD, rules.STURTEVANT_WHITE):
        rng = np.random.default_rng(5)
        for _ in range(20):
            end = play_out(rules.new_hand(rules.deal(rng), opts, int(rng.integers(4))),
                           [FUZZY, heuristic_player, FUZZY, heuristic_player], rng)
            assert sum(rules.points(end)) in (26, 78)



def test_calibrate_hearts_runs_the_ordinary_loop_for_four_seats(tmp_path: Path) -> None:
    """A round of eq. 1 on hands the fuzzy seat did better than the table's mean: the six
    adjust: points move by rate * (target - before) and the result is a fuzzy player."""
    res = CliRunner().invoke(app, [
        "calibrate", "hearts", "--opponent", "heuristic", "--rounds", "1",
        "--games-per-round", "8", "--db", str(tmp_path / "h.sqlite"), "--workers", "1",
        "--plot", str(tmp_path / "drift.png"), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    moves = data["rounds"][0]["moves"]
    assert {(m["variable"], m["term"], m["point"]) for m in moves} == {
        ("below_out", "none", "right"), ("below_out", "many", "left"),
        ("suit_held", "short", "right"), ("spade_guards", "short", "right"),
        ("spade_guards", "guarded", "left"), ("shooter_points", "threat", "left")}
    for m in moves:
        if not m["stopped"]:
            assert m["after"] == pytest.approx(m["before"] + 0.1 * (m["target"] - m["before"]))
    assert fuzzy_player(rulebase=data["calibrated"]).rulebase.name == "hearts_calibrated"
