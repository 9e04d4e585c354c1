"""Learned values of the position a trick leaves, for the search to the end of the trick:
a leaf is worth to each seat the points it has taken so far plus the points it is expected
to take from there on, the Q♠'s (0-13) and the hearts' (0-13) learned apart by TD(λ) in
the perfect-information game (``hearts_positions``), as Sturtevant & White (2006) learned
them, and summed.

Where the answer is known it is not learned: no Q♠ points to come once it is laid, no more
hearts than are still out. A leaf at the hand's end (or a longer game's next deal) is
worth what the hand scored (``trick.points_taken``). A moon shot is not valued: the
learned values count the points a seat takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.games.hearts.game import State
from fuzzeval.games.hearts.positions import POSITION_NAMES, FloatArray, features_of
from fuzzeval.games.hearts.trick import points_taken

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
        positions of these features (n, 4, features), each kept within what is still out."""
        n = features.shape[0]
        rows = features.reshape(4 * n, -1)
        queen_out = (rows[:, _COL["queen_here"]] + rows[:, _COL["queen_other"]]) > 0
        queen = np.where(queen_out, np.clip(_graded(self.queen, rows), 0.0, 13.0), 0.0)
        hearts = np.clip(_graded(self.hearts, rows), 0.0, rows[:, _COL["hearts_left"]])
        out: FloatArray = (queen + hearts).reshape(n, 4)
        return out

    def __call__(self, leaves: Sequence[State]) -> FloatArray:
        out = points_taken(leaves)
        between = [i for i, leaf in enumerate(leaves) if leaf.hand.phase == "play"
                   and not leaf.hand.trick and leaf.hand.laid]
        if between:
            out[between] += self.to_come(features_of([leaves[i].hand for i in between]))
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
