"""Learned values of the position a trick leaves, for the search to the end of the trick:
a leaf is worth to each seat the points it has taken so far plus the points it is expected
to take from there on, the Q♠'s (0-13) and the hearts' (0-13) learned apart by TD(λ) in
the perfect-information game (``hearts_positions``), as Sturtevant & White (2006) learned
them, and summed.

Where the answer is known it is not learned: no Q♠ points to come once it is laid, no more
hearts than are still out. A leaf at the hand's end (or a longer game's next deal) is
worth what the hand scored (``trick.points_taken``), and so is a leaf where one seat has
taken all 26 points, the hand's last trick still to play (a moon shot made: 26 to each
other seat); the threat of one is not learned: the values count the points a seat takes,
as Sturtevant & White learned them, with the moon off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.games.hearts.game import State
from fuzzeval.games.hearts.positions import (
    POSITION_NAMES,
    FloatArray,
    features_of,
    position_features,
)
from fuzzeval.games.hearts.trick import points_taken
from fuzzeval.games.hearts.trick_search import IntArray, Leaves

#: the shipped bases, learned by ``fuzzeval learn hearts_positions`` (docs/learning.md)
QUEEN_BASE = "hearts_positions_td_queen"
HEARTS_BASE = "hearts_positions_td_hearts"

_COL = {name: k for k, name in enumerate(POSITION_NAMES)}


def _graded(ev: Evaluator, rows: FloatArray) -> FloatArray:
    """``ev``'s grades of position rows (n, features in ``POSITION_NAMES`` order)."""
    out: FloatArray = ev.grade(rows[:, [_COL[n] for n in ev.input_names]])
    return out


@dataclass(frozen=True)
class PositionValues:
    """``leaves -> (n, 4)``: each seat's points so far plus its learned points to come
    (module doc); maxⁿ's ``values``."""

    queen: Evaluator
    hearts: Evaluator

    def to_come(self, features: FloatArray) -> FloatArray:
        """(n, 4): the Q♠'s and the hearts' points each seat is expected to take from
        positions of these features (n, 4, features)."""
        n = features.shape[0]
        return self.to_come_rows(features.reshape(4 * n, -1)).reshape(n, 4)

    def to_come_rows(self, rows: FloatArray) -> FloatArray:
        """(m,): the points to come from rows of features (m, features), each kept within
        what is still out. Each distinct row is graded once (a search's leaves repeat
        them about ten times over: the cards the other seats lay change little of what a
        seat sees), and a base grades only the rows where its points are still out."""
        if not len(rows):
            return np.zeros(0)
        keys = np.ascontiguousarray(rows).view(np.dtype((np.void, rows[0].nbytes))).ravel()
        _, first, back = np.unique(keys, return_index=True, return_inverse=True)
        out: FloatArray = self._to_come_distinct(rows[first])[back.ravel()]
        return out

    def _to_come_distinct(self, rows: FloatArray) -> FloatArray:
        out = np.zeros(len(rows))
        queen_out = (rows[:, _COL["queen_here"]] + rows[:, _COL["queen_other"]]) > 0
        if queen_out.any():
            out[queen_out] = np.clip(_graded(self.queen, rows[queen_out]), 0.0, 13.0)
        left = rows[:, _COL["hearts_left"]]
        live = left > 0
        if live.any():
            out[live] += np.clip(_graded(self.hearts, rows[live]), 0.0, left[live])
        return out

    def __call__(self, leaves: Sequence[State]) -> FloatArray:
        out = points_taken(leaves)
        between = [i for i, leaf in enumerate(leaves) if leaf.hand.phase == "play"
                   and not leaf.hand.trick and leaf.hand.laid]
        if between:
            out[between] += self.to_come(features_of([leaves[i].hand for i in between]))
        return out

    def of_seat(self, leaves: Leaves, index: IntArray, seat: int) -> FloatArray:
        """Leaves ``index``'s values to ``seat`` (``trick_search.SeatValues``)."""
        out: FloatArray = leaves.points[index, seat]
        on = index[leaves.between[index]]
        if len(on):
            rows = position_features(leaves.hands[on], leaves.played[on], leaves.leader[on],
                                     leaves.broken[on], leaves.tricks_done[on], (seat,))[:, 0]
            out[leaves.between[index]] += self.to_come_rows(rows)
        return out


def position_values(queen: str = QUEEN_BASE, hearts: str = HEARTS_BASE) -> PositionValues:
    """The values of two learned bases (names of shipped ones or paths): weighted_sum
    bases of the position features (a ValueError in one line otherwise)."""
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.play.game import compile_for_features
    from fuzzeval.resources import find_rulebase

    evaluators = []
    for name in (queen, hearts):
        rb = load_rulebase(find_rulebase(name))
        if rb.defuzzifier != "weighted_sum":
            raise ValueError(f"rule base {rb.name!r} is {rb.defuzzifier}, not a learned "
                             "weighted_sum base of position features")
        evaluators.append(compile_for_features(rb, POSITION_NAMES, "hearts_positions"))
    return PositionValues(evaluators[0], evaluators[1])
