"""The 1-ply fuzzy player (fuzzeval/games/backgammon/lookahead.py) against a brute force
written here: every ordered roll of the 36, every reply graded on its own."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.games.backgammon import make_player
from fuzzeval.games.backgammon.board import START, Position
from fuzzeval.games.backgammon.lookahead import LookaheadGrades
from fuzzeval.games.backgammon.moves import legal_moves
from fuzzeval.games.backgammon.players import FuzzyGrades, MoveView
from tests.games.backgammon_helpers import random_positions, side


def _grader(width: int) -> LookaheadGrades:
    grader = make_player("fuzzy", lookahead=1, width=width).grader
    assert isinstance(grader, LookaheadGrades) and grader.width == width
    return grader


def _view(position: Position, dice: tuple[int, int]) -> MoveView:
    return MoveView(position, dice, tuple(p for _, p in legal_moves(position, dice)))


def _brute(grades: FuzzyGrades, play: Position) -> float:
    """Minus the mean over the 36 ordered rolls of the opponent's best reply's grade."""
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            replies = [p for _, p in legal_moves(play.flip(), (a, b))]
            best = max(
                (np.inf if sum(r.me) == 0 else
                 float(grades(MoveView(play.flip(), (a, b), (r,)))[0])) for r in replies)
            total += best
    return -total / 36


@pytest.mark.parametrize("dice", [(3, 1), (6, 5), (4, 4)])
def test_values_are_minus_the_mean_best_reply_over_the_36_rolls(dice: tuple[int, int]) -> None:
    grader = _grader(3)
    view = _view(random_positions(40, 3)[17], dice)
    got = grader(view)
    zero = grader.grades(view)
    looked = np.argsort(-zero, kind="stable")[:3]
    assert np.isfinite(got[looked]).all()
    assert (got[np.setdiff1d(np.arange(len(got)), looked)] == -np.inf).all()
    for i in looked:
        assert got[i] == pytest.approx(_brute(grader.grades, view.options[int(i)]),
                                       rel=1e-12, abs=1e-12)


def test_a_play_that_bears_off_the_last_checker_wins_outright() -> None:
    # My last two checkers on my 1 and 2 points; a 2-1 bears both off (or 1 and 2 only one).
    position = Position(side({1: 1, 2: 1}), side({6: 5, 8: 3, 13: 5}))
    view = _view(position, (2, 1))
    got = _grader(4)(view)
    done = [i for i, p in enumerate(view.options) if sum(p.me) == 0]
    assert done and got[done[0]] == np.inf
    player = make_player("fuzzy", lookahead=1)
    assert sum(player.choose(position, (2, 1)).me) == 0


def test_a_reply_that_wins_is_worth_more_than_any_grade() -> None:
    """The opponent has one checker left on its 2 point and a 6-5 cannot hit it: every roll
    bears it off, so every play of mine is worth minus the win value, whatever the grades
    say."""
    position = Position(START.me, side({2: 1}))
    got = _grader(2)(_view(position, (6, 5)))
    output = make_player("fuzzy").grader.rulebase.output  # type: ignore[attr-defined]
    finite = got[np.isfinite(got)]
    assert finite.size == 2
    assert (finite == -(output.hi + (output.hi - output.lo))).all()


def test_a_value_base_counts_a_game_s_end_as_its_points() -> None:
    """With a learned base (values: the points a game the side that moved expects), a game
    that ends is worth its points on that scale: the opponent's every reply bears off its
    last checker (my 24 point is open, so a 1-1 is not blocked) while I have borne off none
    and have two checkers in its home board (my 19 point): a backgammon, 3 points, whatever
    the values say; with none there a gammon; my own bear-off with 13 of its checkers left
    wins a single point."""
    td = make_player("fuzzy", rulebase="backgammon_td", lookahead=1).grader
    assert isinstance(td, LookaheadGrades)
    view = _view(Position(side({6: 5, 8: 3, 13: 5, 19: 2}), side({2: 1})), (6, 5))
    got = td(view)
    looked = np.flatnonzero(np.isfinite(got))
    # a play that moves both checkers off my 19 point (19/13 19/14) leaves a gammon
    want = [-3.0 if sum(view.options[i].me[18:24]) else -2.0 for i in looked]
    assert got[looked].tolist() == want and len(looked) == 4 and -2.0 in want
    gammon = Position(side({6: 5, 8: 3, 13: 7}), side({2: 1}))  # none in its home board
    assert td(_view(gammon, (6, 5)))[np.isfinite(td(_view(gammon, (6, 5))))].tolist() == [
        -2.0] * 4
    mine = Position(side({1: 1, 2: 1}), side({6: 5, 8: 3, 13: 5}))
    view = _view(mine, (2, 1))
    done = [i for i, p in enumerate(view.options) if sum(p.me) == 0]
    assert td(view)[done].tolist() == [1.0] * len(done) and done
    from fuzzeval.games.backgammon.board import end_points

    loser = np.zeros((4, 25), dtype=np.int64)
    loser[0, 5] = 14  # one borne off: single
    loser[1, 5] = 15  # none borne off, none in the winner's home: gammon
    loser[2, 5], loser[2, 18] = 14, 1  # and one in the winner's home (its 19): backgammon
    loser[3, 5], loser[3, 24] = 14, 1  # or on the bar: backgammon
    assert end_points(loser).tolist() == [1.0, 2.0, 3.0, 3.0]


def test_lookahead_options_are_checked() -> None:
    with pytest.raises(ValueError, match="lookahead must be 0 or 1"):
        make_player("fuzzy", lookahead=2)
    with pytest.raises(ValueError, match="width needs lookahead=1"):
        make_player("fuzzy", width=3)
    with pytest.raises(ValueError, match="width must be a whole number >= 1"):
        make_player("fuzzy", lookahead=1, width=0)
    assert isinstance(make_player("fuzzy", lookahead=0).grader, FuzzyGrades)
