"""The fuzzy player one ply deeper: a play is worth what the opponent can make of it.

For each of the ``width`` plays the rule base grades best (GNU Backgammon filters its
candidates the same way before looking deeper), the opponent's 21 rolls are played out:
for each roll its best reply, graded by the same rule base from its side; the play's value
is minus the mean of those best grades over the 36 rolls (a double counts once, any other
roll twice). The other plays are never chosen. A play that bears off my last checker wins
outright; a reply that bears off the opponent's last is worth more to it than any grade.
Where the grades are values (a ``weighted_sum`` base learned by TD(λ): the points a game
the side that moved expects), a game's end is worth exactly its points instead (1, a
gammon 2, a backgammon 3), on the same scale as the values around it.
All the replies of a decision are graded in one call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from fuzzeval.games.backgammon.board import Boards, Position, end_points
from fuzzeval.games.backgammon.features import position_features
from fuzzeval.games.backgammon.moves import plays

if TYPE_CHECKING:
    from fuzzeval.games.backgammon.players import FuzzyGrades, MoveView

FloatArray = npt.NDArray[np.float64]

#: the 21 distinct rolls, and the share of the 36 each stands for
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
ROLL_SHARE = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0


@dataclass(frozen=True)
class LookaheadGrades:
    """1-ply grades from a 0-ply grader (a ``FuzzyGrades``); see the module docstring."""

    grades: FuzzyGrades
    width: int = 4

    def __call__(self, view: MoveView) -> FloatArray:
        zero = self.grades(view)
        out = np.full(len(zero), -np.inf)
        out[np.argsort(-zero, kind="stable")[: self.width]] = 0.0
        looked = np.flatnonzero(out == 0.0)
        output = self.grades.rulebase.output
        values = self.grades.rulebase.defuzzifier == "weighted_sum"
        win = output.hi + (output.hi - output.lo)  # beyond any grade
        me: list[npt.NDArray[np.int64]] = []
        opp: list[npt.NDArray[np.int64]] = []
        sizes: list[int] = []
        expanded: list[int] = []
        for i in looked:
            mine = view.options[int(i)]
            if sum(mine.me) == 0:  # I have borne off my last checker
                out[i] = _won(mine) if values else np.inf
                continue
            expanded.append(int(i))
            theirs = mine.flip()
            for roll in ROLLS:
                boards = plays(theirs, roll).boards
                me.append(boards.me)
                opp.append(boards.opp)
                sizes.append(len(boards))
        if not sizes:
            return out
        replies = Boards(np.concatenate(me), np.concatenate(opp))
        graded = self.grades.evaluator.grade(
            position_features(replies, self.grades.rulebase.input_names))
        done = replies.me.sum(axis=1) == 0  # the opponent bore off its last
        graded[done] = end_points(replies.opp[done]) if values else win
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        best = np.maximum.reduceat(graded, starts).reshape(-1, len(ROLLS))
        out[expanded] = -(best @ ROLL_SHARE)
        return out


def _won(final: Position) -> float:
    return float(end_points(np.array([final.opp]))[0])
