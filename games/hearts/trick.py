"""Hearts' binding of the maxⁿ search (``fuzzeval.search.maxn``) to the end of the trick,
as Sturtevant & White (2006) searched: the cards left in the current trick (1 to 4
plies), every seat choosing by the points it takes.

The leaves' values are costs (points, fewer better, as the game's payoff): each seat's
points so far in the hand, the completed trick's included. At the hand's end they are
what the hand scores (a moon shot: 0 to the shooter, 26 to the others), and so they are
as soon as one seat has taken all 26 points, before the hand's last trick (no point is
left to change the score); a longer game's hand that has just ended is valued by that
score too, not by the next hand's empty start.
A learned value of the position the trick leaves (a later piece) takes this one's place
through ``search_trick``'s ``values``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.features import FloatArray
from fuzzeval.games.hearts.game import GAME, State
from fuzzeval.games.hearts.trick_search import IntArray, Leaves
from fuzzeval.search.maxn import MaxnResult, Values, maxn


def trick_over(state: State) -> bool:
    """Whether no card is on the table: the trick the search began in is complete."""
    return not state.hand.trick


def points_taken(leaves: Sequence[State]) -> FloatArray:
    """Each leaf's points to every seat so far in the hand, (len(leaves), 4) (module doc)."""
    rows = np.empty((len(leaves), rules.SEATS))
    for i, leaf in enumerate(leaves):
        hand = leaf.hand
        if hand.phase == "over":
            rows[i] = rules.hand_points(hand)
        elif not hand.laid and leaf.past:  # a longer game's next hand is dealt
            rows[i] = leaf.past[-1]
        else:  # a seat that has taken all 26 has shot the moon: the score is known
            rows[i] = rules.scored(hand.taken)
    return rows


class Taken:
    """``points_taken`` both ways (``trick_search.SeatValues``): the points each seat has
    taken, the leaves' values when nothing is learned."""

    def __call__(self, leaves: Sequence[State]) -> FloatArray:
        return points_taken(leaves)

    def of_seat(self, leaves: Leaves, index: IntArray, seat: int) -> FloatArray:
        out: FloatArray = leaves.points[index, seat]
        return out


TAKEN = Taken()


def search_trick(state: State, values: Values = points_taken) -> MaxnResult:
    """Maxⁿ to the end of the current trick for the seat to play in ``state``: its best
    card is ``rules.legal(state.hand)[result.choice]``. A ValueError in the pass or once
    the game is over: there is no trick to search."""
    if state.hand.phase != "play":
        raise ValueError(f"search_trick: the hand is in its {state.hand.phase} phase, "
                         "not in a trick")
    return maxn(GAME, state, values, trick_over)
