"""One ply deeper: a play is worth what the opponent can make of it.

The search takes an evaluator (``BoardValues``): the values of positions just moved to,
each for the side that moved, many boards in one call. For each of the ``width`` plays
the evaluator values best (GNU Backgammon filters its candidates the same way before
looking deeper), the opponent's 21 rolls are played out: for each roll its best reply,
valued by the same evaluator from its side; the play's value is minus the mean of those
best values over the 36 rolls (a double counts once, any other roll twice). The other
plays are never chosen. A play that bears off my last checker ends the game and is never
valued: it is always looked at and wins outright; so does a reply that bears off the
opponent's last. Where the values are points a game (a ``weighted_sum`` base learned by
TD(λ), an exact table, GNU Backgammon's equity), a game's end is worth exactly its points
(1, a gammon 2, a backgammon 3), on the same scale as the values around it; where they
only rank plays (a taught base's grades), a game won is worth more than any grade.
All the replies of a decision are valued in one call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from fuzzeval.games.backgammon.board import Boards, end_points
from fuzzeval.games.backgammon.moves import plays

if TYPE_CHECKING:
    from fuzzeval.games.backgammon.players import MoveView

FloatArray = npt.NDArray[np.float64]

#: values of positions just moved to (none finished), each for the side that moved
#: (``me`` of each board, the other side to roll): higher is better for it
BoardValues = Callable[[Boards], FloatArray]

#: the 21 distinct rolls, and the share of the 36 each stands for
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
ROLL_SHARE = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0


@dataclass(frozen=True)
class LookaheadGrades:
    """1-ply values of a decision's plays from 0-ply ``values`` (see the module docstring).
    ``win`` is None where the values are points a game (a game's end worth its points);
    else the worth of a reply that wins, beyond any value (a play of mine that wins is
    then worth infinity). Plays not looked at are worth minus infinity."""

    values: BoardValues
    width: int = 4
    win: float | None = None

    def __call__(self, view: MoveView) -> FloatArray:
        options = Boards.of(view.options)
        ended = options.me.sum(axis=1) == 0  # I have borne off my last checker
        zero = np.full(len(options), np.inf)
        going = np.flatnonzero(~ended)
        if going.size:
            zero[going] = self.values(Boards(options.me[going], options.opp[going]))
        looked = np.argsort(-zero, kind="stable")[: self.width]
        out = np.full(len(options), -np.inf)
        out[looked] = self.ply(Boards(options.me[looked], options.opp[looked]))
        return out

    def ply(self, boards: Boards) -> FloatArray:
        """The 1-ply value of each play (positions just moved to, for the side that moved):
        minus the mean of the opponent's best reply over its rolls; a play that bears off
        my last checker is worth its points (or infinity where the values only rank)."""
        ended = boards.me.sum(axis=1) == 0
        out = np.empty(len(boards))
        out[ended] = end_points(boards.opp[ended]) if self.win is None else np.inf
        expanded = np.flatnonzero(~ended)
        if not expanded.size:
            return out
        me: list[npt.NDArray[np.int64]] = []
        opp: list[npt.NDArray[np.int64]] = []
        sizes: list[int] = []
        for i in expanded:
            theirs = boards[int(i)].flip()
            for roll in ROLLS:
                found = plays(theirs, roll).boards
                me.append(found.me)
                opp.append(found.opp)
                sizes.append(len(found))
        replies = Boards(np.concatenate(me), np.concatenate(opp))
        done = replies.me.sum(axis=1) == 0  # the opponent bore off its last
        graded = np.empty(len(replies))
        if (~done).any():
            graded[~done] = self.values(Boards(replies.me[~done], replies.opp[~done]))
        graded[done] = end_points(replies.opp[done]) if self.win is None else self.win
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        best = np.maximum.reduceat(graded, starts).reshape(-1, len(ROLLS))
        out[expanded] = -(best @ ROLL_SHARE)
        return out
