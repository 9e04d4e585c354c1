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


def test_lookahead_options_are_checked() -> None:
    with pytest.raises(ValueError, match="lookahead must be 0 or 1"):
        make_player("fuzzy", lookahead=2)
    with pytest.raises(ValueError, match="width needs lookahead=1"):
        make_player("fuzzy", width=3)
    with pytest.raises(ValueError, match="width must be a whole number >= 1"):
        make_player("fuzzy", lookahead=1, width=0)
    assert isinstance(make_player("fuzzy", lookahead=0).grader, FuzzyGrades)
